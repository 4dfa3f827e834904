// kubectl 1.27 writing to the real server: create configmap|secret|namespace|
// deployment, run, apply --server-side (conflicts, --force-conflicts,
// --dry-run=server), diff --server-side, replace (stale resourceVersion,
// --force), patch (strategic, merge, json, --subresource=status), scale,
// edit with EDITOR set to a script, and delete (by name, -l, --all, --wait).
// Each result is checked on the server, not only in kubectl's output. Runs
// on both storage backends (embedded SQLite and a real etcd).
// (create/apply/replace/diff -f with the default validation are in
// kubectl-openapi.test.ts; label, annotate and client-side apply in
// kubectl.test.ts.)
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

for (const backend of BACKENDS) describe(`kubectl 1.27: writing (${backend.name})`, { skip: kubectlMissing || backend.skip }, () => {
  let t: TestServer;
  const kubectl = kubectlFor(() => t);
  const get = async (path: string) => (await t.req('GET', path)).body;
  before(async () => {
    t = await backend.start();
  });
  after(async () => {
    await t?.stop();
    kubectl.cleanup();
  });

  // [args, kubectl's output, the object's path, a check of the stored object]
  const creates: [string[], string, string, (o: any) => void][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
    [['create', 'configmap', 'cfg', '--from-literal=a=1', '--from-literal=b=2'], 'configmap/cfg created\n', '/api/v1/namespaces/default/configmaps/cfg', (o) => assert.deepEqual(o.data, { a: '1', b: '2' })],
    [['create', 'secret', 'generic', 'sec', '--from-literal=pw=s3cret'], 'secret/sec created\n', '/api/v1/namespaces/default/secrets/sec', (o) => {
      assert.equal(o.type, 'Opaque');
      assert.deepEqual(o.data, { pw: b64('s3cret') });
    }],
    [['create', 'secret', 'docker-registry', 'reg', '--docker-server=r.example', '--docker-username=u', '--docker-password=p'], 'secret/reg created\n', '/api/v1/namespaces/default/secrets/reg', (o) => {
      assert.equal(o.type, 'kubernetes.io/dockerconfigjson');
      assert.equal(JSON.parse(Buffer.from(o.data['.dockerconfigjson'], 'base64').toString()).auths['r.example'].username, 'u');
    }],
    [['create', 'namespace', 'team-b'], 'namespace/team-b created\n', '/api/v1/namespaces/team-b', (o) => assert.equal(o.status.phase, 'Active')],
    [['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2', '--port=80'], 'deployment.apps/web created\n', '/apis/apps/v1/namespaces/default/deployments/web', (o) => {
      assert.equal(o.spec.replicas, 2);
      assert.deepEqual(o.spec.selector, { matchLabels: { app: 'web' } });
      assert.deepEqual(o.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
      assert.equal(o.metadata.managedFields[0].manager, 'kubectl-create');
    }],
    [['run', 'p1', '--image=busybox', '--labels=app=p1', '--env=A=1', '--', 'sleep', '3600'], 'pod/p1 created\n', '/api/v1/namespaces/default/pods/p1', (o) => {
      assert.deepEqual(o.metadata.labels, { app: 'p1' });
      assert.deepEqual(o.spec.containers[0].args, ['sleep', '3600']);
      assert.deepEqual(o.spec.containers[0].env, [{ name: 'A', value: '1' }]);
      assert.equal(o.metadata.managedFields[0].manager, 'kubectl-run');
    }],
  ];
  for (const [args, out, path, check] of creates) {
    it(`kubectl ${args.join(' ')}`, async () => {
      const r = await kubectl(...args);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, out);
      check(await get(path));
    });
  }

  it('create of an existing object, and create --dry-run=server (nothing stored)', async () => {
    const dup = await kubectl('create', 'configmap', 'cfg');
    assert.equal(dup.code, 1);
    assert.equal(dup.err, 'error: failed to create configmap: configmaps "cfg" already exists\n');
    const dry = await kubectl('create', 'configmap', 'dry', '--dry-run=server');
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.out, 'configmap/dry created (server dry run)\n');
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
  });

  it('apply --server-side: create, conflict with another manager, --force-conflicts, --dry-run=server', async () => {
    const manifest = (a: string, name = 'ssa') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  a: "${a}"\n`;
    const created = await kubectl('apply', '--server-side', '-f', kubectl.file('ssa1.yaml', manifest('1')));
    assert.equal(created.code, 0, created.err);
    assert.equal(created.out, 'configmap/ssa serverside-applied\n');
    const f2 = kubectl.file('ssa2.yaml', manifest('2'));
    const conflict = await kubectl('apply', '--server-side', '--field-manager=other', '-f', f2);
    assert.equal(conflict.code, 1);
    assert.match(conflict.err, /^error: Apply failed with 1 conflict: conflict with "kubectl": \.data\.a\n/);
    assert.equal((await get('/api/v1/namespaces/default/configmaps/ssa')).data.a, '1');
    const forced = await kubectl('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', f2);
    assert.equal(forced.code, 0, forced.err);
    const live = await get('/api/v1/namespaces/default/configmaps/ssa');
    assert.equal(live.data.a, '2');
    assert.deepEqual(live.metadata.managedFields.map((m: { manager: string; operation: string }) => [m.manager, m.operation]), [['other', 'Apply']], 'the field moved to the new manager');
    const dry = await kubectl('apply', '--server-side', '--field-manager=other', '--dry-run=server', '-o', 'jsonpath={.data.a}', '-f', kubectl.file('ssa3.yaml', manifest('3')));
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.out, '3');
    assert.equal((await get('/api/v1/namespaces/default/configmaps/ssa')).data.a, '2', 'a dry run stores nothing');
    const dryNew = await kubectl('apply', '--server-side', '--dry-run=server', '-f', kubectl.file('ssa4.yaml', manifest('1', 'ssa-new')));
    assert.equal(dryNew.out, 'configmap/ssa-new serverside-applied (server dry run)\n');
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/configmaps/ssa-new')).status, 404);
  });

  it('diff --server-side: exit 0 without changes, 1 with them; nothing is stored', async () => {
    await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'df' }, data: { a: 'old' } });
    const manifest = (a: string, name = 'df') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  a: "${a}"\n`;
    const same = await kubectl('diff', '--server-side', '--force-conflicts', '-f', kubectl.file('df-same.yaml', manifest('old')));
    assert.equal(same.code, 0, same.err);
    assert.equal(same.out, '');
    const changed = await kubectl('diff', '--server-side', '--force-conflicts', '-f', kubectl.file('df-changed.yaml', manifest('new')));
    assert.equal(changed.code, 1, changed.err);
    assert.match(changed.out, /\n-  a: old\n\+  a: new\n/);
    assert.doesNotMatch(changed.out, /managedFields/);
    const created = await kubectl('diff', '--server-side', '-f', kubectl.file('df-new.yaml', manifest('fresh', 'df-new')));
    assert.equal(created.code, 1, created.err);
    assert.match(created.out, /\n\+apiVersion: v1\n\+data:\n\+  a: fresh\n\+kind: ConfigMap\n/);
    assert.equal((await get('/api/v1/namespaces/default/configmaps/df')).data.a, 'old');
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/configmaps/df-new')).status, 404);
  });

  it('replace: a stale resourceVersion is a conflict; --force deletes and re-creates', async () => {
    await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'rp' }, data: { a: '1' } });
    const old = (await kubectl('get', 'cm', 'rp', '-o', 'yaml')).out;
    await t.req('PATCH', '/api/v1/namespaces/default/configmaps/rp', { data: { a: '2' } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    const stale = await kubectl.with({ stdin: old.replace('a: "1"', 'a: "3"') }, 'replace', '-f', '-');
    assert.equal(stale.code, 1);
    assert.equal(stale.err, 'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "rp": the object has been modified; please apply your changes to the latest version and try again\n');
    const uid = (await get('/api/v1/namespaces/default/configmaps/rp')).metadata.uid;
    const forced = await kubectl.with({ stdin: old.replace('a: "1"', 'a: "4"') }, 'replace', '--force', '-f', '-');
    assert.equal(forced.code, 0, forced.err);
    assert.equal(forced.out, 'configmap "rp" deleted\nconfigmap/rp replaced\n');
    const now = await get('/api/v1/namespaces/default/configmaps/rp');
    assert.equal(now.data.a, '4');
    assert.notEqual(now.metadata.uid, uid);
  });

  it('patch a deployment: strategic (containers merge by name), merge (lists replace), json, status subresource', async () => {
    const path = '/apis/apps/v1/namespaces/default/deployments/web';
    const smp = await kubectl('patch', 'deploy', 'web', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"MODE","value":"x"}]}]}}}}');
    assert.equal(smp.code, 0, smp.err);
    assert.equal(smp.out, 'deployment.apps/web patched\n');
    let d = await get(path);
    assert.equal(d.spec.template.spec.containers.length, 1);
    assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.25', 'kept by the strategic merge');
    assert.deepEqual(d.spec.template.spec.containers[0].env, [{ name: 'MODE', value: 'x' }]);
    const noop = await kubectl('patch', 'deploy', 'web', '-p', '{"spec":{"replicas":2}}');
    assert.equal(noop.out, 'deployment.apps/web patched (no change)\n');
    const merge = await kubectl('patch', 'deploy', 'web', '--type=merge', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox"}]}}}}');
    assert.equal(merge.code, 0, merge.err);
    d = await get(path);
    assert.deepEqual(d.spec.template.spec.containers.map((c: { name: string }) => c.name), ['side'], 'a merge patch replaces the list');
    const json = await kubectl('patch', 'deploy', 'web', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":3},{"op":"add","path":"/metadata/labels/tier","value":"front"}]');
    assert.equal(json.code, 0, json.err);
    d = await get(path);
    assert.equal(d.spec.replicas, 3);
    assert.equal(d.metadata.labels.tier, 'front');
    const status = await kubectl('patch', 'deploy', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":3,"readyReplicas":1},"spec":{"replicas":9}}');
    assert.equal(status.code, 0, status.err);
    d = await get(path);
    assert.equal(d.status.readyReplicas, 1);
    assert.equal(d.spec.replicas, 3, 'the status subresource ignores spec');
    const invalid = await kubectl('patch', 'deploy', 'web', '--type=merge', '-p', '{"spec":{"replicas":-1}}');
    assert.equal(invalid.code, 1);
    assert.equal(invalid.err, 'The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n');
  });

  it('scale: deployments and replica sets by label; --current-replicas is a precondition', async () => {
    const r = await kubectl('scale', 'deploy', 'web', '--replicas=5');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'deployment.apps/web scaled\n');
    assert.equal((await get('/apis/apps/v1/namespaces/default/deployments/web')).spec.replicas, 5);
    const pre = await kubectl('scale', 'deploy', 'web', '--replicas=1', '--current-replicas=3');
    assert.equal(pre.code, 1);
    assert.equal(pre.err, 'error: Expected replicas to be 3, was 5\n');
    const ok = await kubectl('scale', 'deploy', 'web', '--replicas=1', '--current-replicas=5');
    assert.equal(ok.code, 0, ok.err);
    const labels = { app: 'rs' };
    for (const name of ['rs-a', 'rs-b']) {
      await t.req('POST', '/apis/apps/v1/namespaces/default/replicasets', { metadata: { name, labels }, spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } });
    }
    const byLabel = await kubectl('scale', 'rs', '-l', 'app=rs', '--replicas=0');
    assert.equal(byLabel.code, 0, byLabel.err);
    assert.equal(byLabel.out, 'replicaset.apps/rs-a scaled\nreplicaset.apps/rs-b scaled\n');
    for (const name of ['rs-a', 'rs-b']) assert.equal((await get(`/apis/apps/v1/namespaces/default/replicasets/${name}`)).spec.replicas, 0);
  });

  it('edit with EDITOR set to a script: edited, no change, and an invalid edit', async () => {
    const editor = (name: string, sed: string) => {
      const p = kubectl.file(name, `#!/bin/sh\nsed -i '${sed}' "$1"\n`);
      chmodSync(p, 0o755);
      return { EDITOR: p, KUBE_EDITOR: p, TMPDIR: kubectl.dir };
    };
    const edited = await kubectl.with({ env: editor('ed1.sh', 's/^  a: .*/  a: edited/') }, 'edit', 'cm', 'cfg');
    assert.equal(edited.code, 0, edited.err);
    assert.equal(edited.out, 'configmap/cfg edited\n');
    assert.equal((await get('/api/v1/namespaces/default/configmaps/cfg')).data.a, 'edited');
    const same = await kubectl.with({ env: editor('ed2.sh', 's/^nothing//') }, 'edit', 'cm', 'cfg');
    assert.equal(same.code, 0, same.err);
    assert.equal(same.err, 'Edit cancelled, no changes made.\n');
    const bad = await kubectl.with({ env: editor('ed3.sh', 's/^  replicas: .*/  replicas: -1/') }, 'edit', 'deploy', 'web');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^error: deployments.apps "web" is invalid\n/);
    assert.match(bad.err, /\nerror: Edit cancelled, no valid changes were saved.\n$/);
    assert.equal((await get('/apis/apps/v1/namespaces/default/deployments/web')).spec.replicas, 1);
  });

  it('delete by name, by label, --all in a namespace, and a namespace with --wait', async () => {
    for (const [name, labels] of [['d1', { grp: 'x' }], ['d2', { grp: 'x' }], ['d3', {}]] as const) {
      await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name, labels } });
    }
    const one = await kubectl('delete', 'cm', 'd3');
    assert.equal(one.code, 0, one.err);
    assert.equal(one.out, 'configmap "d3" deleted\n');
    const byLabel = await kubectl('delete', 'cm', '-l', 'grp=x');
    assert.equal(byLabel.out, 'configmap "d1" deleted\nconfigmap "d2" deleted\n');
    const missing = await kubectl('delete', 'cm', 'd1');
    assert.equal(missing.code, 1);
    assert.equal(missing.err, 'Error from server (NotFound): configmaps "d1" not found\n');
    assert.equal((await kubectl('delete', 'cm', 'd1', '--ignore-not-found')).code, 0);

    for (const name of ['a', 'b']) await t.req('POST', '/api/v1/namespaces/team-b/configmaps', { metadata: { name } });
    const all = await kubectl('delete', 'cm', '--all', '-n', 'team-b');
    assert.equal(all.code, 0, all.err);
    assert.equal(all.out, 'configmap "a" deleted\nconfigmap "b" deleted\n');
    assert.deepEqual((await get('/api/v1/namespaces/team-b/configmaps')).items, []);

    await t.req('POST', '/api/v1/namespaces/team-b/configmaps', { metadata: { name: 'inside' } });
    const ns = await kubectl('delete', 'namespace', 'team-b', '--wait', '--timeout=30s');
    assert.equal(ns.code, 0, ns.err);
    assert.equal(ns.out, 'namespace "team-b" deleted\n');
    assert.equal((await t.req('GET', '/api/v1/namespaces/team-b')).status, 404, '--wait returned after the namespace was finalized');
  });

  it('delete of a pod on a node is graceful: --wait=false leaves it terminating, --force removes it', async () => {
    await t.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'on-node' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] } });
    const r = await kubectl('delete', 'pod', 'on-node', '--wait=false');
    assert.equal(r.code, 0, r.err);
    const p = await get('/api/v1/namespaces/default/pods/on-node');
    assert.equal(p.metadata.deletionGracePeriodSeconds, 30, 'waiting for a node agent that would confirm it');
    const forced = await kubectl('delete', 'pod', 'on-node', '--grace-period=0', '--force');
    assert.equal(forced.code, 0, forced.err);
    assert.equal(forced.out, 'pod "on-node" force deleted\n');
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/pods/on-node')).status, 404);
  });
});
