// A container's environment (kube's makeEnvironmentVariables):
//   1. envFrom ConfigMaps/Secrets, prefixed; keys that are not valid names are skipped with an Event
//   2. env in order: values with $(VAR) expanded from what is set so far and the service variables;
//      valueFrom fieldRef / resourceFieldRef / configMapKeyRef / secretKeyRef (optional ones may be absent)
//   3. the service variables not already set: services of the pod's namespace (unless
//      enableServiceLinks is false) and the `kubernetes` service of --master-service-namespace
// Failures are CreateContainerConfigError with kube's messages.
import { Reasons, type EventSink } from './events.js';
import { expand, mappingFor } from './expansion.js';
import { milliValue, unitValue } from './resources.js';
import type { Container, FieldRef, Pod, ResourceFieldRef } from './types.js';

/** A container cannot be configured: the pod's waiting reason becomes CreateContainerConfigError. */
export class ContainerConfigError extends Error {
  override readonly name = 'ContainerConfigError';
}

export interface ServiceLike {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly spec?: { readonly clusterIP?: string; readonly ports?: readonly { readonly name?: string; readonly port: number; readonly protocol?: string }[] };
}

/** Where ConfigMaps, Secrets and Services come from; absent in standalone mode. */
export interface EnvSources {
  /** undefined when it does not exist. */
  configMap(namespace: string, name: string): Promise<{ readonly data?: Readonly<Record<string, string>> } | undefined>;
  /** undefined when it does not exist; data values are base64 as in the API. */
  secret(namespace: string, name: string): Promise<{ readonly data?: Readonly<Record<string, string>> } | undefined>;
  services(): readonly ServiceLike[];
}

export interface EnvOptions {
  readonly sources?: EnvSources;
  /** --master-service-namespace (default `default`). */
  readonly masterServiceNamespace: string;
  readonly podIPs: readonly string[];
  readonly hostIPs: readonly string[];
  /** The node's allocatable (the default limits the downward API reports). */
  readonly nodeAllocatable: Readonly<Record<string, string>>;
  readonly events: EventSink;
}

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
export const isEnvVarName = (s: string): boolean => ENV_NAME.test(s);

const isServiceIPSet = (s: ServiceLike): boolean => !!s.spec?.clusterIP && s.spec.clusterIP !== 'None';
const envName = (s: string): string => s.replace(/-/g, '_').toUpperCase();
const joinHostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** kube's envvars.FromServices. */
export function serviceEnvVars(services: readonly ServiceLike[]): [string, string][] {
  const out: [string, string][] = [];
  for (const s of services) {
    const ports = s.spec?.ports ?? [];
    if (!isServiceIPSet(s) || ports.length === 0) continue;
    const ip = s.spec!.clusterIP!;
    const prefix = envName(s.metadata.name);
    out.push([`${prefix}_SERVICE_HOST`, ip], [`${prefix}_SERVICE_PORT`, String(ports[0].port)]);
    for (const p of ports) if (p.name) out.push([`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port)]);
    ports.forEach((p, i) => {
      const proto = (p.protocol || 'TCP').toLowerCase();
      const url = `${proto}://${joinHostPort(ip, p.port)}`;
      if (i === 0) out.push([`${prefix}_PORT`, url]);
      const pp = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
      out.push([pp, url], [`${pp}_PROTO`, proto], [`${pp}_PORT`, String(p.port)], [`${pp}_ADDR`, ip]);
    });
  }
  return out;
}

/** The services whose variables a pod gets (kube's getServiceEnvVarMap). */
export function serviceEnv(pod: Pod, services: readonly ServiceLike[], masterServiceNamespace: string): Map<string, string> {
  const enableLinks = pod.spec.enableServiceLinks ?? true;
  const chosen = new Map<string, ServiceLike>();
  for (const s of services) {
    if (!isServiceIPSet(s)) continue;
    const name = s.metadata.name;
    if (s.metadata.namespace === masterServiceNamespace && name === 'kubernetes') {
      if (!chosen.has(name)) chosen.set(name, s);
    } else if (s.metadata.namespace === pod.metadata.namespace && enableLinks) chosen.set(name, s);
  }
  return new Map(serviceEnvVars([...chosen.values()]));
}

/** `key="value"` lines, sorted, as kube's fieldpath.FormatMap (Go's %q). */
function formatMap(m: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(m ?? {}).sort().map((k) => `${k}=${JSON.stringify(m![k])}`).join('\n');
}

/** A fieldRef's value (kube's podFieldSelectorRuntimeValue + ExtractFieldPathAsString). */
export function fieldRefValue(ref: FieldRef, pod: Pod, opts: Pick<EnvOptions, 'podIPs' | 'hostIPs'>): string {
  const path = ref.fieldPath;
  const meta = pod.metadata;
  switch (path) {
    case 'spec.nodeName': return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName': return pod.spec.serviceAccountName ?? '';
    case 'status.hostIP': return opts.hostIPs[0] ?? '';
    case 'status.hostIPs': return opts.hostIPs.join(',');
    case 'status.podIP': return opts.podIPs[0] ?? '';
    case 'status.podIPs': return opts.podIPs.join(',');
    case 'metadata.name': return meta.name;
    case 'metadata.namespace': return meta.namespace;
    case 'metadata.uid': return meta.uid;
    case 'metadata.labels': return formatMap(meta.labels);
    case 'metadata.annotations': return formatMap(meta.annotations);
  }
  const sub = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (sub) return (sub[1] === 'labels' ? meta.labels : meta.annotations)?.[sub[2]] ?? '';
  throw new ContainerConfigError(`unsupported fieldPath: ${path}`);
}

