// LimitRanger end to end over HTTPS on each backend: a LimitRange in a
// namespace defaults the pods created there (with the kubernetes.io/limit-ranger
// annotation), refuses pods and claims outside its bounds with kube's
// messages, mutates dry-run creates the same way without storing them, and
// invalid LimitRanges are refused by validation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from './backends.js';
import type { TestServer } from './harness.js';

const NS = 'lr';
const pod = (name: string, resources?: unknown) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0', ...(resources ? { resources } : {}) }] },
});

for (const backend of BACKENDS) {
  describe(`LimitRanger (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    before(async () => {
      t = await backend.start();
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
      const lr = await t.req('POST', `/api/v1/namespaces/${NS}/limitranges`, {
        metadata: { name: 'defaults' },
        spec: {
          limits: [
            { type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' }, min: { cpu: '50m' }, max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '10' } },
            { type: 'Pod', max: { memory: '2Gi' } },
            { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
          ],
        },
      });
      assert.equal(lr.status, 201, lr.text);
    });
    after(async () => t?.stop());

    it('a pod without resources gets the defaults and the annotation', async () => {
      const res = await t.req('POST', `/api/v1/namespaces/${NS}/pods`, pod('plain'));
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.spec.containers[0].resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
      assert.equal(res.body.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app');
      const got = await t.req('GET', `/api/v1/namespaces/${NS}/pods/plain`);
      assert.deepEqual(got.body.spec.containers[0].resources, res.body.spec.containers[0].resources);
    });

    it('a limit alone: the request comes from it (API defaulting), the rest from the LimitRange', async () => {
      const res = await t.req('POST', `/api/v1/namespaces/${NS}/pods`, pod('limit-only', { limits: { cpu: '300m' } }));
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.spec.containers[0].resources, { limits: { cpu: '300m', memory: '256Mi' }, requests: { cpu: '300m', memory: '128Mi' } });
    });

    const refusals: [string, unknown, string][] = [
      ['below min', { requests: { cpu: '20m' }, limits: { cpu: '100m' } }, 'pods "bad" is forbidden: minimum cpu usage per Container is 50m, but request is 20m'],
      ['above max, ratio too', { requests: { cpu: '100m' }, limits: { cpu: '2' } },
        'pods "bad" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000]'],
      ['pod total above the Pod max', undefined, 'pods "bad" is forbidden: maximum memory usage per Pod is 2Gi, but limit is 3Gi'],
    ];
    for (const [what, resources, message] of refusals) {
      it(`refuses a pod: ${what}`, async () => {
        const body = resources ? pod('bad', resources) : {
          apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' },
          spec: { containers: ['a', 'b', 'c'].map((name) => ({ name, image: 'x', resources: { limits: { memory: '1Gi' } } })) },
        };
        const res = await t.req('POST', `/api/v1/namespaces/${NS}/pods`, body);
        assert.equal(res.status, 403, res.text);
        assert.equal(res.body.reason, 'Forbidden');
        assert.equal(res.body.message, message);
        assert.deepEqual(res.body.details, { name: 'bad', kind: 'pods' });
      });
    }

    it('checks claims against the PersistentVolumeClaim item', async () => {
      const claim = (name: string, storage: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
      const big = await t.req('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('big', '20Gi'));
      assert.equal(big.status, 403, big.text);
      assert.equal(big.body.message, 'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
      assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('ok', '5Gi'))).status, 201);
    });

    it('a dry-run create is defaulted the same way and not stored', async () => {
      const res = await t.req('POST', `/api/v1/namespaces/${NS}/pods?dryRun=All`, pod('dry'));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app');
      assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/pods/dry`)).status, 404);
      const bad = await t.req('POST', `/api/v1/namespaces/${NS}/pods?dryRun=All`, pod('bad', { requests: { cpu: '20m' } }));
      assert.equal(bad.status, 403);
    });

    it('other namespaces are not limited', async () => {
      const res = await t.req('POST', '/api/v1/namespaces/default/pods', pod('free', { limits: { cpu: '8' } }));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.metadata.annotations?.['kubernetes.io/limit-ranger'], undefined);
    });

    it('an invalid LimitRange is refused with 422', async () => {
      const res = await t.req('POST', `/api/v1/namespaces/${NS}/limitranges`, { metadata: { name: 'bad' }, spec: { limits: [{ type: 'Pod', min: { cpu: '2' }, max: { cpu: '1' } }] } });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.message, 'LimitRange "bad" is invalid: spec.limits[0].min[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}: min value 2 is greater than max value 1');
    });
  });
}
