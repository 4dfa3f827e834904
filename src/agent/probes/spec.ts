// A container's probes read from the pod JSON, with the API's defaults for
// fields a client left out (timeoutSeconds 1, periodSeconds 10, thresholds
// 1 and 3), and ports resolved as kube's probe.ResolveContainerPort does.
import { goQuote } from './goformat.js';
import { PROBE_KIND_TITLE, ProbeError, type Json, type Pod, type ProbeKind } from './types.js';

export type ProbeHandler =
  | { readonly kind: 'exec'; readonly command: readonly string[] }
  | { readonly kind: 'httpGet'; readonly scheme: string; readonly host: string; readonly port: number | string; readonly path: string; readonly headers: readonly { readonly name: string; readonly value: string }[] }
  | { readonly kind: 'tcpSocket'; readonly host: string; readonly port: number | string }
  | { readonly kind: 'grpc'; readonly port: number; readonly service: string }
  | { readonly kind: 'none' };

export interface ProbeSpec {
  readonly handler: ProbeHandler;
  readonly initialDelaySeconds: number;
  readonly timeoutSeconds: number;
  readonly periodSeconds: number;
  readonly successThreshold: number;
  readonly failureThreshold: number;
  /** The probe-level grace period (liveness and startup), when set. */
  readonly terminationGracePeriodSeconds?: number;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const positive = (v: unknown, dflt: number): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.trunc(v) : dflt);
const intOrString = (v: unknown): number | string => (typeof v === 'number' || typeof v === 'string' ? v : '');

const FIELD: Readonly<Record<ProbeKind, string>> = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' };

function handlerOf(p: Json): ProbeHandler {
  if (isObj(p.exec)) return { kind: 'exec', command: Array.isArray(p.exec.command) ? p.exec.command.map(String) : [] };
  if (isObj(p.httpGet)) {
    const g = p.httpGet;
    const headers = Array.isArray(g.httpHeaders)
      ? g.httpHeaders.filter(isObj).map((h) => ({ name: str(h.name), value: str(h.value) }))
      : [];
    return { kind: 'httpGet', scheme: str(g.scheme), host: str(g.host), port: intOrString(g.port), path: str(g.path), headers };
  }
  if (isObj(p.tcpSocket)) return { kind: 'tcpSocket', host: str(p.tcpSocket.host), port: intOrString(p.tcpSocket.port) };
  if (isObj(p.grpc)) return { kind: 'grpc', port: typeof p.grpc.port === 'number' ? p.grpc.port : 0, service: str(p.grpc.service) };
  return { kind: 'none' };
}

/** The container's probe of this kind, or undefined when it has none. */
export function probeSpecOf(container: Json, kind: ProbeKind): ProbeSpec | undefined {
  const p = container[FIELD[kind]];
  if (!isObj(p)) return undefined;
  const grace = p.terminationGracePeriodSeconds;
  return {
    handler: handlerOf(p),
    initialDelaySeconds: typeof p.initialDelaySeconds === 'number' && p.initialDelaySeconds > 0 ? Math.trunc(p.initialDelaySeconds) : 0,
    timeoutSeconds: positive(p.timeoutSeconds, 1),
    periodSeconds: positive(p.periodSeconds, 10),
    successThreshold: positive(p.successThreshold, 1),
    failureThreshold: positive(p.failureThreshold, 3),
    ...(typeof grace === 'number' ? { terminationGracePeriodSeconds: grace } : {}),
  };
}

/** The pod's regular containers (probes run on these only). */
export const containersOf = (pod: Pod): Json[] => {
  const spec = isObj(pod.spec) ? pod.spec : {};
  return Array.isArray(spec.containers) ? spec.containers.filter(isObj) : [];
};

export const containerNamed = (pod: Pod, name: string): Json | undefined => containersOf(pod).find((c) => c.name === name);

/**
 * A probe's port: a number, or a container port's name (then its containerPort), or as a last resort a
 * number written as a string; it must be 1–65535. The errors read as kube's.
 */
export function resolveContainerPort(port: number | string, container: Json): number {
  let n: number;
  if (typeof port === 'number') n = port;
  else {
    const ports = Array.isArray(container.ports) ? container.ports.filter(isObj) : [];
    const named = ports.find((p) => p.name === port);
    if (named) n = typeof named.containerPort === 'number' ? named.containerPort : 0;
    else if (!/^[+-]?\d+$/.test(port)) throw new ProbeError(`strconv.Atoi: parsing ${goQuote(port)}: invalid syntax`);
    else if (!Number.isSafeInteger(Number(port))) throw new ProbeError(`strconv.Atoi: parsing ${goQuote(port)}: value out of range`);
    else n = Number(port);
  }
  if (n > 0 && n < 65536) return n;
  throw new ProbeError(`invalid port number: ${n}`);
}

/** The pod's restart policy (Always when unset). */
export const restartPolicyOf = (pod: Pod): string => {
  const spec = isObj(pod.spec) ? pod.spec : {};
  return typeof spec.restartPolicy === 'string' && spec.restartPolicy !== '' ? spec.restartPolicy : 'Always';
};

/** kube's format.Pod: `name_namespace(uid)`. */
export const formatPod = (pod: Pod): string => `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;

export const probeTitle = (kind: ProbeKind): string => PROBE_KIND_TITLE[kind];
