// Eviction thresholds (pkg/kubelet/eviction ParseThresholdConfig): hard and
// soft `signal<quantity|percent` statements, soft grace periods and minimum
// reclaims, typed for the node helper (allocatable) and a later eviction
// manager. Errors carry kube's texts.
import { parseQuantity, type Quantity } from '../../api/meta/quantity.js';
import { DurationError, parseGoDuration } from '../../api/meta/goduration.js';
import { QUANTITY_SYNTAX } from './resources.js';

export const EVICTION_SIGNALS = [
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'allocatableMemory.available',
  'pid.available',
] as const;
export type EvictionSignal = (typeof EVICTION_SIGNALS)[number];

/** Every signal's operator is LessThan. */
export type ThresholdOperator = 'LessThan';

/** An absolute quantity or a fraction (0–1] of capacity. */
export type ThresholdValue = { readonly quantity: Quantity } | { readonly percentage: number };

export interface Threshold {
  readonly signal: EvictionSignal;
  readonly operator: ThresholdOperator;
  readonly value: ThresholdValue;
  readonly hard: boolean;
  /** Soft thresholds: how long the signal must hold before evicting (ms). */
  readonly gracePeriod: number;
  readonly minReclaim?: ThresholdValue;
}

export class EvictionConfigError extends Error {}

const isSignal = (s: string): s is EvictionSignal => (EVICTION_SIGNALS as readonly string[]).includes(s);

function parsePercentage(val: string): number {
  const text = val.replace(/%+$/, '');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new EvictionConfigError(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text) / 100;
}

function parseStatement(signal: string, val: string): Omit<Threshold, 'hard' | 'gracePeriod'> | undefined {
  if (!isSignal(signal)) throw new EvictionConfigError(`unsupported eviction signal ${signal}`);
  if (val.endsWith('%')) {
    // 0% and 100% mean no threshold
    if (val === '0%' || val === '100%') return undefined;
    const p = parsePercentage(val);
    if (p < 0) throw new EvictionConfigError(`eviction percentage threshold ${signal} must be >= 0%: ${val}`);
    if (p > 1) throw new EvictionConfigError(`eviction percentage threshold ${signal} must be <= 100%: ${val}`);
    return { signal, operator: 'LessThan', value: { percentage: p } };
  }
  const q = parseQuantity(val);
  if (!q) throw new EvictionConfigError(QUANTITY_SYNTAX);
  if (q.nanos <= 0n) throw new EvictionConfigError(`eviction threshold ${signal} must be positive: ${val}`);
  return { signal, operator: 'LessThan', value: { quantity: q } };
}

function parseGracePeriods(m: Readonly<Record<string, string>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [signal, val] of Object.entries(m)) {
    if (!isSignal(signal)) throw new EvictionConfigError(`unsupported eviction signal ${signal}`);
    let ms: number;
    try {
      ms = parseGoDuration(val);
    } catch (err) {
      if (err instanceof DurationError) throw new EvictionConfigError(err.message);
      throw err;
    }
    if (ms < 0) throw new EvictionConfigError(`invalid eviction grace period specified: ${val}, must be a positive value`);
    out.set(signal, ms);
  }
  return out;
}

function parseMinimumReclaims(m: Readonly<Record<string, string>>): Map<string, ThresholdValue> {
  const out = new Map<string, ThresholdValue>();
  for (const [signal, val] of Object.entries(m)) {
    if (!isSignal(signal)) throw new EvictionConfigError(`unsupported eviction signal ${signal}`);
    if (val.endsWith('%')) {
      const p = parsePercentage(val);
      if (p < 0) throw new EvictionConfigError(`minimum reclaim percentage threshold ${signal} must be >= 0%: ${val}`);
      if (p > 1) throw new EvictionConfigError(`minimum reclaim percentage threshold ${signal} must be <= 100%: ${val}`);
      out.set(signal, { percentage: p });
      continue;
    }
    const q = parseQuantity(val);
    if (!q) throw new EvictionConfigError(QUANTITY_SYNTAX);
    if (q.nanos < 0n) throw new EvictionConfigError(`negative reclaim defined for signal ${signal}`);
    out.set(signal, { quantity: q });
  }
  return out;
}

export interface EvictionSettings {
  readonly evictionHard: Readonly<Record<string, string>>;
  readonly evictionSoft: Readonly<Record<string, string>>;
  readonly evictionSoftGracePeriod: Readonly<Record<string, string>>;
  readonly evictionMinimumReclaim: Readonly<Record<string, string>>;
}

/** Hard thresholds first, then soft ones; each in signal order of the maps. Throws EvictionConfigError. */
export function parseThresholdConfig(s: EvictionSettings): Threshold[] {
  const grace = parseGracePeriods(s.evictionSoftGracePeriod);
  const reclaim = parseMinimumReclaims(s.evictionMinimumReclaim);
  const out: Threshold[] = [];
  for (const [signal, val] of Object.entries(s.evictionHard)) {
    const t = parseStatement(signal, val);
    if (t) out.push({ ...t, hard: true, gracePeriod: 0, ...minReclaim(reclaim, signal) });
  }
  for (const [signal, val] of Object.entries(s.evictionSoft)) {
    const t = parseStatement(signal, val);
    if (!t) continue;
    const g = grace.get(signal);
    if (g === undefined) throw new EvictionConfigError(`grace period must be specified for the soft eviction threshold ${signal}`);
    out.push({ ...t, hard: false, gracePeriod: g, ...minReclaim(reclaim, signal) });
  }
  return out;
}

const minReclaim = (m: Map<string, ThresholdValue>, signal: string) => (m.has(signal) ? { minReclaim: m.get(signal)! } : {});
