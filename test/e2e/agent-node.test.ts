// The node agent's node side against a real server, as system:node:<name>
// (the Node authorizer and NodeRestriction judge every call): registration
// with this machine's figures, adoption of the existing Node by a restarted
// agent, the Lease heartbeat, and mirror pods of static pods read from a
// manifest folder. The AgentApi here is a thin adapter over ControllerClient
// (in-process requests through authorization and admission); the container
// runtime is an in-memory CRI answering Status/Version/ListImages.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AGENT_MANAGER, type AgentApi, type ObjectCache } from '../../src/agent/api.js';
import { NodeManager, hostMachine, parseEvictionThresholds, DEFAULT_EVICTION_HARD } from '../../src/agent/node/index.js';
import { MirrorPodClient, StaticPodSource } from '../../src/agent/sources/index.js';
import { ControllerClient, type Target } from '../../src/controllers/client.js';
import type { ControllerContext } from '../../src/controllers/context.js';
import { applyMergePatch } from '../../src/patch/mergepatch.js';
import type { JsonValue } from '../../src/patch/json.js';
import type { ApiObject } from '../../src/registry/object.js';
import { nodeUser } from '../../src/simnodes/identity.js';
import { BACKENDS } from './backends.js';
import { eventually, type TestServer } from './harness.js';

const NODE = 'agent-e2e';

/** AgentApi over ControllerClient as system:node:<name>; caches filtered from the shared informers. */
function inProcessAgentApi(ctx: ControllerContext, nodeName: string): AgentApi {
  const c = new ControllerClient(ctx.registry, ctx.authorizer, nodeUser(nodeName), ctx.gates, AGENT_MANAGER);
  const filtered = (resource: string, keep: (o: ApiObject) => boolean): ObjectCache => {
    const inf = ctx.informers.informer('', resource);
    return {
      get: (ns, name) => {
        const o = inf.get(ns, name);
        return o && keep(o) ? o : undefined;
      },
      list: () => inf.list().filter(keep),
      addHandler: (h) => inf.addHandler(h),
      start: () => inf.start(),
      waitForSync: () => inf.waitForSync(),
    };
  };
  return {
    nodeName,
    get: (t, ns, name) => c.get(t, ns, name),
    create: (t, ns, obj) => c.create(t, ns, obj),
    update: (t, ns, name, mutate) => c.update(t, ns, name, mutate),
    patch: (t: Target, ns, name, patch) => c.update(t, ns, name, (cur) => applyMergePatch(cur as unknown as JsonValue, patch as JsonValue) as unknown as ApiObject),
    delete: (t, ns, name, opts) => c.delete(t, ns, name, opts),
    createSubresource: (t, ns, name, body) => c.createSubresource(t, ns, name, body),
    pods: () => filtered('pods', (p) => (p.spec as { nodeName?: string } | undefined)?.nodeName === nodeName),
    services: () => filtered('services', () => true),
    node: () => filtered('nodes', (n) => n.metadata.name === nodeName),
    close: () => {},
  };
}

const runtime = {
  status: async () => [{ type: 'RuntimeReady', status: true, reason: '', message: '' }, { type: 'NetworkReady', status: true, reason: '', message: '' }],
  version: async () => ({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: '1.6.20', runtimeApiVersion: 'v1' }),
};
const images = { listImages: async () => [{ id: 'sha256:1', repoTags: ['svc.local/busybox:1.35'], repoDigests: [], size: 1_234_567, username: '' }] };

function manager(api: AgentApi, extra: { labels?: Record<string, string> } = {}): NodeManager {
  return new NodeManager({
    api, runtime, images, machine: hostMachine({ rootDir: tmpdir() }),
    node: { name: NODE, hostname: NODE, controllerAttachDetach: true, labels: extra.labels },
    maxPods: 110, evictionHard: parseEvictionThresholds(DEFAULT_EVICTION_HARD), nodeIPs: ['127.0.0.1'],
    kubeletPort: 10250, leaseNamespace: 'svc-node-lease', leaseRenewMs: 200, statusUpdateMs: 200,
  });
}

