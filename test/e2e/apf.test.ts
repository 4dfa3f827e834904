// API Priority and Fairness on a real server with a small concurrency limit
// (--max-requests-inflight=4, --max-mutating-requests-inflight=2): the
// bootstrap configuration in storage with its Dangling conditions, the
// X-Kubernetes-PF-* headers, a flooding user refused with kube's 429 while
// another user's requests all succeed, a watch giving back its seat once started,
// the debug dumps (authorized as
// non-resource URLs), and kubectl get flowschemas.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, writeTokenFile, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { ensureBootstrapConfiguration } from '../../src/flowcontrol/ensure.js';

const FC = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';

describe('API priority and fairness', () => {
  let t: TestServer;
  const kubectl = kubectlFor(() => t);
  before(async () => {
    const dir = tempDir('svc-apf-');
    const tokenAuthFile = writeTokenFile(dir, 'flood-token,flood,1001,\ncalm-token,calm,1002,\n');
    t = await startTestServer({ maxRequestsInflight: 4, maxMutatingRequestsInflight: 2, tokenAuthFile, authorization: { modes: ['AlwaysAllow'] } });
    await eventually(async () => (await t.req('GET', `${FC}/flowschemas/global-default`)).status === 200);
  });
  after(async () => {
    kubectl.cleanup();
    await t?.stop();
  });

  it('creates the bootstrap configuration, each schema marked not dangling', async () => {
    const fs = await t.req('GET', `${FC}/flowschemas`);
    const names = (fs.body.items as { metadata: { name: string } }[]).map((o) => o.metadata.name).sort();
    assert.deepEqual(names, ['catch-all', 'endpoint-controller', 'exempt', 'global-default', 'probes', 'service-accounts', 'svc-controller-manager', 'svc-scheduler',
      'svc-system-service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election']);
    const pl = await t.req('GET', `${FC}/prioritylevelconfigurations`);
    assert.deepEqual((pl.body.items as { metadata: { name: string } }[]).map((o) => o.metadata.name).sort(),
      ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    await eventually(async () => {
      const r = await t.req('GET', `${FC}/flowschemas/global-default`);
      const c = (r.body.status?.conditions ?? []) as { type: string; status: string; reason: string }[];
      return c.some((x) => x.type === 'Dangling' && x.status === 'False' && x.reason === 'Found');
    });
  });

  it('answers with the flow schema and priority level UIDs', async () => {
    const exempt = await t.req('GET', `${FC}/flowschemas/exempt`);
    const exemptPL = await t.req('GET', `${FC}/prioritylevelconfigurations/exempt`);
    // the admin's client certificate is in system:masters: the exempt schema
    const r = await t.req('GET', '/api/v1/namespaces');
    assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], exempt.body.metadata.uid);
    assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], exemptPL.body.metadata.uid);
    const gd = await t.req('GET', `${FC}/flowschemas/global-default`);
    const calm = await t.req('GET', '/api/v1/namespaces', undefined, { token: 'calm-token' });
    assert.equal(calm.headers['x-kubernetes-pf-flowschema-uid'], gd.body.metadata.uid);
  });

  it('refuses a flooding user with 429 while another user is served', async () => {
    // the flooder's own level: one seat, one queue of one
    assert.equal((await t.req('POST', `${FC}/prioritylevelconfigurations`, {
      metadata: { name: 'flood' },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } } } },
    })).status, 201);
    assert.equal((await t.req('POST', `${FC}/flowschemas`, {
      metadata: { name: 'flood' },
      spec: { priorityLevelConfiguration: { name: 'flood' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: 'flood' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] },
    })).status, 201);
    const floodFS = await t.req('GET', `${FC}/flowschemas/flood`);
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces', undefined, { token: 'flood-token' })).headers['x-kubernetes-pf-flowschema-uid'] === floodFS.body.metadata.uid);
    for (let i = 0; i < 30; i++) await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `cm-${i}` }, data: { v: 'x'.repeat(2000) } });

    // warm keep-alive connections, so that a burst reaches the server together
    const floodAgent = new Agent({ keepAlive: true, maxSockets: 40 });
    const calmAgent = new Agent({ keepAlive: true, maxSockets: 10 });
    const burst = (n: number, token: string, agent: Agent) =>
      Promise.all(Array.from({ length: n }, () => t.req('GET', '/api/v1/namespaces/default/configmaps', undefined, { token, agent })));
    await Promise.all([burst(40, 'flood-token', floodAgent), burst(10, 'calm-token', calmAgent)]);
    const [floodResults, calmResults] = await Promise.all([burst(40, 'flood-token', floodAgent), burst(10, 'calm-token', calmAgent)]);
    floodAgent.destroy();
    calmAgent.destroy();
    const refused = floodResults.filter((r) => r.status === 429);
    assert.ok(refused.length > 0, 'the flooder gets 429s');
    assert.ok(floodResults.some((r) => r.status === 200), 'the flooder is still served some');
    assert.equal(refused[0]!.headers['retry-after'], '1');
    assert.equal(refused[0]!.text, 'Too many requests, please try again later.\n');
    assert.deepEqual(calmResults.map((r) => r.status), calmResults.map(() => 200));

    const metrics = await t.req('GET', '/metrics');
    if (metrics.status === 200) {
      assert.match(metrics.text, /apiserver_flowcontrol_rejected_requests_total\{priority_level="flood",flow_schema="flood",reason="(queue-full|time-out)"\} \d+/);
    }
  });

  it('serves the debug dumps to those allowed, as non-resource URLs', async () => {
    const levels = await t.req('GET', '/debug/api_priority_and_fairness/dump_priority_levels');
    assert.equal(levels.status, 200);
    assert.match(levels.text, /^PriorityLevelName, +ActiveQueues, +IsIdle, +IsQuiescing, +WaitingRequests, +ExecutingRequests\n/);
    assert.match(levels.text, /\nexempt, +<none>, +<none>, +<none>, +<none>, +<none>\n/);
    assert.match(levels.text, /\nglobal-default, +0, +true, +false, +0, +0\n/);
    const queues = await t.req('GET', '/debug/api_priority_and_fairness/dump_queues');
    assert.match(queues.text, /^PriorityLevelName, +Index, +PendingRequests, +ExecutingRequests, +SeatsInUse, +NextDispatchR, +InitialSeatsSum, +MaxSeatsSum, +TotalWorkSum\n/);
    assert.equal(queues.text.split('\n').filter((l) => l.startsWith('global-default,')).length, 128);
    const requests = await t.req('GET', '/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1');
    assert.match(requests.text, /^PriorityLevelName, +FlowSchemaName, +QueueIndex, +RequestIndexInQueue, +FlowDistingsher, +ArriveTime, +InitialSeats, +FinalSeats, +AdditionalLatency, +UserName, +Verb, +APIPath/);

  });

  it('a watch gives back its seat once it has started', async () => {
    // the watch's response headers have arrived: it is running
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const r = request(`${t.url}/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=5`, { headers: { authorization: 'Bearer calm-token' }, rejectUnauthorized: false }, resolve);
      r.on('error', reject);
      r.end();
    });
    assert.equal(res.statusCode, 200);
    assert.ok(res.headers['x-kubernetes-pf-flowschema-uid']);
    const levels = (await t.req('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).text;
    assert.match(levels, /\nglobal-default, +0, +true, +false, +0, +0\n/);
    res.destroy();
  });

  it('kubectl get flowschemas and prioritylevelconfigurations', { skip: kubectlMissing }, async () => {
    const fs = await kubectl('get', 'flowschemas');
    assert.equal(fs.code, 0, fs.err);
    assert.match(fs.out, /^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL/);
    assert.match(fs.out, /\nglobal-default\s+global-default\s+9900\s+ByUser\s+\S+\s+False\n/);
    const pl = await kubectl('get', 'prioritylevelconfigurations');
    assert.equal(pl.code, 0, pl.err);
    assert.match(pl.out, /\nworkload-low\s+Limited\s+100\s+128\s+6\s+50\s+\S+\n/);
  });

  it('marks a schema whose level is missing as dangling', async () => {
    assert.equal((await t.req('POST', `${FC}/flowschemas`, {
      metadata: { name: 'lost' }, spec: { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 600, rules: [] },
    })).status, 201);
    await eventually(async () => {
      const c = ((await t.req('GET', `${FC}/flowschemas/lost`)).body.status?.conditions ?? []) as { type: string; status: string; message: string }[];
      return c.some((x) => x.type === 'Dangling' && x.status === 'True' && x.message.includes('"nowhere" but there is no such object'));
    });
  });

  it('the ensurer keeps what operators protect, restores the rest, writes nothing twice', async () => {
    const registry = t.server.controllerContext.registry;
    const versions = async () => {
      const out: Record<string, string> = {};
      for (const r of ['flowschemas', 'prioritylevelconfigurations']) {
        for (const o of (await t.req('GET', `${FC}/${r}`)).body.items as { metadata: { name: string; resourceVersion: string } }[]) out[`${r}/${o.metadata.name}`] = o.metadata.resourceVersion;
      }
      return out;
    };
    const before = await versions();
    await ensureBootstrapConfiguration(registry);
    assert.deepEqual(await versions(), before, 'a second run writes nothing');

    const patch = (path: string, body: unknown) => t.req('PATCH', path, body, { headers: { 'content-type': 'application/merge-patch+json' } });
    // an operator's protected change of a suggested level stays; a change of a mandatory one does not
    assert.equal((await patch(`${FC}/prioritylevelconfigurations/workload-low`, {
      metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { limited: { nominalConcurrencyShares: 7 } },
    })).status, 200);
    assert.equal((await patch(`${FC}/prioritylevelconfigurations/catch-all`, {
      metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { limited: { nominalConcurrencyShares: 77 } },
    })).status, 200);
    // an unprotected change of a suggested schema is undone; a deleted one comes back
    assert.equal((await patch(`${FC}/flowschemas/service-accounts`, { spec: { matchingPrecedence: 8000 } })).status, 200);
    assert.equal((await t.req('DELETE', `${FC}/flowschemas/probes`)).status, 200);
    // something the server made once and no longer suggests goes
    assert.equal((await t.req('POST', `${FC}/flowschemas`, {
      metadata: { name: 'retired', annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' } },
      spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 700, rules: [] },
    })).status, 201);
    await ensureBootstrapConfiguration(registry);
    const get = async (path: string) => (await t.req('GET', `${FC}/${path}`)).body;
    assert.equal((await get('prioritylevelconfigurations/workload-low')).spec.limited.nominalConcurrencyShares, 7);
    assert.equal((await get('prioritylevelconfigurations/catch-all')).spec.limited.nominalConcurrencyShares, 5);
    assert.equal((await get('prioritylevelconfigurations/catch-all')).metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
    assert.equal((await get('flowschemas/service-accounts')).spec.matchingPrecedence, 9000);
    assert.equal((await get('flowschemas/probes')).spec.priorityLevelConfiguration.name, 'exempt');
    assert.equal((await t.req('GET', `${FC}/flowschemas/retired`)).status, 404);
  });
});

describe('API priority and fairness debug dumps under RBAC', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t?.stop();
  });
  it('are non-resource URLs: the admin reads them, anonymous is forbidden', async () => {
    const path = '/debug/api_priority_and_fairness/dump_priority_levels';
    assert.equal((await t.req('GET', path)).status, 200);
    const anonymous = await t.req('GET', path, undefined, { anonymous: true });
    assert.equal(anonymous.status, 403);
    assert.equal(anonymous.body.message, `forbidden: User "system:anonymous" cannot get path "${path}"`);
  });
});
