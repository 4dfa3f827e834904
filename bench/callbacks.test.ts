// The webhook benchmark's two callback servers (bench/callbacks.ts) answer
// svc's webhook client alike: the review's uid and apiVersion echoed, a
// JSONPatch on /mutate only, 400 for a body that is not JSON; and their
// counts show one kept-alive connection serving sequential calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdmissionCallbackClient } from '../src/webhook/callback.js';
import { nativeCallbackServer, startCallbacks } from './callbacks.js';

const PATCH = [{ op: 'add', path: '/metadata/labels', value: { 'bench.svc.io/mutated': 'true' } }];

describe('webhook bench callback servers', () => {
  const native = nativeCallbackServer();
  const kinds: { name: 'native' | 'node'; skip: string | false }[] = [
    { name: 'native', skip: native ? false : 'the native callback server could not be built: install gcc and libssl-dev' },
    { name: 'node', skip: false },
  ];
  for (const k of kinds) {
    if (k.skip && process.env.CI === 'true') throw new Error(`${k.skip} (required under CI=true)`);
    it(`${k.name}: answers reviews over one kept-alive connection`, { skip: k.skip }, async () => {
      const cb = await startCallbacks(k.name);
      const client = new AdmissionCallbackClient({ resolveService: async () => { throw new Error('no services here'); } });
      try {
        assert.equal(cb.kind.startsWith(k.name === 'native' ? 'native' : 'Node'), true);
        const call = (path: string, body: string) => client.call({ config: Object.freeze({ url: `https://127.0.0.1:${cb.port}${path}`, caBundle: cb.caBundle }), body, timeoutMs: 5000, key: 'bench/test' });
        const review = (uid: string, apiVersion: string) => JSON.stringify({ kind: 'AdmissionReview', apiVersion, request: { uid, object: { metadata: { name: 'a "quoted" \u00e9 name' }, data: { n: [1, -2.5e3, true, null, {}] } } } });
        const cases: [string, string, string, boolean][] = [
          ['/mutate', 'u-1', 'admission.k8s.io/v1', true],
          ['/validate', 'u-2', 'admission.k8s.io/v1beta1', false],
          ['/validate?timeout=5s', 'u-3', 'admission.k8s.io/v1', false],
        ];
        for (const [path, uid, apiVersion, patched] of cases) {
          const r = await call(path, review(uid, apiVersion));
          assert.equal(r.status, 200);
          assert.equal(r.contentType, 'application/json');
          const answer = JSON.parse(r.body.toString());
          assert.deepEqual({ ...answer, response: { ...answer.response, patch: undefined } }, { apiVersion, kind: 'AdmissionReview', response: { uid, allowed: true, ...(patched ? { patchType: 'JSONPatch' } : {}), patch: undefined } });
          assert.deepEqual(answer.response.patch === undefined ? undefined : JSON.parse(Buffer.from(answer.response.patch, 'base64').toString()), patched ? PATCH : undefined);
        }
        assert.deepEqual(await cb.stats(), { connections: 1, handshakes: 1, resumed: 0, requests: 3 });
        for (const bad of ['{"request":', '{"a":1} x', '[1,2']) assert.equal((await call('/validate', bad)).status, 400, bad);
      } finally {
        cb.stop();
      }
    });
  }
});