const backend = BACKENDS[0]!;
describe(`node agent: registration, heartbeats, mirror pods (${backend.name})`, () => {
  let t: TestServer;
  let api: AgentApi;
  let m: NodeManager;
  before(async () => {
    // NodeRestriction is not on by default (as in kube-apiserver); the agent runs under it here
    t = await backend.start({ admission: { enable: ['NodeRestriction'] } });
    api = inProcessAgentApi(t.server.controllerContext, NODE);
  });
  after(async () => {
    m?.stop();
    await t?.stop();
  });

  it('registers the Node with this machine and the runtime, as the node itself', async () => {
    m = manager(api, { labels: { 'example.com/pool': 'blue' } });
    await m.start();
    const r = await t.req('GET', `/api/v1/nodes/${NODE}`);
    assert.equal(r.status, 200);
    const node = r.body;
    assert.equal(node.metadata.labels['kubernetes.io/hostname'], NODE);
    assert.equal(node.metadata.labels['svc.io/os'], 'linux');
    assert.equal(node.metadata.labels['example.com/pool'], 'blue');
    assert.equal(node.metadata.annotations['volumes.kubernetes.io/controller-managed-attach-detach'], 'true');
    assert.equal(node.status.capacity.pods, '110');
    assert.match(node.status.capacity.memory, /^\d+Ki$/);
    assert.ok(Number(node.status.capacity.cpu) >= 1);
    assert.equal(node.status.nodeInfo.containerRuntimeVersion, 'containerd://1.6.20');
    assert.equal(node.status.nodeInfo.kubeletVersion, 'v1.27.3');
    assert.deepEqual(node.status.addresses, [{ type: 'InternalIP', address: '127.0.0.1' }, { type: 'Hostname', address: NODE }]);
    assert.deepEqual(node.status.images, [{ names: ['svc.local/busybox:1.35'], sizeBytes: 1234567 }]);
    const ready = node.status.conditions.find((c: { type: string }) => c.type === 'Ready');
    assert.deepEqual([ready.status, ready.reason, ready.message], ['True', 'KubeletReady', 'kubelet is posting ready status']);
    assert.equal(node.metadata.managedFields.some((f: { manager: string }) => f.manager === 'kubelet'), true);
  });

  it('keeps a Lease in svc-node-lease owned by the Node', async () => {
    let lease: { spec: { renewTime: string; holderIdentity: string; leaseDurationSeconds: number }; metadata: { ownerReferences: unknown[] } } | undefined;
    await eventually(async () => {
      const r = await t.req('GET', `/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases/${NODE}`);
      lease = r.body;
      return r.status === 200;
    });
    const node = (await t.req('GET', `/api/v1/nodes/${NODE}`)).body;
    assert.deepEqual(lease!.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: NODE, uid: node.metadata.uid }]);
    assert.equal(lease!.spec.holderIdentity, NODE);
    assert.equal(lease!.spec.leaseDurationSeconds, 40);
    const first = lease!.spec.renewTime;
    await eventually(async () => (await t.req('GET', `/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases/${NODE}`)).body.spec.renewTime !== first);
  });

  it('a restarted agent adopts the Node: same UID, its default labels reconciled', async () => {
    m.stop();
    const before = (await t.req('GET', `/api/v1/nodes/${NODE}`)).body;
    // someone changes a kubelet label; the agent puts it back
    const patched = await t.req('PATCH', `/api/v1/nodes/${NODE}`, { metadata: { labels: { 'svc.io/arch': 'wrong' } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 200);
    m = manager(api);
    await m.start();
    const after = (await t.req('GET', `/api/v1/nodes/${NODE}`)).body;
    assert.equal(after.metadata.uid, before.metadata.uid);
    assert.equal(after.metadata.labels['svc.io/arch'], before.metadata.labels['kubernetes.io/arch']);
    assert.equal(after.metadata.labels['example.com/pool'], 'blue');
  });

  it('the node may not register another node', async () => {
    const other = inProcessAgentApi(t.server.controllerContext, NODE);
    await assert.rejects(other.create({ group: '', version: 'v1', resource: 'nodes' }, '', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'someone-else' } }), /node "agent-e2e" is not allowed to modify node "someone-else"/);
  });

  it('static pods from a manifest folder get mirror pods; changed and removed ones follow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-static-'));
    const src = new StaticPodSource({ nodeName: NODE, path: dir, fileCheckMs: 60_000 });
    const mirrors = new MirrorPodClient(api, () => m.nodeUID);
    const cache = api.pods();
    await cache.start();
    await cache.waitForSync();
    const manifest = (cmd: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\nspec:\n  containers: [{name: c, image: busybox, command: [sh, -c, "${cmd}"]}]\n`;
    const mirror = async () => (await t.req('GET', `/api/v1/namespaces/default/pods/web-${NODE}`)).body;
    try {
      writeFileSync(join(dir, 'web.yaml'), manifest('sleep 3600'));
      await src.start();
      await mirrors.sync(src.pods(), []);
      const first = await mirror();
      const hash = src.pods()[0]!.metadata.uid;
      assert.equal(first.metadata.annotations['kubernetes.io/config.mirror'], hash);
      assert.equal(first.metadata.annotations['svc.io/config.mirror'], hash);
      assert.equal(first.metadata.annotations['kubernetes.io/config.source'], 'file');
      assert.equal(first.spec.nodeName, NODE);
      assert.deepEqual(first.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: NODE, uid: m.nodeUID, controller: true }]);
      await eventually(async () => cache.get('default', `web-${NODE}`) !== undefined);

      writeFileSync(join(dir, 'web.yaml'), manifest('sleep 60'));
      await src.syncFiles();
      await mirrors.sync(src.pods());
      const second = await mirror();
      assert.notEqual(second.metadata.uid, first.metadata.uid, 'recreated');
      assert.equal(second.metadata.annotations['kubernetes.io/config.mirror'], src.pods()[0]!.metadata.uid);
      await eventually(async () => cache.get('default', `web-${NODE}`)?.metadata.uid === second.metadata.uid);

      unlinkSync(join(dir, 'web.yaml'));
      await src.syncFiles();
      await mirrors.sync(src.pods());
      assert.equal((await t.req('GET', `/api/v1/namespaces/default/pods/web-${NODE}`)).status, 404);
    } finally {
      src.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
