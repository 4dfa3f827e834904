// Pods, services and slices for the endpoint controllers' table tests.
import type { EndpointSlice, Pod, Service, ServicePort } from './types.js';

export interface PodSpec {
  readonly name: string;
  readonly ip?: string | string[];
  readonly ready?: boolean;
  readonly labels?: Record<string, string>;
  readonly ports?: { name?: string; containerPort: number; protocol?: string }[];
  readonly node?: string;
  readonly terminating?: boolean;
  readonly phase?: string;
  readonly hostname?: string;
  readonly subdomain?: string;
  readonly readySince?: string;
}

export function testPod(p: PodSpec): Pod {
  const ips = p.ip === undefined ? [] : Array.isArray(p.ip) ? p.ip : [p.ip];
  return {
    metadata: {
      name: p.name, namespace: 'ns', uid: `uid-${p.name}`, labels: p.labels ?? { app: 'a' },
      ...(p.terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      nodeName: p.node ?? 'n1', containers: [{ name: 'c', ports: p.ports ?? [] }],
      ...(p.hostname ? { hostname: p.hostname } : {}), ...(p.subdomain ? { subdomain: p.subdomain } : {}),
    },
    status: {
      phase: p.phase ?? 'Running',
      ...(ips.length > 0 ? { podIP: ips[0], podIPs: ips.map((ip) => ({ ip })) } : {}),
      conditions: [{ type: 'Ready', status: p.ready === false ? 'False' : 'True', lastTransitionTime: p.readySince ?? '2026-01-01T00:00:00Z' }],
    },
  };
}

export function testService(spec: Partial<NonNullable<Service['spec']>> = {}, name = 'svc', labels?: Record<string, string>): Service {
  const ports: ServicePort[] = spec.ports ?? [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }];
  return {
    metadata: { name, namespace: 'ns', uid: 'svc-uid', creationTimestamp: '2026-01-01T00:00:00Z', ...(labels ? { labels } : {}) },
    spec: { selector: { app: 'a' }, clusterIP: '10.0.0.1', ipFamilies: ['IPv4'], ...spec, ports },
  };
}

/** Pods p0…p(n-1) with IPs 10.1.x.y. */
export function manyPods(n: number, from = 0): Pod[] {
  return Array.from({ length: n }, (_, i) => testPod({ name: `p${from + i}`, ip: `10.1.${Math.floor((from + i) / 250)}.${((from + i) % 250) + 1}` }));
}

/** The endpoint counts of slices, as the plan leaves them. */
export const sizes = (slices: readonly EndpointSlice[]) => slices.map((s) => s.endpoints.length);
