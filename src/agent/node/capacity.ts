// Node capacity and allocatable as the kubelet reports them (nodestatus
// MachineInfo setter, cm.GetNodeAllocatableReservation):
//   capacity    cpu (logical CPUs), memory (MemTotal), ephemeral-storage (the
//               root dir's filesystem), hugepages-<size>, pods (--max-pods)
//   allocatable capacity − svc-reserved − system-reserved − hard eviction
//               thresholds (memory.available, nodefs.available), never below
//               0; memory less the huge pages reserved
import { formatQuantity, type Quantity } from '../../api/meta/quantity.js';
import { parseResourceList } from '../../quota/resources.js';
import { hardEvictionReservation, type EvictionThreshold } from './eviction.js';
import type { MachineReader } from './machine.js';

const GIGA = 1_000_000_000n;
const bin = (bytes: bigint | number): Quantity => ({ nanos: BigInt(bytes) * GIGA, format: 'BinarySI' });
const dec = (n: bigint | number): Quantity => ({ nanos: BigInt(n) * GIGA, format: 'DecimalSI' });

export interface CapacityOptions {
  readonly maxPods: number;
  /** Whether ephemeral-storage is reported (LocalStorageCapacityIsolation, default true). */
  readonly localStorageCapacityIsolation?: boolean;
}

/** The machine's capacity, quantities as kube formats them (keys sorted). */
export function machineCapacity(m: MachineReader, opts: CapacityOptions): Record<string, Quantity> {
  const out: Record<string, Quantity> = {
    cpu: { nanos: BigInt(m.cpus()) * GIGA, format: 'DecimalSI' },
    memory: bin(m.memoryCapacity()),
    pods: dec(opts.maxPods),
  };
  if (opts.localStorageCapacityIsolation !== false) out['ephemeral-storage'] = bin(m.rootFs().capacityBytes);
  // kube reports both common sizes, 0 when none are reserved
  const huge = { '2Mi': 0, '1Gi': 0, ...m.hugePages() };
  for (const [size, bytes] of Object.entries(huge)) out[`hugepages-${size}`] = bin(bytes);
  return out;
}

export interface AllocatableOptions {
  /** `--svc-reserved` (kube-reserved). */
  readonly svcReserved?: Readonly<Record<string, string>>;
  readonly systemReserved?: Readonly<Record<string, string>>;
  readonly evictionHard: readonly EvictionThreshold[];
}

/** Allocatable from capacity. */
export function allocatable(capacity: Readonly<Record<string, Quantity>>, opts: AllocatableOptions): Record<string, Quantity> {
  const reserved = new Map<string, bigint>();
  const add = (k: string, nanos: bigint) => reserved.set(k, (reserved.get(k) ?? 0n) + nanos);
  for (const list of [opts.svcReserved, opts.systemReserved]) {
    for (const [k, q] of Object.entries(parseResourceList(list ?? {}))) add(k, q.nanos);
  }
  const hard = hardEvictionReservation(opts.evictionHard, {
    memory: capacity.memory ? capacity.memory.nanos / GIGA : undefined,
    ephemeralStorage: capacity['ephemeral-storage'] ? capacity['ephemeral-storage'].nanos / GIGA : undefined,
  });
  add('memory', hard.memory * GIGA);
  add('ephemeral-storage', hard.ephemeralStorage * GIGA);
  const out: Record<string, Quantity> = {};
  for (const [k, q] of Object.entries(capacity)) {
    const v = q.nanos - (reserved.get(k) ?? 0n);
    out[k] = { nanos: v < 0n ? 0n : v, format: q.format };
  }
  // huge pages are memory no pod can use as ordinary memory
  for (const [k, q] of Object.entries(capacity)) {
    if (!k.startsWith('hugepages-') || !out.memory) continue;
    const v = out.memory.nanos - q.nanos;
    out.memory = { nanos: v < 0n ? 0n : v, format: out.memory.format };
  }
  return out;
}

/** A resource list as the Node carries it: canonical texts, keys sorted. */
export function formatList(l: Readonly<Record<string, Quantity>>): Record<string, string> {
  return Object.fromEntries(Object.keys(l).sort().map((k) => [k, formatQuantity(l[k]!)]));
}
