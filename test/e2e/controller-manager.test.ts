// The controller manager in the server: the table runs by default in process
// (the harness's servers, `svc server`), --controllers picks from it, a server
// without controllers (`svc apiserver`) runs none and takes no Lease; and
// leader election between two servers on one etcd: one leads (the Lease
// svc-system/svc-controller-manager, seen with kubectl; a LeaderElection
// Event), the other waits; when the leader shuts down it releases the Lease
// and the other takes over within the lease duration, its controllers then
// doing the work; a leader process killed outright (no release) is replaced
// once its Lease has gone unrenewed for the lease duration.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { findTool } from '../../src/testing/tools.js';
import { startEtcd, type EtcdServer } from '../../src/storage/etcd/testserver.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { freePort } from '../../src/testing/ports.js';
import { join } from 'node:path';
import { adminClient, runSvc, waitFor } from './svcprocess.js';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/svc-system/leases/svc-controller-manager';

async function namespaceGone(t: TestServer, name: string): Promise<boolean> {
  return (await t.req('GET', `/api/v1/namespaces/${name}`)).status === 404;
}

async function deleteNamespaceWithContent(t: TestServer, name: string): Promise<void> {
  assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name } })).status, 201);
  assert.equal((await t.req('POST', `/api/v1/namespaces/${name}/configmaps`, { metadata: { name: 'cm' } })).status, 201);
  assert.equal((await t.req('DELETE', `/api/v1/namespaces/${name}`)).status, 200);
}

describe('controller manager in the server', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
  });

  it('runs the default controllers without leader election: a deleted namespace is emptied and finalized; no Lease is taken', async () => {
    const t = await startTestServer();
    servers.push(t);
    assert.equal(t.server.controllerManager?.isLeading, true);
    await deleteNamespaceWithContent(t, 'doomed');
    await eventually(() => namespaceGone(t, 'doomed'));
    assert.equal((await t.req('GET', LEASE)).status, 404);
  });

  it('--controllers=*,-namespace: the other controllers run, a deleted namespace stays Terminating', async () => {
    const t = await startTestServer({ controllerManager: { controllers: ['*', '-namespace'] } });
    servers.push(t);
    await deleteNamespaceWithContent(t, 'stays');
    // The quota controller (still on) fills a new quota's status: the manager has been running since.
    assert.equal((await t.req('POST', '/api/v1/namespaces/default/resourcequotas', { metadata: { name: 'q' }, spec: { hard: { pods: '3' } } })).status, 201);
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces/default/resourcequotas/q')).body.status?.hard?.pods === '3');
    const ns = await t.req('GET', '/api/v1/namespaces/stays');
    assert.equal(ns.status, 200);
    assert.equal(ns.body.status.phase, 'Terminating');
  });

  it('an unknown controller name fails the start with kube\'s message', async () => {
    await assert.rejects(startTestServer({ controllerManager: { controllers: ['*', 'replicasets'] } }), { message: '"replicasets" is not in the list of known controllers' });
  });

  it('without controllers (svc apiserver): no manager, and a deleted namespace stays Terminating', async () => {
    const t = await startTestServer({ controllers: false });
    servers.push(t);
    assert.equal(t.server.controllerManager, undefined);
    await deleteNamespaceWithContent(t, 'stays');
    assert.equal((await t.req('GET', '/api/v1/namespaces/stays')).body.status.phase, 'Terminating');
    assert.equal((await t.req('GET', LEASE)).status, 404);
  });
});

