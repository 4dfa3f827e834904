// The RBAC security matrix (issue 19): every served resource × every verb it
// serves, every subresource × its verbs and the streaming endpoints, against a
// real server with --authorization-mode RBAC (the default Node,RBAC):
//   1. a user without rights gets kube's 403 for every cell, and storage does
//      not move (same revision; the targets byte-identical);
//   2. a user bound to exactly one rule (that verb, that group, that
//      resource[/subresource]) is allowed that cell, and its neighbours —
//      another verb, the same verb on another resource, the same request in
//      another namespace — stay 403.
// Plus impersonation as an escalation path. No bootstrap policy is assumed:
// the test creates every role it uses. The etcd backend runs a subset.
import assert from 'node:assert/strict';
import { Agent } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { servedResources } from '../../src/server/served.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { BACKENDS } from './backends.js';
import { eventually, writeTokenFile, type HttpResult, type TestServer } from './harness.js';
import { buildCells, collectionPath, EMPTY_ROLE, fixturesFor, forbiddenDetails, forbiddenText, NS, OTHER_NS, type Cell, type FreshBody, type Req } from './rbac-matrix-cells.js';

const RESOURCES = servedResources();
const ALL_CELLS = buildCells(RESOURCES);
/** The etcd run: the core of the matrix (pods with every subresource, a namespaced and a cluster-scoped svc.io group, apps, a review). */
const ETCD_SUBSET = new Set(['/pods', '/configmaps', '/nodes', 'apps/deployments', 'rbac.authorization.svc.io/clusterroles', 'networking.svc.io/ingresses', 'authorization.svc.io/selfsubjectaccessreviews']);

/** Cells kube's bootstrap policy allows every authenticated user (system:basic-user): not denied once it is in place. */
const EVERY_USER = new Set(['authorization.svc.io/selfsubjectaccessreviews', 'authorization.svc.io/selfsubjectrulesreviews', 'authentication.svc.io/selfsubjectreviews']);
const TOKENS = 'tina-token,tina,u-tina\nursula-token,ursula,u-ursula\n';
const CONCURRENCY = 8;

type Who = { impersonate: string } | { token: string };

/** fn over items, n at a time; the first failure is thrown once every worker has stopped (nothing runs on behind a failed test). */
async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      try {
        await fn(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failure) throw failure.error;
}

function send(t: TestServer, req: Req, who: Who | undefined, body?: unknown): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (req.contentType) headers['content-type'] = req.contentType;
  if (who && 'impersonate' in who) headers['impersonate-user'] = who.impersonate;
  return t.req(req.method, req.path, body, { headers, token: who && 'token' in who ? who.token : undefined });
}

function isFresh(b: unknown): b is FreshBody {
  return typeof b === 'object' && b !== null && 'fresh' in b;
}

/** The request's body: a fresh body is read by the admin just before (the object or its subresource). */
async function bodyOf(t: TestServer, c: Cell): Promise<unknown> {
  const b = c.req.body;
  if (!isFresh(b)) return b;
  const item = `${collectionPath(RESOURCES[c.ri]!, c.pathGroup)}/${c.name}`;
  const path = b.fresh ? `${item}/${b.fresh}` : item;
  const r = await t.req('GET', path);
  assert.equal(r.status, 200, `${c.label}: admin GET ${path}: ${r.text}`);
  return b.mutate ? b.mutate(r.body) : r.body;
}

/** A 403 with kube's Status for `text`. */
function forbiddenProblem(r: HttpResult, text: string, details?: Record<string, string>): string | undefined {
  if (r.status !== 403) return `status ${r.status} (want 403): ${r.text.slice(0, 300)}`;
  if (r.body?.kind !== 'Status' || r.body.reason !== 'Forbidden' || r.body.code !== 403) return `not a Forbidden Status: ${r.text.slice(0, 300)}`;
  if (r.body.message !== text) return `message ${JSON.stringify(r.body.message)}\n   want ${JSON.stringify(text)}`;
  if (details && JSON.stringify(Object.entries(r.body.details ?? {}).sort()) !== JSON.stringify(Object.entries(details).sort())) return `details ${JSON.stringify(r.body.details)}, want ${JSON.stringify(details)}`;
  return undefined;
}

