import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiHttp, statusError } from '../../client/http.js';
import type { ApiObject } from '../../registry/object.js';
import { remoteAgentApi } from './remote.js';
import { POD_STATUS } from '../pods/statusmanager.js';

/** An ApiHttp that answers from a stored pod with a resourceVersion, as the server would (409 on a stale one). */
class FakeServer extends ApiHttp {
  calls: string[] = [];
  stored: ApiObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', resourceVersion: '5' }, status: { phase: 'Pending' } };
  constructor() {
    super({ server: new URL('https://127.0.0.1:1') });
  }
  override async json(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    this.calls.push(`${method} ${path.replace(/\?.*/, '')}`);
    if (method === 'GET') return structuredClone(this.stored) as unknown as Record<string, unknown>;
    const obj = body as ApiObject;
    if (obj.metadata.resourceVersion !== this.stored.metadata.resourceVersion) {
      throw statusError({ status: 409, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 409, reason: 'Conflict', message: 'the object has been modified' } });
    }
    this.stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(Number(obj.metadata.resourceVersion) + 1) } };
    return structuredClone(this.stored) as unknown as Record<string, unknown>;
  }
}

const running = (cur: ApiObject): ApiObject => ({ ...cur, status: { phase: 'Running' } });

test('update: a watched copy saves the GET; a stale one is a 409, then a GET and a PUT', async () => {
  const cases: { name: string; base: (s: FakeServer) => ApiObject | undefined; calls: string[] }[] = [
    { name: 'no base', base: () => undefined, calls: ['GET /api/v1/namespaces/ns/pods/p', 'PUT /api/v1/namespaces/ns/pods/p/status'] },
    { name: 'fresh base', base: (s) => structuredClone(s.stored), calls: ['PUT /api/v1/namespaces/ns/pods/p/status'] },
    {
      name: 'stale base', base: (s) => ({ ...structuredClone(s.stored), metadata: { ...s.stored.metadata, resourceVersion: '4' } }),
      calls: ['PUT /api/v1/namespaces/ns/pods/p/status', 'GET /api/v1/namespaces/ns/pods/p', 'PUT /api/v1/namespaces/ns/pods/p/status'],
    },
  ];
  for (const c of cases) {
    const server = new FakeServer();
    const api = remoteAgentApi(server, 'n1');
    const out = await api.update(POD_STATUS, 'ns', 'p', running, c.base(server));
    assert.deepEqual(server.calls, c.calls, c.name);
    assert.equal((out.status as { phase: string }).phase, 'Running', c.name);
    assert.equal(out.metadata.resourceVersion, '6', c.name);
    api.close();
  }
});