/** A resourceFieldRef's value, limits defaulted to the node's allocatable (kube's ExtractContainerResourceValue). */
export function resourceFieldValue(ref: ResourceFieldRef, container: Container, allocatable: Readonly<Record<string, string>>): string {
  const divisor = ref.divisor === undefined || ref.divisor === '' || ref.divisor === 0 ? '1' : ref.divisor;
  const [kind, ...rest] = ref.resource.split('.');
  const resource = rest.join('.');
  const list = kind === 'limits' ? container.resources?.limits : kind === 'requests' ? container.resources?.requests : undefined;
  if (list === undefined && kind !== 'limits' && kind !== 'requests') throw new ContainerConfigError(`unsupported container resource : ${ref.resource}`);
  let v = list?.[resource];
  if (v === undefined && kind === 'limits') v = allocatable[resource];
  if (resource === 'cpu') {
    const d = milliValue(divisor);
    return String(Math.ceil(milliValue(v ?? 0) / d));
  }
  if (resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-')) {
    const d = unitValue(divisor);
    return String(Math.ceil(unitValue(v ?? 0) / d));
  }
  throw new ContainerConfigError(`unsupported container resource : ${ref.resource}`);
}

type Kind = 'configMap' | 'secret';

/** ConfigMaps and Secrets read once per container. */
class Lookups {
  private readonly cache = new Map<string, Record<string, string> | undefined>();
  constructor(private readonly pod: Pod, private readonly sources: EnvSources | undefined) {}
  /** The object's data (secrets decoded); undefined when absent and optional; throws otherwise. */
  async data(kind: Kind, name: string, optional: boolean): Promise<Record<string, string> | undefined> {
    const key = `${kind}/${name}`;
    if (this.cache.has(key)) return this.cache.get(key);
    const ns = this.pod.metadata.namespace;
    if (!this.sources) throw new ContainerConfigError(`couldn't get ${kind} ${ns}/${name}, no kubeClient defined`);
    const obj = kind === 'configMap' ? await this.sources.configMap(ns, name) : await this.sources.secret(ns, name);
    if (obj === undefined) {
      if (optional) return undefined;
      throw new ContainerConfigError(`${kind === 'configMap' ? 'configmap' : 'secret'} "${name}" not found`);
    }
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(obj.data ?? {})) data[k] = kind === 'secret' ? Buffer.from(v, 'base64').toString('utf8') : v;
    this.cache.set(key, data);
    return data;
  }
}

/** The container's environment, in kube's order of precedence. */
export async function containerEnv(pod: Pod, container: Container, opts: EnvOptions): Promise<{ name: string; value: string }[]> {
  const services = opts.sources ? serviceEnv(pod, opts.sources.services(), opts.masterServiceNamespace) : new Map<string, string>();
  const lookups = new Lookups(pod, opts.sources);
  const env = new Map<string, string>();
  for (const from of container.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const kind: Kind = from.configMapRef ? 'configMap' : 'secret';
    const name = ref.name ?? '';
    const data = await lookups.data(kind, name, ref.optional === true);
    if (!data) continue;
    const invalid: string[] = [];
    for (const [k0, v] of Object.entries(data)) {
      const k = (from.prefix ?? '') + k0;
      if (!isEnvVarName(k)) invalid.push(k);
      else env.set(k, v);
    }
    if (invalid.length > 0) {
      opts.events.event(pod, 'Warning', Reasons.InvalidEnvironmentVariableNames,
        `Keys [${invalid.sort().join(', ')}] from the EnvFrom ${kind === 'configMap' ? 'configMap' : 'secret'} ${pod.metadata.namespace}/${name} were skipped since they are considered invalid environment variable names.`);
    }
  }
  const mapping = mappingFor(env, services);
  for (const e of container.env ?? []) {
    let value = e.value ?? '';
    if (value !== '') value = expand(value, mapping);
    else if (e.valueFrom) {
      const vf = e.valueFrom;
      if (vf.fieldRef) value = fieldRefValue(vf.fieldRef, pod, opts);
      else if (vf.resourceFieldRef) {
        const target = vf.resourceFieldRef.containerName
          ? [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === vf.resourceFieldRef!.containerName) ?? container
          : container;
        value = resourceFieldValue(vf.resourceFieldRef, target, opts.nodeAllocatable);
      } else {
        const ref = vf.configMapKeyRef ?? vf.secretKeyRef;
        if (ref) {
          const kind: Kind = vf.configMapKeyRef ? 'configMap' : 'secret';
          const name = ref.name ?? '';
          const optional = ref.optional === true;
          const data = await lookups.data(kind, name, optional);
          if (!data) continue;
          const v = data[ref.key];
          if (v === undefined) {
            if (optional) continue;
            throw new ContainerConfigError(`couldn't find key ${ref.key} in ${kind === 'configMap' ? 'ConfigMap' : 'Secret'} ${pod.metadata.namespace}/${name}`);
          }
          value = v;
        }
      }
    }
    env.set(e.name, value);
  }
  const out = [...env].map(([name, value]) => ({ name, value }));
  for (const [name, value] of services) if (!env.has(name)) out.push({ name, value });
  return out;
}