/** Requests that must stay 403 for the cell's user, with their expected text. */
function neighbours(c: Cell, cells: readonly Cell[]): { what: string; req: Req; text: string; details: Record<string, string> }[] {
  const r = RESOURCES[c.ri]!;
  const coll = collectionPath(r, c.pathGroup);
  const out: { what: string; req: Req; text: string; details: Record<string, string> }[] = [];
  // Another verb: a subresource rule grants nothing on its parent; a verb grants no other.
  if (c.subresource) {
    out.push({ what: 'get on the parent', req: { method: 'GET', path: `${coll}/${c.name}` }, text: forbiddenText(c.user, { ...c, verb: 'get', subresource: '' }), details: forbiddenDetails(c) });
  } else if (c.verb !== 'list') {
    out.push({ what: 'list', req: { method: 'GET', path: coll }, text: forbiddenText(c.user, { ...c, verb: 'list', name: '' }), details: forbiddenDetails({ ...c, name: '' }) });
  } else {
    const name = `t${c.ri}`;
    out.push({ what: 'get', req: { method: 'GET', path: `${coll}/${name}` }, text: forbiddenText(c.user, { ...c, verb: 'get', name }), details: forbiddenDetails({ ...c, name }) });
  }
  // The same verb on another resource: the next cell of that verb whose resource differs.
  const i = cells.indexOf(c);
  const other = [...cells.slice(i + 1), ...cells.slice(0, i)].find((o) => o.verb === c.verb && (o.resource !== c.resource || o.subresource !== c.subresource) && o.req.method === c.req.method && !EVERY_USER.has(`${o.group}/${o.resource}`));
  if (other) out.push({ what: `${c.verb} on ${other.label}`, req: { ...other.req, body: isFresh(other.req.body) ? {} : other.req.body }, text: forbiddenText(c.user, other), details: forbiddenDetails(other) });
  // The same request in another namespace: a RoleBinding holds in its namespace only.
  if (c.namespaced) {
    const path = c.req.path.replace(`/namespaces/${NS}/`, `/namespaces/${OTHER_NS}/`);
    out.push({ what: `in ${OTHER_NS}`, req: { ...c.req, path, body: isFresh(c.req.body) ? {} : c.req.body }, text: forbiddenText(c.user, c, OTHER_NS), details: forbiddenDetails(c) });
  }
  return out;
}

function sar(user: string, c: Pick<Cell, 'namespaced' | 'verb' | 'pathGroup' | 'resource' | 'subresource' | 'name'>) {
  return {
    kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1',
    spec: { user, groups: ['system:authenticated'], resourceAttributes: { namespace: c.namespaced ? NS : '', verb: c.verb, group: c.pathGroup, resource: c.resource, subresource: c.subresource, name: c.name } },
  };
}

async function allowed(t: TestServer, body: unknown): Promise<boolean> {
  const r = await t.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', body);
  assert.equal(r.status, 201, r.text);
  return r.body.status.allowed === true;
}

