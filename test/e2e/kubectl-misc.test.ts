// kubectl 1.27 against the real server: wait (a condition set through the
// status subresource, a jsonpath, deletion), auth can-i (SelfSubjectAccess-
// Review, both group spellings; AlwaysAllow says yes), auth whoami
// (SelfSubjectReview: off by default in 1.27 as in Kubernetes, on with
// --runtime-config), impersonation (--as, --as-group: 403 until the
// authentication issue), and the node-agent commands (logs, exec, attach, cp,
// port-forward), which must fail at once with a clear Status, never hang.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FeatureGates } from '../../src/features/gates.js';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing, until } from './kubectlcli.js';

const pod = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...extra } });

describe('kubectl 1.27: wait, auth, impersonation, node-agent commands', { skip: kubectlMissing }, () => {
  let t: TestServer;
  const kubectl = kubectlFor(() => t);
  const post = async (path: string, body: unknown) => assert.equal((await t.req('POST', path, body)).status, 201);
  before(async () => {
    t = await startTestServer();
    await post('/api/v1/nodes', { metadata: { name: 'n1' } });
    await post('/api/v1/namespaces/default/pods', pod('unscheduled'));
    await post('/api/v1/namespaces/default/pods', pod('on-node', { nodeName: 'n1' }));
    await post('/api/v1/namespaces/default/pods', pod('lost', { nodeName: 'n2' }));
    await post('/api/v1/namespaces/default/pods', { metadata: { name: 'two' }, spec: { containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] } });
  });
  after(async () => {
    await t?.stop();
    kubectl.cleanup();
  });

  it('wait --for=condition=Ready returns once the condition is set through the status subresource', async () => {
    await post('/api/v1/namespaces/default/pods', pod('ready'));
    const waiting = kubectl.start('wait', '--for=condition=Ready', 'pod/ready', '--timeout=30s', '-v=6');
    await until(() => /watch=true/.test(waiting.err()), waiting.err);
    const set = await kubectl('patch', 'pod', 'ready', '--subresource=status', '--type=merge', '-p', '{"status":{"conditions":[{"type":"Ready","status":"True"}]}}');
    assert.equal(set.code, 0, set.err);
    const r = await waiting.done;
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'pod/ready condition met\n');
    const again = await kubectl('wait', '--for=condition=Ready', 'pod/ready', '--timeout=5s');
    assert.equal(again.out, 'pod/ready condition met\n', 'already true: returns at once');
    const notFalse = await kubectl('wait', '--for=condition=Ready=false', 'pod/ready', '--timeout=1s');
    assert.equal(notFalse.code, 1);
    assert.equal(notFalse.err, 'error: timed out waiting for the condition on pods/ready\n');
  });

  it('wait --for=condition=Available on a deployment (status written with PUT …/status), and --for=jsonpath by label', async () => {
    const labels = { app: 'web' };
    await post('/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'web', labels }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    const waiting = kubectl.start('wait', '--for=condition=Available', 'deployment/web', '--timeout=30s', '-v=6');
    await until(() => /watch=true/.test(waiting.err()), waiting.err);
    const d = (await t.req('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body;
    d.status = { conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' }] };
    assert.equal((await t.req('PUT', '/apis/apps/v1/namespaces/default/deployments/web/status', d)).status, 200);
    const r = await waiting.done;
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'deployment.apps/web condition met\n');
    const jp = await kubectl('wait', '--for=jsonpath={.status.phase}=Pending', 'pod', '-l', 'app=unscheduled', '--timeout=10s');
    assert.equal(jp.code, 0, jp.err);
    assert.equal(jp.out, 'pod/unscheduled condition met\n');
  });

  it('wait --for=delete returns when the object goes; at once for one already gone', async () => {
    await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'doomed' } });
    const waiting = kubectl.start('wait', '--for=delete', 'configmap/doomed', '--timeout=30s', '-v=6');
    await until(() => /watch=true/.test(waiting.err()), waiting.err);
    assert.equal((await t.req('DELETE', '/api/v1/namespaces/default/configmaps/doomed')).status, 200);
    const r = await waiting.done;
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'configmap/doomed condition met\n');
    const gone = await kubectl('wait', '--for=delete', 'configmap/doomed', '--timeout=5s');
    assert.equal(gone.code, 0, gone.err);
  });

  // [args, kubectl's answer]
  const canI: [string[], string][] = [
    [['list', 'pods'], 'yes\n'],
    [['create', 'deployments.apps', '-n', 'kube-system'], 'yes\n'],
    [['delete', 'nodes', '--all-namespaces'], 'yes\n'],
    [['get', 'pods', '--subresource=log'], 'yes\n'],
    [['get', '/healthz'], 'yes\n'],
    [['*', '*'], 'yes\n'],
  ];
  for (const [args, want] of canI) {
    it(`auth can-i ${args.join(' ')}`, async () => {
      const r = await kubectl('auth', 'can-i', ...args);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, want);
    });
  }

  it('auth can-i --list (SelfSubjectRulesReview), and SelfSubjectAccessReview under both group spellings', async () => {
    const list = await kubectl('auth', 'can-i', '--list');
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n/);
    for (const group of ['authorization.svc.io', 'authorization.k8s.io']) {
      const body = JSON.stringify({ apiVersion: `${group}/v1`, kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } });
      const r = await kubectl.with({ stdin: body }, 'create', '--raw', `/apis/${group}/v1/selfsubjectaccessreviews`, '-f', '-');
      assert.equal(r.code, 0, r.err);
      const review = JSON.parse(r.out);
      assert.equal(review.apiVersion, `${group}/v1`);
      assert.equal(review.kind, 'SelfSubjectAccessReview');
      assert.equal(review.status.allowed, true);
    }
  });

  it('auth whoami: SelfSubjectReview is off by default in 1.27 (as in Kubernetes), so kubectl says so', async () => {
    const r = await kubectl('auth', 'whoami');
    assert.equal(r.code, 1);
    assert.equal(r.err, 'error: the selfsubjectreviews API is not enabled in the cluster\nenable APISelfSubjectReview feature gate and authentication.k8s.io/v1alpha1 or authentication.k8s.io/v1beta1 API\n');
  });

  it('auth whoami with --runtime-config=authentication.k8s.io/v1beta1=true', async () => {
    // whoami for every user needs the APISelfSubjectReview gate too (system:basic-user then grants selfsubjectreviews)
    const on = await startTestServer({ runtimeConfig: { 'authentication.k8s.io/v1beta1': true }, featureGates: FeatureGates.parse('APISelfSubjectReview=true') });
    try {
      const k = kubectlFor(() => on);
      const r = await k('auth', 'whoami');
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^ATTRIBUTE\s+VALUE\nUsername\s+admin\nGroups\s+\[system:masters system:authenticated\]\n$/);
      const as = await k('auth', 'whoami', '-o', 'json', '--as=bob', '--as-group=devs', '--as-group=ops', '--as-uid=42');
      assert.equal(as.code, 0, as.err);
      assert.deepEqual(JSON.parse(as.out).status.userInfo, { username: 'bob', uid: '42', groups: ['devs', 'ops', 'system:authenticated'] });
      const sa = await k('auth', 'whoami', '-o', 'json', '--as=system:serviceaccount:default:robot');
      assert.equal(sa.code, 0, sa.err);
      assert.deepEqual(JSON.parse(sa.out).status.userInfo.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
      k.cleanup();
    } finally {
      await on.stop();
    }
  });

  it('impersonation: --as, --as-group (repeated), --as-uid act as that user, with that user\'s RBAC rights', async () => {
    const before = await kubectl('auth', 'can-i', 'list', 'configmaps', '--as=alice');
    assert.equal(before.out, 'no\n');
    const denied = await kubectl('get', '--raw', '/api/v1/namespaces/default/configmaps', '--as=alice');
    assert.equal(denied.code, 1);
    assert.match(denied.err, /configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"/);
    for (const args of [['--user=alice', 'alice-view'], ['--group=devs', 'devs-view']]) {
      const b = await kubectl('create', 'rolebinding', args[1]!, '--clusterrole=view', args[0]!);
      assert.equal(b.code, 0, b.err);
    }
    await eventually(async () => (await kubectl('auth', 'can-i', 'list', 'configmaps', '--as=alice')).out === 'yes\n');
    const raw = await kubectl('get', '--raw', '/api/v1/namespaces/default/configmaps', '--as=alice');
    assert.equal(raw.code, 0, raw.err);
    assert.equal(JSON.parse(raw.out).kind, 'ConfigMapList');
    await eventually(async () => (await kubectl('get', 'pods', '--as=bob', '--as-group=devs', '--as-group=ops', '--as-uid=42')).code === 0);
    // view grants no writes
    const write = await kubectl('create', 'configmap', 'nope', '--as=bob', '--as-group=devs');
    assert.equal(write.code, 1);
    assert.match(write.err, /configmaps is forbidden: User "bob" cannot create resource "configmaps"/);
    // a group without a user: kubectl itself refuses before sending anything
    const groupOnly = await kubectl('get', 'pods', '--as-group=devs');
    assert.equal(groupOnly.code, 1);
    for (const name of ['alice-view', 'devs-view']) await kubectl('delete', 'rolebinding', name);
  });

  it('logs: an unscheduled pod has no log yet (204, as Kubernetes), also with -f; bad options are 422', async () => {
    for (const args of [['logs', 'unscheduled'], ['logs', '-f', 'unscheduled'], ['logs', 'two', '-c', 'b']]) {
      const r = await kubectl(...args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.out, '');
    }
    const bad = await kubectl('get', '--raw', '/api/v1/namespaces/default/pods/unscheduled/log?tailLines=-2&sinceSeconds=0');
    assert.equal(bad.code, 1);
    assert.equal(bad.err, 'The PodLogOptions "unscheduled" is invalid: \n* tailLines: Invalid value: -2: must be greater than or equal to 0\n* sinceSeconds: Invalid value: 0: must be greater than 0\n');
    const which = await kubectl('get', '--raw', '/api/v1/namespaces/default/pods/two/log');
    assert.equal(which.err, 'Error from server (BadRequest): a container name must be specified for pod two, choose one of: [a b]\n');
  });

  // [args, kubectl's error] — each answered at once with the Status Kubernetes gives when it cannot reach a node
  // (exec, attach and port-forward do not stream through node agents yet).
  const noAgent: [string[], string][] = [
    [['exec', 'unscheduled', '--', 'ls'], 'Error from server (BadRequest): pod unscheduled does not have a host assigned\n'],
    [['attach', 'unscheduled'], 'Error from server (BadRequest): pod unscheduled does not have a host assigned\n'],
    [['cp', '/etc/hostname', 'unscheduled:/tmp/x'], 'Error from server (BadRequest): pod unscheduled does not have a host assigned\n'],
    [['exec', 'unscheduled', '-c', 'nope', '--', 'ls'], 'Error from server (BadRequest): container nope is not valid for pod unscheduled\n'],
    // n1 reports no address: kube-apiserver's kubelet client cannot pick one
    [['logs', 'on-node'], 'Error from server: no preferred addresses found; known addresses: []\n'],
    [['exec', 'on-node', '--', 'ls'], 'Error from server (ServiceUnavailable): pod on-node runs on node n1, but this server has no node agent to reach it: exec is not available\n'],
    [['cp', 'on-node:/etc/hostname', '/tmp/svc-never-written'], 'Error from server (ServiceUnavailable): pod on-node runs on node n1, but this server has no node agent to reach it: exec is not available\n'],
    [['logs', 'lost'], 'Error from server (NotFound): nodes "n2" not found\n'],
    [['logs', 'nobody'], 'Error from server (NotFound): pods "nobody" not found\n'],
  ];
  for (const [args, want] of noAgent) {
    it(`kubectl ${args.join(' ')} fails at once`, async () => {
      const r = await kubectl(...args);
      assert.equal(r.code, 1);
      assert.match(r.err, new RegExp(`${want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    });
  }

  it('port-forward: refused by kubectl for a pod not running; by the server once it runs', async () => {
    const pending = await kubectl('port-forward', 'unscheduled', '18080:80');
    assert.equal(pending.code, 1);
    assert.equal(pending.err, 'error: unable to forward port because pod is not running. Current status=Pending\n');
    for (const name of ['unscheduled', 'on-node']) {
      const set = await kubectl('patch', 'pod', name, '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running"}}');
      assert.equal(set.code, 0, set.err);
    }
    const noHost = await kubectl('port-forward', 'unscheduled', '18080:80');
    assert.equal(noHost.code, 1);
    assert.match(noHost.err, /error: error upgrading connection: pod unscheduled does not have a host assigned\n$/);
    const noAgentYet = await kubectl('port-forward', 'pod/on-node', '18080:80');
    assert.equal(noAgentYet.code, 1);
    assert.match(noAgentYet.err, /error: error upgrading connection: pod on-node runs on node n1, but this server has no node agent to reach it: port forwarding is not available\n$/);
  });
});