describe('svc server / svc apiserver processes', () => {
  const refusals: [string[], RegExp][] = [
    [['server', '--controllers=*,nosuch,-other'], /^Error: \["nosuch" is not in the list of known controllers, "other" is not in the list of known controllers\]$/m],
    [['server', '--leader-elect-renew-deadline=20s'], /^Error: leaseDuration must be greater than renewDeadline$/m],
    [['apiserver', '--controllers=*'], /unknown flag: --controllers/],
  ];
  for (const [args, want] of refusals) {
    it(`svc ${args.join(' ')} exits 1`, async () => {
      const p = runSvc([...args, `--data-dir=${tempDir('svc-cm-')}`, '--secure-port=0']);
      assert.equal(await p.exit, 1);
      assert.match(p.out(), want);
    });
  }

  it('svc server elects itself leader by default (the Lease visible), and exits 0 on SIGTERM', async () => {
    const dataDir = tempDir('svc-cm-');
    const port = await freePort();
    const s = runSvc(['server', `--data-dir=${dataDir}`, `--secure-port=${port}`]);
    try {
      await waitFor(() => s.out().includes('admin kubeconfig') || s.proc.exitCode !== null, 30_000);
      const req = adminClient(port, join(dataDir, 'admin.svcconfig'));
      await eventually(async () => (await req('GET', LEASE)).body?.spec?.holderIdentity?.length > 0, 15_000);
      assert.match((await req('GET', LEASE)).body.spec.holderIdentity, /^[^_]+_[0-9a-f-]{36}$/);
      assert.match(s.out(), /svc-controller-manager: successfully acquired lease svc-system\/svc-controller-manager/);
    } finally {
      s.proc.kill('SIGTERM');
    }
    assert.equal(await s.exit, 0);
  });
});

describe('leader election on one server', () => {
  let t: TestServer;
  const leaderElection = { leaderElect: true, leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 300 };
  before(async () => {
    t = await startTestServer({ controllerManager: { leaderElection } });
  });
  after(() => t.stop());

  it('leads alone; when another holder takes the Lease its controllers stop, and it waits for that lease', async () => {
    const cm = t.server.controllerManager!;
    await eventually(async () => cm.isLeading);
    assert.equal((await t.req('GET', LEASE)).body.spec.holderIdentity, cm.identity);
    // Someone else writes the Lease as theirs (kubectl edit, another manager with a skewed view);
    // a renewal between their read and their write is a 409, and they read again.
    await eventually(async () => {
      const lease = (await t.req('GET', LEASE)).body;
      const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
      const taken = await t.req('PUT', LEASE, { ...lease, spec: { ...lease.spec, holderIdentity: 'intruder', renewTime: now, acquireTime: now, leaseDurationSeconds: 3600 } });
      assert.ok(taken.status === 200 || taken.status === 409, taken.text);
      return taken.status === 200;
    });
    await eventually(async () => !cm.isLeading);
    assert.equal((await t.req('GET', LEASE)).body.spec.holderIdentity, 'intruder', 'not taken back while the intruder\'s lease runs');
  });
});

const etcd = findTool('etcd', "Debian's etcd-server (apt-get install etcd-server)");

