// The endpoint resolver for service-referenced webhooks: kube's ResolveEndpoint
// over Service and Endpoints read from the registry, with its errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError, newNotFound } from '../api/meta/status.js';
import type { ApiObject } from '../registry/object.js';
import type { ReadMode } from '../registry/listoptions.js';
import { endpointsResolver } from './serviceresolver.js';

type Obj = Record<string, unknown>;

/** A registry of services and endpoints in namespace ns; `uncached` names objects the watch cache has not seen yet. */
function registry(services: Record<string, Obj>, endpoints: Record<string, Obj>, uncached: string[] = []) {
  const reads: string[] = [];
  const src = {
    store: (_g: string, resource: string) => ({
      getShared: async (ns: string, name: string, mode?: ReadMode): Promise<ApiObject> => {
        reads.push(`${resource}/${name}/${mode?.kind ?? 'mostRecent'}`);
        const from = resource === 'services' ? services : endpoints;
        const o = ns === 'ns' ? from[name] : undefined;
        if (!o || (mode?.kind === 'any' && uncached.includes(`${resource}/${name}`))) throw newNotFound({ group: '', resource }, name);
        return { apiVersion: 'v1', kind: resource === 'services' ? 'Service' : 'Endpoints', metadata: { name, namespace: ns }, ...o } as ApiObject;
      },
    }),
  };
  return { src, reads };
}

const svc = (ports: Obj[], type?: string): Obj => ({ spec: { ...(type ? { type } : {}), ports } });
const eps = (...subsets: Obj[]): Obj => ({ subsets });

describe('endpointsResolver', () => {
  const rows: {
    name: string;
    services: Record<string, Obj>;
    endpoints: Record<string, Obj>;
    port?: number;
    /** Picks for the random choices, in order (subset start, then address). */
    picks?: number[];
    want?: { host: string; port: number };
    error?: { message: string; code?: number };
  }[] = [
    {
      name: 'unnamed port: the single subset address with the unnamed port',
      services: { hook: svc([{ port: 443, targetPort: 8443 }]) },
      endpoints: { hook: eps({ addresses: [{ ip: '10.0.0.5' }], ports: [{ port: 8443 }] }) },
      want: { host: '10.0.0.5', port: 8443 },
    },
    {
      name: 'the service port equal to the one asked for, matched to the endpoint port by name',
      services: { hook: svc([{ name: 'metrics', port: 9090 }, { name: 'https', port: 8443 }], 'NodePort') },
      endpoints: { hook: eps({ addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'metrics', port: 19090 }, { name: 'https', port: 18443 }] }) },
      port: 8443,
      want: { host: '10.0.0.5', port: 18443 },
    },
    {
      name: 'a random address of a random subset with addresses and the port',
      services: { hook: svc([{ name: 'https', port: 443 }], 'LoadBalancer') },
      endpoints: { hook: eps(
        { notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'https', port: 1 }] },
        { addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'other', port: 2 }] },
        { addresses: [{ ip: '10.0.0.3' }, { ip: '10.0.0.4' }], ports: [{ name: 'https', port: 3 }] },
      ) },
      picks: [0, 1],
      want: { host: '10.0.0.4', port: 3 },
    },
    {
      name: 'no Service: the lister\'s NotFound',
      services: {}, endpoints: {},
      error: { message: 'service "hook" not found', code: 404 },
    },
    {
      name: 'ExternalName services are not routed',
      services: { hook: svc([{ port: 443 }], 'ExternalName') }, endpoints: {},
      error: { message: 'unsupported service type "ExternalName"' },
    },
    {
      name: 'no service port equal to the one asked for',
      services: { hook: svc([{ port: 8443 }]) }, endpoints: {},
      error: { message: 'no service port 443 found for service "hook"', code: 503 },
    },
    {
      name: 'no Endpoints object',
      services: { hook: svc([{ port: 443 }]) }, endpoints: {},
      error: { message: 'endpoints "hook" not found', code: 404 },
    },
    {
      name: 'Endpoints without subsets',
      services: { hook: svc([{ port: 443 }]) }, endpoints: { hook: eps() },
      error: { message: 'no endpoints available for service "hook"', code: 503 },
    },
    {
      name: 'only not-ready addresses, or none with the port\'s name',
      services: { hook: svc([{ name: 'https', port: 443 }]) },
      endpoints: { hook: eps({ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'https', port: 1 }] }, { addresses: [{ ip: '10.0.0.2' }], ports: [{ port: 2 }] }) },
      error: { message: 'no endpoints available for service "hook"', code: 503 },
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const picks = [...(row.picks ?? [])];
      const resolve = endpointsResolver(registry(row.services, row.endpoints).src, (n) => Math.min(picks.shift() ?? 0, n - 1));
      const p = resolve('ns', 'hook', row.port ?? 443);
      if (row.want) assert.deepEqual(await p, row.want);
      else {
        await assert.rejects(p, (err: Error) => {
          assert.equal(err.message, row.error!.message);
          assert.equal(isStatusError(err) ? err.status.code : undefined, row.error!.code);
          return true;
        });
      }
    });
  }

  it('reads through the watch cache, asking storage for what the cache has not seen yet', async () => {
    const r = registry({ hook: svc([{ port: 443 }]) }, { hook: eps({ addresses: [{ ip: '10.0.0.9' }], ports: [{ port: 8443 }] }) }, ['endpoints/hook']);
    assert.deepEqual(await endpointsResolver(r.src)('ns', 'hook', 443), { host: '10.0.0.9', port: 8443 });
    assert.deepEqual(r.reads, ['services/hook/any', 'endpoints/hook/any', 'endpoints/hook/mostRecent']);
  });

  it('refuses an empty name, namespace or port', async () => {
    const resolve = endpointsResolver(registry({}, {}).src);
    for (const [ns, name, port] of [['', 'hook', 443], ['ns', '', 443], ['ns', 'hook', 0]] as const) {
      await assert.rejects(resolve(ns, name, port), /^Error: cannot resolve an empty service name or namespace or port$/);
    }
  });
});
