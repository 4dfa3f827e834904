// Eviction thresholds as the node status needs them (kubelet pkg/kubelet/eviction
// api + helpers): `--eviction-hard` parsed into signal/value pairs, the
// reservation the hard thresholds take out of allocatable, and whether a
// threshold is met by the machine's current figures. Evicting pods under
// pressure comes in a later issue; the pressure conditions are reported now.
import { parseQuantity } from '../../api/meta/quantity.js';
import type { FsFigures } from './machine.js';

export type EvictionSignal =
  | 'memory.available' | 'nodefs.available' | 'nodefs.inodesFree' | 'imagefs.available' | 'imagefs.inodesFree' | 'pid.available';

const SIGNALS: readonly EvictionSignal[] = ['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'pid.available'];

/** A threshold: `signal < quantity` (bytes, inodes or pids) or `signal < percentage` of the capacity. */
export type EvictionThreshold =
  | { readonly signal: EvictionSignal; readonly quantity: bigint }
  | { readonly signal: EvictionSignal; readonly percentage: number };

/** kube's default `--eviction-hard` on Linux. */
export const DEFAULT_EVICTION_HARD = 'imagefs.available<15%,memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%';

export class EvictionThresholdError extends Error {
  override readonly name = 'EvictionThresholdError';
}

/** `a<b,c<d` (kube's ParseThresholdConfig for hard thresholds; its error texts). */
export function parseEvictionThresholds(text: string): EvictionThreshold[] {
  const out: EvictionThreshold[] = [];
  const seen = new Set<string>();
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([^<]+)<(.+)$/.exec(item);
    if (!m) throw new EvictionThresholdError(`invalid eviction threshold syntax ${item}, expected <signal><operator><value>`);
    const signal = m[1]!.trim();
    const value = m[2]!.trim();
    if (!(SIGNALS as readonly string[]).includes(signal)) throw new EvictionThresholdError(`unsupported eviction signal ${signal}`);
    if (seen.has(signal)) throw new EvictionThresholdError(`found duplicate eviction threshold for signal ${signal}`);
    seen.add(signal);
    out.push(parseValue(signal as EvictionSignal, value));
  }
  return out;
}

function parseValue(signal: EvictionSignal, value: string): EvictionThreshold {
  if (value.endsWith('%')) {
    const pct = Number(value.slice(0, -1));
    if (!Number.isFinite(pct) || value.slice(0, -1).trim() === '') throw new EvictionThresholdError(`invalid percentage: ${value}`);
    if (pct < 0) throw new EvictionThresholdError(`eviction percentage threshold ${signal} must be >= 0%: ${value}`);
    if (pct > 100) throw new EvictionThresholdError(`eviction percentage threshold ${signal} must be <= 100%: ${value}`);
    return { signal, percentage: pct / 100 };
  }
  const q = parseQuantity(value);
  if (!q) throw new EvictionThresholdError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  if (q.nanos < 0n) throw new EvictionThresholdError(`eviction threshold ${signal} must be positive: ${value}`);
  return { signal, quantity: (q.nanos + 999_999_999n) / 1_000_000_000n };
}

/** The amount a threshold stands for against `capacity` (a percentage rounded down, as kube's int64 conversion). */
export function thresholdAmount(t: EvictionThreshold, capacity: bigint): bigint {
  if ('quantity' in t) return t.quantity;
  return BigInt(Math.floor(Number(capacity) * t.percentage));
}

/** What hard thresholds take out of allocatable: memory.available → memory, nodefs.available → ephemeral-storage (bytes). */
export function hardEvictionReservation(thresholds: readonly EvictionThreshold[], capacity: { memory?: bigint; ephemeralStorage?: bigint }): { memory: bigint; ephemeralStorage: bigint } {
  let memory = 0n;
  let ephemeralStorage = 0n;
  for (const t of thresholds) {
    if (t.signal === 'memory.available' && capacity.memory !== undefined) memory += thresholdAmount(t, capacity.memory);
    if (t.signal === 'nodefs.available' && capacity.ephemeralStorage !== undefined) ephemeralStorage += thresholdAmount(t, capacity.ephemeralStorage);
  }
  return { memory, ephemeralStorage };
}

/** The machine's figures each signal is measured by: what is available, against what capacity. */
export interface Observations {
  readonly memory: { readonly available: number; readonly capacity: number };
  /** The node's filesystem; the image filesystem is taken to be the same one unless given. */
  readonly nodefs: FsFigures;
  readonly imagefs?: FsFigures;
  readonly pids: { readonly running: number; readonly max: number };
}

function observed(signal: EvictionSignal, o: Observations): { available: number; capacity: number } {
  const image = o.imagefs ?? o.nodefs;
  switch (signal) {
    case 'memory.available': return o.memory;
    case 'nodefs.available': return { available: o.nodefs.availableBytes, capacity: o.nodefs.capacityBytes };
    case 'nodefs.inodesFree': return { available: o.nodefs.inodesFree, capacity: o.nodefs.inodes };
    case 'imagefs.available': return { available: image.availableBytes, capacity: image.capacityBytes };
    case 'imagefs.inodesFree': return { available: image.inodesFree, capacity: image.inodes };
    case 'pid.available': return { available: o.pids.max - o.pids.running, capacity: o.pids.max };
  }
}

/** The node conditions a signal's pressure sets. */
export function conditionOf(signal: EvictionSignal): 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' {
  if (signal === 'memory.available') return 'MemoryPressure';
  if (signal === 'pid.available') return 'PIDPressure';
  return 'DiskPressure';
}

/** The thresholds met now (available below the threshold); a filesystem without inode figures (0 inodes) never meets an inode threshold. */
export function thresholdsMet(thresholds: readonly EvictionThreshold[], o: Observations): EvictionThreshold[] {
  return thresholds.filter((t) => {
    const { available, capacity } = observed(t.signal, o);
    if (capacity <= 0) return false;
    return BigInt(Math.floor(available)) < thresholdAmount(t, BigInt(Math.floor(capacity)));
  });
}