describe('leader election: two servers on one etcd', { skip: etcd.skip }, () => {
  let store: EtcdServer;
  const live: TestServer[] = [];
  // Short but whole-second leases (leaseDurationSeconds is an integer).
  const leaderElection = { leaderElect: true, leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 500 };
  before(async () => {
    store = await startEtcd();
    for (let i = 0; i < 2; i++) {
      live.push(await startTestServer({ storage: { backend: 'etcd3', etcdServers: [store.url] }, controllerManager: { leaderElection } }));
    }
  });
  after(async () => {
    for (const t of live) await t.stop();
    await store?.stop();
  });

  it('one leads, the other waits; the leader stops → the Lease is released and the other leads, its controllers working', async (t) => {
    await eventually(async () => live.some((s) => s.server.controllerManager!.isLeading));
    const leader = live.find((s) => s.server.controllerManager!.isLeading)!;
    const follower = live.find((s) => s !== leader)!;
    const [leaderId, followerId] = [leader.server.controllerManager!.identity, follower.server.controllerManager!.identity];
    assert.match(leaderId, /^[^_]+_[0-9a-f-]{36}$/);
    assert.equal(follower.server.controllerManager!.isLeading, false);

    const lease = (await follower.req('GET', LEASE)).body;
    assert.equal(lease.spec.holderIdentity, leaderId);
    assert.equal(lease.spec.leaseDurationSeconds, 4);
    assert.equal(lease.spec.leaseTransitions, 0);
    assert.match(lease.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const events = (await follower.req('GET', '/api/v1/namespaces/svc-system/events?fieldSelector=reason%3DLeaderElection')).body.items;
    assert.deepEqual(events.map((e: { message: string; involvedObject: { kind: string; name: string }; source: { component: string } }) =>
      [e.message, e.involvedObject.kind, e.involvedObject.name, e.source.component]), [[`${leaderId} became leader`, 'Lease', 'svc-controller-manager', 'svc-controller-manager']]);

    if (!kubectlMissing) {
      const kubectl = kubectlFor(() => follower);
      t.after(() => kubectl.cleanup());
      const got = await kubectl('get', 'lease', 'svc-controller-manager', '-n', 'svc-system', '-o', 'jsonpath={.spec.holderIdentity}');
      assert.equal(got.code, 0, got.err);
      assert.equal(got.out, leaderId);
    }

    // The leader shuts down (SIGTERM): it releases the Lease; the other takes over well within the lease duration.
    live.splice(live.indexOf(leader), 1);
    await leader.stop();
    await eventually(async () => follower.server.controllerManager!.isLeading, leaderElection.leaseDurationMs);
    const taken = (await follower.req('GET', LEASE)).body;
    assert.equal(taken.spec.holderIdentity, followerId);
    assert.equal(taken.spec.leaseTransitions, 1);
    // Now its namespace controller finalizes deleted namespaces.
    await deleteNamespaceWithContent(follower, 'after-failover');
    await eventually(() => namespaceGone(follower, 'after-failover'));
  });
});

describe('leader election: two svc server processes on one etcd, the leader killed', { skip: etcd.skip }, () => {
  let store: EtcdServer;
  const procs: ReturnType<typeof runSvc>[] = [];
  before(async () => {
    store = await startEtcd();
  });
  after(async () => {
    for (const p of procs) if (p.proc.exitCode === null) p.proc.kill('SIGKILL');
    await store?.stop();
  });

  it('SIGKILL of the leader (no release): the other takes the Lease once it has gone unrenewed for the lease duration', async () => {
    const flags = ['--storage-backend=etcd3', `--etcd-servers=${store.url}`, '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=300ms'];
    const started: { p: ReturnType<typeof runSvc>; req: ReturnType<typeof adminClient> }[] = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = tempDir('svc-cm-kill-');
      const port = await freePort();
      const p = runSvc(['server', ...flags, `--data-dir=${dataDir}`, `--secure-port=${port}`]);
      procs.push(p);
      await waitFor(() => p.out().includes('admin kubeconfig') || p.proc.exitCode !== null, 60_000);
      assert.ok(p.out().includes('admin kubeconfig'), p.out());
      started.push({ p, req: adminClient(port, join(dataDir, 'admin.svcconfig')) });
    }
    const acquired = (p: ReturnType<typeof runSvc>) => p.out().includes('successfully acquired lease svc-system/svc-controller-manager');
    await eventually(async () => started.some((s) => acquired(s.p)), 15_000);
    const leader = started.find((s) => acquired(s.p))!;
    const other = started.find((s) => s !== leader)!;
    const held = (await other.req('GET', LEASE)).body.spec;
    assert.equal(acquired(other.p), false);
    leader.p.proc.kill('SIGKILL');
    await leader.p.exit;
    // The lease is 3 s from when the other last saw it change; a few retry periods more at most.
    await eventually(async () => acquired(other.p), 10_000);
    const taken = (await other.req('GET', LEASE)).body.spec;
    assert.notEqual(taken.holderIdentity, held.holderIdentity);
    assert.equal(taken.leaseTransitions, held.leaseTransitions + 1);
    other.p.proc.kill('SIGTERM');
    assert.equal(await other.p.exit, 0);
  });
});