for (const backend of BACKENDS) {
  const full = backend.name === 'sqlite';
  const cells = full ? ALL_CELLS : ALL_CELLS.filter((c) => ETCD_SUBSET.has(`${c.group}/${c.resource}`));
  const entries = [...new Set(cells.map((c) => c.ri))];

  describe(`RBAC matrix on ${backend.name} (${cells.length} cells)`, { skip: backend.skip }, () => {
    let t: TestServer;
    // Thousands of requests: one TLS handshake per connection, not per request.
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    before(async () => {
      const dir = tempDir('svc-rbac-matrix-');
      // No controllers: nothing writes behind the test's back, so the revision is the test's alone.
      const started = await backend.start({ tokenAuthFile: writeTokenFile(dir, TOKENS), controllers: false });
      t = { ...started, req: (method, path, body, opts = {}) => started.req(method, path, body, { agent, ...opts }) };
      for (const ns of [NS, OTHER_NS]) assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
      const role = (name: string, rules: unknown[]) => t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name }, rules });
      assert.equal((await role(EMPTY_ROLE, [])).status, 201);
      // One ClusterRole per cell with its one rule, bound to the cell's user where the cell lives.
      await pool(cells, 16, async (c) => {
        const res = c.subresource ? `${c.resource}/${c.subresource}` : c.resource;
        // Approving a CSR also needs `approve` on its signer (the CertificateApproval admission plugin, on by default).
        const signer = res === 'certificatesigningrequests/approval' ? [{ verbs: ['approve'], apiGroups: [c.ruleGroup], resources: ['signers'] }] : [];
        const r = await role(`matrix-${c.id}`, [{ verbs: [c.verb], apiGroups: [c.ruleGroup], resources: [res] }, ...signer]);
        assert.equal(r.status, 201, r.text);
        const binding = { metadata: { name: `matrix-${c.id}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `matrix-${c.id}` }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: c.user }] };
        const b = c.namespaced
          ? await t.req('POST', `/apis/rbac.authorization.svc.io/v1/namespaces/${NS}/rolebindings`, binding)
          : await t.req('POST', '/apis/rbac.authorization.svc.io/v1/clusterrolebindings', binding);
        assert.equal(b.status, 201, b.text);
      });
      const fixtures = entries.flatMap((ri) => fixturesFor(RESOURCES[ri]!, ri));
      await pool(fixtures, 16, async (f) => {
        const r = await t.req('POST', f.path, f.body);
        assert.equal(r.status, 201, `fixture ${f.path} ${JSON.stringify(f.body)}: ${r.text}`);
      });
      // The RBAC cache follows storage: wait until the last binding is seen (the watch delivers in order).
      const last = cells[cells.length - 1]!;
      await eventually(() => allowed(t, sar(last.user, last)));
    });
    after(async () => {
      agent.destroy();
      await t?.stop();
    });

    it('covers both group spellings in rules and paths', () => {
      const svc = cells.filter((c) => c.group.includes('svc.io'));
      for (const [rule, path] of [['svc.io', 'svc.io'], ['svc.io', 'k8s.io'], ['k8s.io', 'svc.io'], ['k8s.io', 'k8s.io']]) {
        assert.ok(svc.some((c) => c.ruleGroup.endsWith(rule!) && c.pathGroup.endsWith(path!)), `a rule spelled ${rule} on a path spelled ${path}`);
      }
    });

    it('the subject access review agrees: each cell user is allowed its cell', async () => {
      const wrong: string[] = [];
      await pool(cells, CONCURRENCY, async (c) => {
        if (!(await allowed(t, sar(c.user, c)))) wrong.push(c.label);
      });
      assert.deepEqual(wrong, []);
    });

    it('without rights every cell is 403 with kube\'s text, and storage does not move', async () => {
      // Byte-identical targets: every fixture object as the admin reads it.
      const watched = entries.flatMap((ri) => fixturesFor(RESOURCES[ri]!, ri)).map((f) => `${f.path}/${(f.body.metadata as { name: string }).name}`);
      const snapshot = async () => {
        const out = new Map<string, string>();
        await pool(watched, CONCURRENCY, async (p) => {
          const r = await t.req('GET', p);
          assert.equal(r.status, 200, `${p}: ${r.text}`);
          out.set(p, r.text);
        });
        return out;
      };
      const bodies = new Map<number, unknown>();
      await pool(cells, CONCURRENCY, async (c) => void bodies.set(c.id, await bodyOf(t, c)));
      const objectsBefore = await snapshot();
      const revBefore = await t.server.store.currentRevision();

      const problems: string[] = [];
      await pool(cells, CONCURRENCY, async (c) => {
        // Impersonated users and a token-file user in turn: the decision is the user's, however authenticated.
        const [user, who]: [string, Who] = c.id % 2 === 0 ? ['nobody', { impersonate: 'nobody' }] : ['tina', { token: 'tina-token' }];
        // Once the bootstrap policy lands, system:basic-user lets every authenticated user review itself.
        if (EVERY_USER.has(`${c.group}/${c.resource}`) && (await allowed(t, sar(user, c)))) return;
        const r = await send(t, c.req, who, bodies.get(c.id));
        const p = forbiddenProblem(r, forbiddenText(user, c), forbiddenDetails(c));
        if (p) problems.push(`${c.label} as ${user}: ${p}`);
      });
      assert.deepEqual(problems, []);

      assert.equal(await t.server.store.currentRevision(), revBefore, 'a denied request wrote to storage');
      const objectsAfter = await snapshot();
      for (const [p, text] of objectsBefore) assert.equal(objectsAfter.get(p), text, `${p} changed`);
    });

    it('with exactly its rule each cell is allowed, and its neighbours stay 403', async () => {
      const problems: string[] = [];
      await pool(entries, CONCURRENCY, async (ri) => {
        const mine = cells.filter((c) => c.ri === ri).sort((a, b) => a.phase - b.phase);
        for (const c of mine) {
          const who: Who = { impersonate: c.user };
          const r = await send(t, c.req, who, await bodyOf(t, c));
          const ok = c.expect === '2xx' ? r.status >= 200 && r.status < 300 : r.status === c.expect;
          if (r.status === 403 || !ok) problems.push(`${c.label}: status ${r.status} (want ${c.expect}): ${r.text.slice(0, 300)}`);
          for (const n of neighbours(c, cells)) {
            const nr = await send(t, n.req, who, n.req.body);
            const p = forbiddenProblem(nr, n.text, n.details);
            if (p) problems.push(`${c.label}, neighbour ${n.what}: ${p}`);
          }
        }
      });
      assert.deepEqual(problems, []);
      // The proxies answered without touching their parent (DELETE …/proxy once deleted it).
      for (const c of cells.filter((x) => x.subresource === 'proxy')) {
        const parent = `${collectionPath(RESOURCES[c.ri]!, c.group)}/${c.name}`;
        assert.equal((await t.req('GET', parent)).status, 200, `${c.label}: ${parent} is gone`);
      }
    });

    it('resourceNames: a list or watch narrowed to one name by metadata.name is allowed by a rule naming it', async () => {
      const name = `t${RESOURCES.findIndex((r) => r.group === '' && r.resource === 'configmaps')}`;
      const role = { metadata: { name: 'matrix-rn' }, rules: [{ verbs: ['list', 'watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: [name] }] };
      assert.equal((await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', role)).status, 201);
      const binding = { metadata: { name: 'matrix-rn' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'matrix-rn' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'rn' }] };
      assert.equal((await t.req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, binding)).status, 201);
      const coll = `/api/v1/namespaces/${NS}/configmaps`;
      const as = (q: string) => send(t, { method: 'GET', path: `${coll}?${q}` }, { impersonate: 'rn' });
      await eventually(async () => (await as(`fieldSelector=metadata.name%3D${name}`)).status === 200);
      const l = await as(`fieldSelector=metadata.name%3D${name}`);
      assert.deepEqual(l.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), [name]);
      assert.equal((await as(`watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3D${name}`)).status, 200);
      const cm = { pathGroup: '', resource: 'configmaps', subresource: '', namespaced: true };
      assert.equal(forbiddenProblem(await as('limit=5'), forbiddenText('rn', { ...cm, verb: 'list', name: '' }), forbiddenDetails({ ...cm, name: '' })), undefined);
      assert.equal(forbiddenProblem(await as('fieldSelector=metadata.name%3Dother'), forbiddenText('rn', { ...cm, verb: 'list', name: 'other' }), forbiddenDetails({ ...cm, name: 'other' })), undefined);
      assert.equal(forbiddenProblem(await as('watch=1&fieldSelector=metadata.name%3Dother'), forbiddenText('rn', { ...cm, verb: 'watch', name: 'other' }), forbiddenDetails({ ...cm, name: 'other' })), undefined);
    });

    it('impersonation: allowed to impersonate only bob, a user cannot become anyone else or join a group; as bob, bob\'s rights only', async () => {
      const ursula = (path: string, headers: Record<string, string>, method = 'GET') => t.req(method, path, undefined, { token: 'ursula-token', headers });
      const crb = (name: string, user: string) => ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }] });
      const rules = { 'impersonate-bob': [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] }], 'bob-reads-configmaps': [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] };
      for (const [name, r] of Object.entries(rules)) assert.equal((await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name }, rules: r })).status, 201);
      assert.equal((await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', crb('impersonate-bob', 'ursula'))).status, 201);
      assert.equal((await t.req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, { ...crb('bob-reads-configmaps', 'bob'), metadata: { name: 'bob-reads-configmaps' } })).status, 201);
      await eventually(async () => (await allowed(t, sar('bob', { namespaced: true, verb: 'get', pathGroup: '', resource: 'configmaps', subresource: '', name: '' }))) && (await allowed(t, { spec: { user: 'ursula', resourceAttributes: { verb: 'impersonate', resource: 'users', name: 'bob' } } })));

      const revBefore = await t.server.store.currentRevision();
      const x = `/api/v1/namespaces/${NS}/configmaps/x`;
      const forbidden = (what: string, got: HttpResult, text: string) => assert.equal(forbiddenProblem(got, text), undefined, what);
      // Refused impersonations: the text names what was asked for, whatever the request (a read or a write).
      const refused: [string, Record<string, string>, string][] = [
        ['another user', { 'impersonate-user': 'alice' }, 'users "alice" is forbidden: User "ursula" cannot impersonate resource "users" in API group "" at the cluster scope'],
        ['the admin group', { 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' }, 'groups "system:masters" is forbidden: User "ursula" cannot impersonate resource "groups" in API group "" at the cluster scope'],
        ['a service account', { 'impersonate-user': `system:serviceaccount:${NS}:default` }, `serviceaccounts "default" is forbidden: User "ursula" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "${NS}"`],
      ];
      for (const [what, headers, text] of refused) {
        forbidden(what, await ursula(x, headers), text);
        forbidden(`${what} (DELETE)`, await ursula(x, headers, 'DELETE'), text);
        forbidden(`${what} (nodes)`, await ursula('/api/v1/nodes', headers), text);
      }
      // Ursula's own rights: none but the impersonation.
      forbidden('ursula herself', await ursula(x, {}), `configmaps "x" is forbidden: User "ursula" cannot get resource "configmaps" in API group "" in the namespace "${NS}"`);
      // As bob: bob's rights (get configmaps in NS) and nothing else — neither ursula's nor the admin's.
      const bob = { 'impersonate-user': 'bob' };
      const asBob: [string, string, string, string][] = [
        ['another verb', 'GET', `/api/v1/namespaces/${NS}/configmaps`, `configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "${NS}"`],
        ['a write', 'DELETE', x, `configmaps "x" is forbidden: User "bob" cannot delete resource "configmaps" in API group "" in the namespace "${NS}"`],
        ['another resource', 'GET', `/api/v1/namespaces/${NS}/secrets/x`, `secrets "x" is forbidden: User "bob" cannot get resource "secrets" in API group "" in the namespace "${NS}"`],
        ['another namespace', 'GET', `/api/v1/namespaces/${OTHER_NS}/configmaps/x`, `configmaps "x" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "${OTHER_NS}"`],
        ['a cluster-scoped read', 'GET', '/api/v1/nodes', 'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope'],
      ];
      for (const [what, method, path, text] of asBob) forbidden(`as bob, ${what}`, await ursula(path, bob, method), text);
      assert.equal((await ursula(x, bob)).status, 404, 'as bob, bob\'s right: get configmaps (x does not exist)');
      assert.equal(await t.server.store.currentRevision(), revBefore, 'a refused request wrote to storage');
    });
  });
}
