// kubectl 1.27 reading from the real server: get with the server's Table
// columns per kind (short names, -A, -o wide, get all), the other output
// formats (yaml, json, name, jsonpath, custom-columns), --show-labels,
// --sort-by, --chunk-size, label and field selectors; describe of a pod and a
// deployment; api-resources, api-versions, version and get --raw on the
// health endpoints. (get -w is in kubectl.test.ts; explain in
// kubectl-openapi.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

const AGE = '\\d+s';
const podSpec = (image: string) => ({ containers: [{ name: 'app', image }] });

describe('kubectl 1.27: reading', { skip: kubectlMissing }, () => {
  let t: TestServer;
  const kubectl = kubectlFor(() => t);
  before(async () => {
    t = await startTestServer();
    const post = async (path: string, body: unknown) => {
      const r = await t.req('POST', path, body);
      assert.equal(r.status, 201, r.text);
    };
    await post('/api/v1/namespaces', { metadata: { name: 'team-a' } });
    await post('/api/v1/nodes', { metadata: { name: 'n1' } });
    await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'web-config', labels: { tier: 'web', app: 'shop' } }, data: { a: '1', b: '2' } });
    await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'db-config', labels: { tier: 'db', app: 'shop' } }, data: { a: '1' } });
    await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'plain' } });
    await post('/api/v1/namespaces/team-a/configmaps', { metadata: { name: 'other-config' }, data: { x: 'y' } });
    await post('/api/v1/namespaces/default/pods', { metadata: { name: 'p-web', labels: { app: 'web' } }, spec: { ...podSpec('nginx:1.25'), nodeName: 'n1' } });
    await post('/api/v1/namespaces/default/pods', { metadata: { name: 'p-db', labels: { app: 'db' } }, spec: podSpec('postgres:16') });
    await post('/api/v1/namespaces/default/services', { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } });
    const labels = { app: 'web' };
    await post('/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'web', labels }, spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec('nginx:1.25') } } });
  });
  after(async () => {
    await t?.stop();
    kubectl.cleanup();
  });

  // [args, expected output] — each kind's columns as kube-apiserver v1.27 prints them, reached by a short name.
  const tables: [string[], RegExp][] = [
    [['get', 'po'], new RegExp(`^NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\np-db\\s+0/1\\s+Pending\\s+0\\s+${AGE}\\np-web\\s+0/1\\s+Pending\\s+0\\s+${AGE}\\n$`)],
    [['get', 'po', 'p-web', '-o', 'wide'], new RegExp(`^NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\s+IP\\s+NODE\\s+NOMINATED NODE\\s+READINESS GATES\\np-web\\s+0/1\\s+Pending\\s+0\\s+${AGE}\\s+<none>\\s+n1\\s+<none>\\s+<none>\\n$`)],
    [['get', 'deploy', '-o', 'wide'], new RegExp(`^NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE\\s+CONTAINERS\\s+IMAGES\\s+SELECTOR\\nweb\\s+0/2\\s+0\\s+0\\s+${AGE}\\s+app\\s+nginx:1.25\\s+app=web\\n$`)],
    [['get', 'svc'], new RegExp(`^NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE\\nweb\\s+ClusterIP\\s+10\\.0\\.0\\.\\d+\\s+<none>\\s+80/TCP\\s+${AGE}\\n$`)],
    [['get', 'cm', 'web-config'], new RegExp(`^NAME\\s+DATA\\s+AGE\\nweb-config\\s+2\\s+${AGE}\\n$`)],
    [['get', 'ns', 'team-a'], new RegExp(`^NAME\\s+STATUS\\s+AGE\\nteam-a\\s+Active\\s+${AGE}\\n$`)],
    [['get', 'no'], new RegExp(`^NAME\\s+STATUS\\s+ROLES\\s+AGE\\s+VERSION\\nn1\\s+Unknown\\s+<none>\\s+${AGE}\\s+\\n$`)],
    [['get', 'cm', '-A', '--field-selector', 'metadata.namespace=team-a'], new RegExp(`^NAMESPACE\\s+NAME\\s+DATA\\s+AGE\\nteam-a\\s+other-config\\s+1\\s+${AGE}\\n$`)],
  ];
  for (const [args, want] of tables) {
    it(`kubectl ${args.join(' ')}`, async () => {
      const r = await kubectl(...args);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, want);
    });
  }

  it('get all: one table per kind in the "all" category, named kind/name; -A adds the namespace', async () => {
    const r = await kubectl('get', 'all');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\npod\/p-db\s+.*\npod\/p-web\s+/);
    assert.match(r.out, /\n\nNAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nservice\/web\s+ClusterIP\s/);
    assert.match(r.out, /\n\nNAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\ndeployment\.apps\/web\s+0\/2\s/);
    assert.doesNotMatch(r.out, /configmap/, 'configmaps are not in the "all" category');
    const all = await kubectl('get', 'all', '-A');
    assert.equal(all.code, 0, all.err);
    assert.match(all.out, /^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\ndefault\s+pod\/p-db\s/);
  });

  it('-o yaml, -o json (an object and a list), -o name, -o jsonpath, -o custom-columns', async () => {
    const y = await kubectl('get', 'cm', 'web-config', '-o', 'yaml');
    assert.equal(y.code, 0, y.err);
    assert.match(y.out, /^apiVersion: v1\ndata:\n {2}a: "1"\n {2}b: "2"\nkind: ConfigMap\nmetadata:\n/);
    assert.match(y.out, /\n {4}tier: web\n/);
    assert.doesNotMatch(y.out, /managedFields/, 'kubectl hides managedFields by default');
    const j = await kubectl('get', 'deploy', 'web', '-o', 'json');
    assert.equal(j.code, 0, j.err);
    const d = JSON.parse(j.out);
    assert.equal(d.kind, 'Deployment');
    assert.equal(d.apiVersion, 'apps/v1');
    assert.equal(d.spec.replicas, 2);
    assert.equal(d.spec.strategy.type, 'RollingUpdate', 'defaults are applied');
    const list = JSON.parse((await kubectl('get', 'cm', '-l', 'app=shop', '-o', 'json')).out);
    assert.equal(list.kind, 'List');
    assert.deepEqual(list.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['db-config', 'web-config']);
    assert.equal((await kubectl('get', 'cm,po', '-o', 'name')).out, 'configmap/db-config\nconfigmap/plain\nconfigmap/web-config\npod/p-db\npod/p-web\n');
    const jp = await kubectl('get', 'po', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.containers[0].image};{end}');
    assert.equal(jp.out, 'p-db=postgres:16;p-web=nginx:1.25;');
    const cc = await kubectl('get', 'cm', '-o', 'custom-columns=NAME:.metadata.name,TIER:.metadata.labels.tier');
    assert.match(cc.out, /^NAME\s+TIER\ndb-config\s+db\nplain\s+<none>\nweb-config\s+web\n$/);
  });

  it('--show-labels, -L and --sort-by (rows carry their objects)', async () => {
    const l = await kubectl('get', 'cm', '--show-labels');
    assert.match(l.out, /^NAME\s+DATA\s+AGE\s+LABELS\n/);
    assert.match(l.out, /\nweb-config\s+2\s+\S+\s+app=shop,tier=web\n/);
    assert.match(l.out, /\nplain\s+0\s+\S+\s+<none>\n/);
    const col = await kubectl('get', 'cm', '-L', 'tier');
    assert.match(col.out, /^NAME\s+DATA\s+AGE\s+TIER\ndb-config\s+1\s+\S+\s+db\nplain\s+0\s+\S+\s+\nweb-config\s+2\s+\S+\s+web\n$/);
    const byData = await kubectl('get', 'cm', '--sort-by=.metadata.labels.tier', '-o', 'name');
    assert.equal(byData.code, 0, byData.err);
    assert.equal(byData.out, 'configmap/plain\nconfigmap/db-config\nconfigmap/web-config\n');
    const byImage = await kubectl('get', 'po', '--sort-by={.spec.containers[0].image}');
    assert.equal(byImage.code, 0, byImage.err);
    assert.match(byImage.out, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\np-web\s+.*\np-db\s+/, 'nginx sorts before postgres');
    const allNs = await kubectl('get', 'cm', '-A', '--sort-by=.metadata.name');
    assert.match(allNs.out, /^NAMESPACE\s+NAME\s+DATA\s+AGE\ndefault\s+db-config\s.*\nteam-a\s+other-config\s.*\ndefault\s+plain\s.*\ndefault\s+web-config\s/);
  });

  it('--chunk-size pages a Table: one header, every row once', async () => {
    for (let i = 0; i < 5; i++) await t.req('POST', '/api/v1/namespaces/team-a/configmaps', { metadata: { name: `chunk-${i}` } });
    const r = await kubectl('get', 'cm', '-n', 'team-a', '--chunk-size=2', '-v=6');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^NAME\\s+DATA\\s+AGE\\n${[0, 1, 2, 3, 4].map((i) => `chunk-${i}\\s+0\\s+${AGE}\\n`).join('')}other-config\\s+1\\s+${AGE}\\n$`));
    assert.equal(r.err.match(/configmaps\?(continue=[^&\s]+&)?limit=2 200 OK/g)?.length, 3, 'three pages of at most two');
  });

  it('label selectors (equality, set-based, existence) and field selectors', async () => {
    const names = async (...args: string[]) => {
      const r = await kubectl('get', ...args, '-o', 'name');
      assert.equal(r.code, 0, r.err);
      return r.out.trim().split('\n').filter(Boolean);
    };
    assert.deepEqual(await names('cm', '-l', 'tier=web'), ['configmap/web-config']);
    assert.deepEqual(await names('cm', '-l', 'tier in (web,db),app=shop'), ['configmap/db-config', 'configmap/web-config']);
    assert.deepEqual(await names('cm', '-l', '!tier'), ['configmap/plain']);
    assert.deepEqual(await names('cm', '-l', 'tier notin (web)'), ['configmap/db-config', 'configmap/plain']);
    assert.deepEqual(await names('po', '--field-selector', 'spec.nodeName=n1'), ['pod/p-web']);
    assert.deepEqual(await names('po', '--field-selector', 'metadata.name!=p-web,status.phase=Pending'), ['pod/p-db']);
    assert.deepEqual(await names('po', '-l', 'app', '--field-selector', 'spec.nodeName='), ['pod/p-db']);
    const none = await kubectl('get', 'po', '-l', 'app=nothing');
    assert.equal(none.code, 0);
    assert.equal(none.err, 'No resources found in default namespace.\n');
    const bad = await kubectl('get', 'cm', '--field-selector', 'data.a=1');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^Error from server \(BadRequest\): Unable to find "\/v1, Resource=configmaps" that match label selector "", field selector "data.a=1": "data.a" is not a known field selector: only "metadata.name", "metadata.namespace"\n$/);
  });

  it('describe pod', async () => {
    const r = await kubectl('describe', 'pod', 'p-web');
    assert.equal(r.code, 0, r.err);
    for (const line of [/^Name:\s+p-web$/m, /^Namespace:\s+default$/m, /^Node:\s+n1\/$/m, /^Labels:\s+app=web$/m, /^Status:\s+Pending$/m, /^Containers:\n {2}app:\n {4}Image:\s+nginx:1.25$/m, /^QoS Class:\s+BestEffort$/m, /^Events:\s+<none>$/m]) {
      assert.match(r.out, line);
    }
  });

  it('describe deployment', async () => {
    const r = await kubectl('describe', 'deploy', 'web');
    assert.equal(r.code, 0, r.err);
    for (const line of [/^Name:\s+web$/m, /^Selector:\s+app=web$/m, /^Replicas:\s+2 desired \| 0 updated \| 0 total \| 0 available \| 0 unavailable$/m, /^StrategyType:\s+RollingUpdate$/m, /^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m, /^Pod Template:\n {2}Labels:\s+app=web\n {2}Containers:\n {3}app:\n {4}Image:\s+nginx:1.25$/m, /^Events:\s+<none>$/m]) {
      assert.match(r.out, line);
    }
  });

  it('describe role: kubectl resolves roles to rbac.authorization.k8s.io (listed first for stock clients) and prints its rule table', async () => {
    const c = await kubectl('create', 'role', 'reader', '--verb=get,list', '--resource=pods');
    assert.equal(c.code, 0, c.err);
    const r = await kubectl('describe', 'role', 'reader');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^PolicyRule:\n {2}Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n {2}-+\s+-+\s+-+\s+-+\n {2}pods\s+\[\]\s+\[\]\s+\[get list\]\n/m);
    const yaml = await kubectl('get', 'role', 'reader', '-o', 'jsonpath={.apiVersion}');
    assert.equal(yaml.out, 'rbac.authorization.k8s.io/v1');
  });

  it('api-resources and api-versions list both group spellings', async () => {
    const apps = await kubectl('api-resources', '--api-group=apps');
    assert.equal(apps.code, 0, apps.err);
    assert.match(apps.out, /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND\n/);
    assert.match(apps.out, /\ndeployments\s+deploy\s+apps\/v1\s+true\s+Deployment\n/);
    const wide = await kubectl('api-resources', '-o', 'wide');
    assert.match(wide.out, /\npods\s+po\s+v1\s+true\s+Pod\s+create,delete,deletecollection,get,list,patch,update,watch\s+all\n/);
    const cluster = await kubectl('api-resources', '--namespaced=false', '-o', 'name');
    assert.match(cluster.out, /^componentstatuses\nnamespaces\nnodes\npersistentvolumes\n/);
    assert.match(cluster.out, /\nclusterroles\.rbac\.authorization\.k8s\.io\n/);
    assert.match(cluster.out, /\nclusterroles\.rbac\.authorization\.svc\.io\n/);
    const v = await kubectl('api-versions');
    assert.equal(v.code, 0, v.err);
    const versions = v.out.trim().split('\n');
    for (const gv of ['v1', 'apps/v1', 'batch/v1', 'authorization.k8s.io/v1', 'authorization.svc.io/v1', 'rbac.authorization.k8s.io/v1']) assert.ok(versions.includes(gv), `${gv} in ${v.out}`);
  });

  it('version', async () => {
    const r = await kubectl('version', '-o', 'json');
    assert.equal(r.code, 0, r.err);
    const server = JSON.parse(r.out).serverVersion;
    assert.equal(server.major, '1');
    assert.equal(server.minor, '27');
    assert.match(server.gitVersion, /^v1\.27\.\d+/);
  });

  // [path, exact output or pattern]
  const raw: [string, string | RegExp][] = [
    ['/healthz', 'ok'],
    ['/livez', 'ok'],
    ['/readyz', 'ok'],
    ['/livez/ping', 'ok'],
    ['/readyz?verbose', /^\[\+\]ping ok\n(\[\+\]\S+ ok\n)+readyz check passed\n$/],
    ['/livez?verbose&exclude=etcd', /^\[\+\]ping ok\n(\[\+\]\S+ ok\n)*\[\+\]etcd excluded: ok\n(\[\+\]\S+ ok\n)*livez check passed\n$/],
  ];
  for (const [path, want] of raw) {
    it(`get --raw ${path}`, async () => {
      const r = await kubectl('get', '--raw', path);
      assert.equal(r.code, 0, r.err);
      if (typeof want === 'string') assert.equal(r.out, want);
      else assert.match(r.out, want);
    });
  }

  it('get --raw of a missing health check fails with the server\'s 404', async () => {
    const r = await kubectl('get', '--raw', '/livez/nothing');
    assert.equal(r.code, 1);
    assert.match(r.err, /NotFound/);
  });
});
