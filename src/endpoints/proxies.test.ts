import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serveProxy, splitSchemeNamePort } from './proxies.js';
import { newNotFound, type StatusError } from '../api/meta/index.js';
import type { ApiObject } from '../registry/object.js';
import type { ResourceRequestInfo } from './requestinfo.js';

describe('splitSchemeNamePort', () => {
  const cases: [string, string | undefined][] = [
    ['web', 'web'], ['web:8080', 'web'], ['https:web:8443', 'web'], [':web:80', 'web'], ['http:web:', 'web'],
    ['ftp:web:21', undefined], ['a:b:c:d', undefined], ['', undefined], [':80', undefined],
  ];
  for (const [id, want] of cases) it(`${JSON.stringify(id)} → ${want}`, () => assert.equal(splitSchemeNamePort(id), want));
});

describe('serveProxy', () => {
  const info = (name: string, subresource = 'proxy') => ({ namespace: 'ns', name, subresource }) as ResourceRequestInfo;
  const objects: Record<string, ApiObject> = {
    'pods/ns/no-ip': { metadata: { name: 'no-ip' }, status: {} } as ApiObject,
    'pods/ns/ip': { metadata: { name: 'ip' }, status: { podIP: '10.0.0.7' } } as ApiObject,
    'services/ns/empty': { metadata: { name: 'empty' } } as ApiObject,
    'services/ns/backed': { metadata: { name: 'backed' } } as ApiObject,
    'services/ns/no-eps': { metadata: { name: 'no-eps' } } as ApiObject,
    'endpoints/ns/empty': { metadata: { name: 'empty' }, subsets: [] } as unknown as ApiObject,
    'endpoints/ns/backed': { metadata: { name: 'backed' }, subsets: [{ addresses: [{ ip: '10.0.0.8' }] }] } as unknown as ApiObject,
  };
  const deps = (resource: string) => ({
    parent: async (ns: string, n: string) => objects[`${resource}/${ns}/${n}`] ?? Promise.reject(newNotFound({ group: '', resource }, n)),
    endpoints: async (ns: string, n: string) => objects[`endpoints/${ns}/${n}`] ?? Promise.reject(newNotFound({ group: '', resource: 'endpoints' }, n)),
  });
  const answer = async (resource: string, name: string) => {
    try {
      await serveProxy(resource, info(name), deps(resource));
      return 'answered';
    } catch (err) {
      return `${(err as StatusError).status.code} ${(err as StatusError).status.message}`;
    }
  };
  const rows: [string, string, RegExp][] = [
    ['pods', 'missing', /^404 pods "missing" not found$/],
    ['pods', 'no-ip:8080', /^400 address not allowed$/],
    ['pods', 'ip', /^503 pods\/proxy of "ip": this server has no node agent/],
    ['pods', 'ftp:ip:21', /^400 invalid pod request "ftp:ip:21"$/],
    ['services', 'no-eps', /^404 endpoints "no-eps" not found$/],
    ['services', 'https:empty:443', /^503 no endpoints available for service "empty"$/],
    ['services', 'backed', /^503 services\/proxy of "backed"/],
  ];
  for (const [resource, name, want] of rows) it(`${resource}/${name}`, async () => assert.match(await answer(resource, name), want));
});
