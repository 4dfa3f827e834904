// Downward API files (kube's downwardapi.CollectData): pod fields and
// container resources written as text.
//   fieldRef: metadata.name, .namespace, .uid; metadata.labels and
//     .annotations as sorted `key="value"` lines (Go's %q), or one value with
//     a subscript (metadata.labels['app'])
//   resourceFieldRef: limits./requests. cpu, memory, ephemeral-storage,
//     hugepages-*; an unset limit is the node's allocatable; the value divided
//     by the divisor (1 by default) and rounded up (cpu in millis)
import { normalize } from 'node:path';
import { quantityOf } from '../../api/meta/quantity.js';
import { aggregateErrors } from '../../api/meta/aggregate.js';
import { goQuote } from '../../cel/goquote.js';
import type { ApiObject } from '../../registry/object.js';
import type { FileProjection, Payload } from './atomicwriter.js';
import { PluginError } from './errors.js';
import type { ResourceList } from './resources.js';

export interface DownwardAPIFile {
  path: string;
  fieldRef?: { fieldPath?: string };
  resourceFieldRef?: { containerName?: string; resource?: string; divisor?: unknown };
  mode?: number;
}

function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${goQuote(m![k]!)}`)
    .join('\n');
}

/** kube's fieldpath.ExtractFieldPathAsString for a pod. */
export function podFieldValue(pod: ApiObject, fieldPath: string): string {
  const meta = pod.metadata;
  if (fieldPath.endsWith("']")) {
    const parts = fieldPath.slice(0, -2).split("['");
    if (parts.length >= 2 && parts[0] !== '') {
      const path = parts[0]!;
      const key = parts.slice(1).join("['");
      if (path === 'metadata.annotations') return meta.annotations?.[key] ?? '';
      if (path === 'metadata.labels') return meta.labels?.[key] ?? '';
      throw new PluginError(`fieldPath ${JSON.stringify(fieldPath)} does not support subscript`);
    }
  }
  switch (fieldPath) {
    case 'metadata.annotations':
      return formatMap(meta.annotations);
    case 'metadata.labels':
      return formatMap(meta.labels);
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
  }
  throw new PluginError(`unsupported fieldPath: ${fieldPath}`);
}

interface ContainerLike {
  name?: string;
  resources?: { limits?: Record<string, unknown>; requests?: Record<string, unknown> };
}

function findContainer(pod: ApiObject, name: string): ContainerLike {
  const spec = (pod.spec ?? {}) as { containers?: ContainerLike[]; initContainers?: ContainerLike[] };
  const c = (spec.containers ?? []).find((x) => x.name === name) ?? (spec.initContainers ?? []).find((x) => x.name === name);
  if (!c) throw new PluginError(`container ${name} not found`);
  return c;
}

const ceilDiv = (a: bigint, b: bigint) => a / b + (a % b > 0n ? 1n : 0n);
const milli = (nanos: bigint) => ceilDiv(nanos, 1_000_000n);
const whole = (nanos: bigint) => ceilDiv(nanos, 1_000_000_000n);

/** kube's ExtractResourceValueByContainerNameAndNodeAllocatable. */
export function containerResourceValue(pod: ApiObject, ref: NonNullable<DownwardAPIFile['resourceFieldRef']>, allocatable: ResourceList): string {
  const container = findContainer(pod, ref.containerName ?? '');
  const resource = ref.resource ?? '';
  const divisorQ = quantityOf(ref.divisor);
  const divisor = divisorQ && divisorQ.nanos !== 0n ? divisorQ.nanos : 1_000_000_000n;
  const dot = resource.indexOf('.');
  const kind = resource.slice(0, dot);
  const name = resource.slice(dot + 1);
  const known = ['cpu', 'memory', 'ephemeral-storage'].includes(name) || name.startsWith('hugepages-');
  if ((kind !== 'limits' && kind !== 'requests') || !known) throw new PluginError(`unsupported container resource : ${resource}`);
  const list = (kind === 'limits' ? container.resources?.limits : container.resources?.requests) ?? {};
  let q = quantityOf(list[name]);
  if (kind === 'limits' && !name.startsWith('hugepages-') && (!q || q.nanos === 0n)) q = quantityOf(allocatable[name]) ?? q;
  const nanos = q?.nanos ?? 0n;
  // Go divides float64s and rounds up: cpu in millis, the rest in whole units.
  const value = name === 'cpu' ? Math.ceil(Number(milli(nanos)) / Number(milli(divisor))) : Math.ceil(Number(whole(nanos)) / Number(whole(divisor)));
  return String(value);
}

/** The files of a downwardAPI volume or projection; errors of every file gathered (Go's aggregate). */
export function downwardAPIPayload(pod: ApiObject, items: readonly DownwardAPIFile[], defaultMode: number, allocatable: () => ResourceList): Payload {
  const out: Payload = new Map();
  const errors: string[] = [];
  for (const item of items) {
    let text = '';
    try {
      if (item.fieldRef) text = podFieldValue(pod, item.fieldRef.fieldPath ?? '');
      else if (item.resourceFieldRef) text = containerResourceValue(pod, item.resourceFieldRef, allocatable());
    } catch (err) {
      errors.push((err as Error).message);
    }
    const f: FileProjection = { data: Buffer.from(text), mode: item.mode ?? defaultMode };
    out.set(normalize(item.path), f);
  }
  if (errors.length > 0) throw new PluginError(aggregateErrors(errors));
  return out;
}
