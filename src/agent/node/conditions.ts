// The node's conditions as the kubelet's setters write them, in its order:
// MemoryPressure, DiskPressure, PIDPressure (from the eviction thresholds met,
// held for --eviction-pressure-transition-period after the last time), Ready.
// Every condition takes `now` as lastHeartbeatTime; lastTransitionTime moves
// only when the status changes.
import { aggregateErrors } from '../../api/meta/aggregate.js';
import { isObject } from '../../registry/object.js';
import { rfc3339 } from '../../simnodes/clock.js';
import { conditionOf, thresholdsMet, type EvictionThreshold, type Observations } from './eviction.js';

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastHeartbeatTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

type PressureType = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

const PRESSURE: Record<PressureType, { readonly on: readonly [string, string]; readonly off: readonly [string, string] }> = {
  MemoryPressure: { on: ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'], off: ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'] },
  DiskPressure: { on: ['KubeletHasDiskPressure', 'kubelet has disk pressure'], off: ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'] },
  PIDPressure: { on: ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available'], off: ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'] },
};

/** Which pressures hold: a condition stays on for `transitionMs` after its thresholds were last met (kube's eviction manager). */
export class PressureTracker {
  private readonly lastMet = new Map<PressureType, number>();

  constructor(private readonly thresholds: readonly EvictionThreshold[], private readonly transitionMs: number) {}

  observe(o: Observations, now: number): void {
    for (const t of thresholdsMet(this.thresholds, o)) this.lastMet.set(conditionOf(t.signal), now);
  }

  under(type: PressureType, now: number): boolean {
    const t = this.lastMet.get(type);
    return t !== undefined && now - t < this.transitionMs;
  }
}

export interface ReadyInputs {
  /** Runtime, network and other errors, in kube's order. */
  readonly errors: readonly string[];
  /** Capacity names present (cpu, memory, pods, ephemeral-storage are required). */
  readonly capacityNames: readonly string[];
  readonly localStorageCapacityIsolation?: boolean;
  readonly appArmorEnabled?: boolean;
}

/** Ready's status, reason and message. */
export function readiness(r: ReadyInputs): Pick<NodeCondition, 'status' | 'reason' | 'message'> {
  const errs = [...r.errors];
  const required = ['cpu', 'memory', 'pods', ...(r.localStorageCapacityIsolation === false ? [] : ['ephemeral-storage'])];
  const missing = required.filter((k) => !r.capacityNames.includes(k));
  if (missing.length > 0) errs.push(`missing node capacity for resources: ${missing.join(', ')}`);
  if (errs.length > 0) return { status: 'False', reason: 'KubeletNotReady', message: aggregateErrors(errs) };
  return { status: 'True', reason: 'KubeletReady', message: `kubelet is posting ready status${r.appArmorEnabled ? '. AppArmor enabled' : ''}` };
}

/**
 * The four conditions at `now`, keeping each one's lastTransitionTime from
 * `previous` (the status on the server) while its status stays.
 */
export function nodeConditions(opts: { pressure: (t: PressureType) => boolean; ready: ReadyInputs; now: number; previous?: unknown }): NodeCondition[] {
  const prev = isObject(opts.previous) && Array.isArray(opts.previous.conditions) ? opts.previous.conditions.filter(isObject) : [];
  const t = rfc3339(opts.now);
  const make = (type: string, c: Pick<NodeCondition, 'status' | 'reason' | 'message'>): NodeCondition => {
    const before = prev.find((p) => p.type === type);
    const kept = before && before.status === c.status && typeof before.lastTransitionTime === 'string';
    return { type, status: c.status, lastHeartbeatTime: t, lastTransitionTime: kept ? (before.lastTransitionTime as string) : t, reason: c.reason, message: c.message };
  };
  const out: NodeCondition[] = (Object.keys(PRESSURE) as PressureType[]).map((type) => {
    const on = opts.pressure(type);
    const [reason, message] = on ? PRESSURE[type].on : PRESSURE[type].off;
    return make(type, { status: on ? 'True' : 'False', reason, message });
  });
  out.push(make('Ready', readiness(opts.ready)));
  return out;
}
