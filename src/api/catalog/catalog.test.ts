// Catalogue tests: internal consistency, parity with the golden discovery
// transcripts of kube-apiserver v1.26.1 (core/v1, apps/v1, /apis), and
// coverage of every group-version and resource in the v1.26.1 and v1.28.0
// OpenAPI documents (v1.27 lies between them; each difference is listed with
// its reason). Reference files are read from ../shared at test time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  KNOWN_VERBS, allGroups, allResources, group, lookup, lookupKind, lookupSubresource, namedGroups, resolveEnablement,
  stabilityOf, storageVersionHash, toK8sGroup, toSvcGroup,
} from './index.js';
import type { ResourceInfo, SubresourceInfo } from './index.js';

// dist/src/api/catalog/ → /work/shared/reference/
const REFERENCE = new URL('../../../../../shared/reference/', import.meta.url);
const readJson = (rel: string): unknown => JSON.parse(readFileSync(fileURLToPath(new URL(rel, REFERENCE)), 'utf8'));

const key = (r: ResourceInfo) => `${r.group}/${r.version}/${r.resource}`;
const sorted = (xs: readonly string[]) => [...xs].sort();

/** Beta resources kube-apiserver 1.27 still turns on by default (legacyBetaEnabledByDefaultResources). */
const LEGACY_BETA_ON = new Set([
  'flowcontrol.apiserver.svc.io/v1beta2/flowschemas', 'flowcontrol.apiserver.svc.io/v1beta2/prioritylevelconfigurations',
  'flowcontrol.apiserver.svc.io/v1beta3/flowschemas', 'flowcontrol.apiserver.svc.io/v1beta3/prioritylevelconfigurations',
]);

test('every resource is unique, well-formed and uses known verbs', () => {
  const seen = new Set<string>();
  for (const r of allResources()) {
    assert.ok(!seen.has(key(r)), `duplicate ${key(r)}`);
    seen.add(key(r));
    assert.equal(r.listKind, `${r.kind}List`, key(r));
    assert.equal(r.singularName, r.kind.toLowerCase(), key(r));
    assert.match(r.resource, /^[a-z]+$/, key(r));
    assert.equal(r.stability, stabilityOf(r.version), key(r));
    assert.ok(!r.group.endsWith('k8s.io'), `${key(r)} must use the svc.io spelling`);
    assert.ok(r.verbs.length > 0, key(r));
    assert.deepEqual(r.verbs, sorted(r.verbs), `${key(r)} verbs sorted`);
    assert.equal(new Set(r.verbs).size, r.verbs.length, key(r));
    for (const v of r.verbs) assert.ok(KNOWN_VERBS.includes(v), `${key(r)}: unknown verb ${v}`);
    const subNames = r.subresources.map((s) => s.name);
    assert.equal(new Set(subNames).size, subNames.length, `${key(r)} subresources unique`);
    for (const s of r.subresources) {
      assert.deepEqual(s.verbs, sorted(s.verbs), `${key(r)}/${s.name} verbs sorted`);
      for (const v of s.verbs) assert.ok(KNOWN_VERBS.includes(v), `${key(r)}/${s.name}: unknown verb ${v}`);
      assert.equal(s.group === undefined, s.version === undefined, `${key(r)}/${s.name}: group and version together`);
      if (s.group !== undefined) assert.equal(s.group, toSvcGroup(s.group), `${key(r)}/${s.name}: svc.io spelling`);
      if (s.name === 'status') assert.deepEqual([s.kind, s.verbs], [r.kind, ['get', 'patch', 'update']], key(r));
      if (s.name === 'scale') assert.deepEqual([s.group, s.version, s.kind], ['autoscaling', 'v1', 'Scale'], key(r));
    }
    if (r.virtual) assert.ok(!r.verbs.includes('watch') && !r.verbs.includes('update'), `${key(r)} virtual`);
  }
});

test('short names and singular names each name one resource', () => {
  const owner = new Map<string, string>();
  for (const r of allResources()) {
    for (const n of [...r.shortNames, r.singularName]) {
      const prev = owner.get(n);
      assert.ok(prev === undefined || prev === r.resource, `${n} names both ${prev} and ${r.resource}`);
      owner.set(n, r.resource);
    }
  }
});

test('default enablement follows the 1.27 rules: GA on, alpha off, beta off except legacy resources', () => {
  for (const r of allResources()) {
    const expected = r.stability === 'ga' || (r.stability === 'beta' && LEGACY_BETA_ON.has(key(r)));
    assert.equal(r.enabledByDefault, expected, key(r));
  }
  const defaults = resolveEnablement();
  for (const r of allResources()) assert.equal(defaults.isResourceEnabled(r), r.enabledByDefault, key(r));
});

test('storage versions: one per resource, a served version; shared storage resolves', () => {
  const byGroupResource = new Map<string, ResourceInfo[]>();
  for (const r of allResources().filter((x) => !x.virtual)) {
    const k = `${r.group}/${r.resource}`;
    byGroupResource.set(k, [...(byGroupResource.get(k) ?? []), r]);
  }
  for (const [k, rs] of byGroupResource) {
    const storage = new Set(rs.map((r) => r.storageVersion));
    assert.equal(storage.size, 1, `${k}: one storage version`);
    const [sv] = storage;
    if (rs[0]?.sharesStorageWith) continue;
    assert.ok(rs.some((r) => r.version === sv), `${k}: storage version ${sv} is served`);
  }
  assert.equal(lookup('autoscaling', 'v1', 'horizontalpodautoscalers')?.storageVersion, 'v2');
  assert.equal(lookup('flowcontrol.apiserver.k8s.io', 'v1beta2', 'flowschemas')?.storageVersion, 'v1beta3');
  for (const r of allResources()) {
    const shared = r.sharesStorageWith;
    if (!shared) continue;
    const target = lookup(shared.group, r.storageVersion, shared.resource);
    assert.equal(target?.kind, shared.kind, `${key(r)} shares ${shared.group}/${shared.resource}`);
    assert.equal(storageVersionHash(r), storageVersionHash(target), key(r));
  }
});

test('deprecations name a served replacement', () => {
  for (const r of allResources()) {
    const rep = r.deprecated?.replacement;
    if (rep) assert.ok(lookupKind(rep.group, rep.version, rep.kind), `${key(r)} → ${rep.group}/${rep.version} ${rep.kind}`);
  }
});

test('spellings: lookups accept svc.io and k8s.io; conversions round-trip', () => {
  assert.equal(toSvcGroup('rbac.authorization.k8s.io'), 'rbac.authorization.svc.io');
  assert.equal(toK8sGroup('flowcontrol.apiserver.svc.io'), 'flowcontrol.apiserver.k8s.io');
  assert.equal(toSvcGroup('apps'), 'apps');
  assert.equal(toSvcGroup('cluster.x-k8s.io'), 'cluster.x-k8s.io');
  for (const r of allResources()) {
    assert.equal(toSvcGroup(toK8sGroup(r.group)), r.group);
    assert.equal(lookup(toK8sGroup(r.group), r.version, r.resource), r);
    assert.equal(lookup(r.group, r.version, r.resource), r);
    assert.equal(lookupKind(toK8sGroup(r.group), r.version, r.kind), r);
  }
  assert.equal(lookupSubresource('', 'v1', 'pods', 'eviction')?.group, 'policy');
  assert.equal(group('networking.k8s.io')?.name, 'networking.svc.io');
  assert.equal(lookup('extensions', 'v1beta1', 'ingresses'), undefined);
});

test('group and version order follow the APIService priorities', () => {
  const named = namedGroups();
  assert.equal(named[0]?.name, 'apiregistration.svc.io');
  for (let i = 2; i < named.length; i++) {
    const a = named[i - 1], b = named[i];
    assert.ok(a && b && a.groupPriorityMinimum !== undefined && b.groupPriorityMinimum !== undefined);
    assert.ok(a.groupPriorityMinimum > b.groupPriorityMinimum || (a.groupPriorityMinimum === b.groupPriorityMinimum && a.name < b.name), `${a.name} before ${b.name}`);
  }
  for (const g of allGroups()) {
    for (let i = 1; i < g.versions.length; i++) {
      assert.ok((g.versions[i - 1]?.versionPriority ?? 0) > (g.versions[i]?.versionPriority ?? 0), `${g.name} versions`);
    }
    assert.equal(g.preferredVersion, (g.versions.find((v) => v.enabledByDefault) ?? g.versions[0])?.version);
  }
});

// ---- golden discovery transcripts (kube-apiserver v1.26.1) ----

interface APIResource {
  name: string; singularName: string; namespaced: boolean; kind: string; verbs: string[];
  group?: string; version?: string; shortNames?: string[]; categories?: string[]; storageVersionHash?: string;
}
interface Step { name: string; response: { body: unknown } }
const steps = (file: string): Step[] => (readJson(`transcripts/golden/${file}`) as { steps: Step[] }).steps;
const body = (file: string, name: string): unknown => steps(file).find((s) => s.name === name)?.response.body;

function compareResourceList(groupVersion: string, golden: APIResource[]): void {
  const [g, v] = groupVersion.includes('/') ? groupVersion.split('/') as [string, string] : ['', groupVersion];
  const ours = allResources().filter((r) => r.group === toSvcGroup(g) && r.version === v);
  const names = ours.flatMap((r) => [r.resource, ...r.subresources.map((s) => `${r.resource}/${s.name}`)]);
  assert.deepEqual(sorted(names), sorted(golden.map((x) => x.name)), `${groupVersion}: resource names`);
  for (const x of golden) {
    const [res = '', sub] = x.name.split('/');
    const r = lookup(g, v, res);
    assert.ok(r, x.name);
    assert.equal(r.namespaced, x.namespaced, `${x.name} namespaced`);
    if (sub === undefined) {
      assert.deepEqual([...r.verbs], sorted(x.verbs), `${x.name} verbs`);
      assert.equal(r.kind, x.kind, `${x.name} kind`);
      assert.deepEqual([...r.shortNames], x.shortNames ?? [], `${x.name} shortNames`);
      assert.deepEqual([...r.categories], x.categories ?? [], `${x.name} categories`);
      if (x.singularName !== '') assert.equal(r.singularName, x.singularName, `${x.name} singularName`);
      assert.equal(storageVersionHash(r, 'k8s.io'), x.storageVersionHash, `${x.name} storageVersionHash`);
    } else {
      const s = lookupSubresource(g, v, res, sub);
      assert.ok(s, x.name);
      assert.deepEqual([...s.verbs], sorted(x.verbs), `${x.name} verbs`);
      assert.equal(s.kind, x.kind, `${x.name} kind`);
      assert.equal(s.group, x.group === undefined ? undefined : toSvcGroup(x.group), `${x.name} group`);
      assert.equal(s.version, x.version, `${x.name} version`);
    }
  }
}

test('core/v1 matches the golden /api/v1 discovery', () => {
  const doc = body('discovery-01-core-and-version.json', 'api-v1') as { groupVersion: string; resources: APIResource[] };
  assert.equal(doc.groupVersion, 'v1');
  compareResourceList('v1', doc.resources);
});

test('apps/v1 matches the golden /apis/apps/v1 discovery', () => {
  const doc = body('discovery-03-groups.json', 'apps-v1') as { groupVersion: string; resources: APIResource[] };
  assert.equal(doc.groupVersion, 'apps/v1');
  compareResourceList('apps/v1', doc.resources);
  const apps = body('discovery-03-groups.json', 'apps') as { preferredVersion: { version: string } };
  assert.equal(group('apps')?.preferredVersion, apps.preferredVersion.version);
});

/** Versions the v1.26.1 server listed in /apis that 1.27 no longer serves. */
const GOLDEN_APIS_REMOVED: Record<string, string> = {
  'storage.k8s.io/v1beta1': 'CSIStorageCapacity v1beta1 is no longer served from 1.27',
};

test('/apis: default groups, versions, preferred versions and order match the golden list', () => {
  const list = body('discovery-03-groups.json', 'apis') as { groups: { name: string; versions: { groupVersion: string; version: string }[]; preferredVersion: { version: string } }[] };
  const defaults = resolveEnablement();
  const ours = defaults.enabledGroups().filter((g) => g.name !== '');
  assert.deepEqual(ours.map((g) => g.k8sName), list.groups.map((g) => g.name));
  for (const g of list.groups) {
    const versions = g.versions.filter((v) => !(v.groupVersion in GOLDEN_APIS_REMOVED)).map((v) => v.version);
    assert.deepEqual(defaults.enabledVersions(g.name).map((v) => v.version), versions, g.name);
    assert.equal(defaults.preferredVersion(g.name), g.preferredVersion.version, g.name);
  }
});

// ---- OpenAPI v3 documents of v1.26.1 and v1.28.0 ----

type Release = 'v1.26.1' | 'v1.28.0';

/** How v1.27 differs from each neighbouring release: group-versions or resources (or `resource/subresource`) present on one side only. */
const OPENAPI_DIFFERENCES: Record<Release, Record<string, string>> = {
  'v1.26.1': {
    'resource.k8s.io/v1alpha1': 'replaced by resource.k8s.io/v1alpha2 in 1.27 (PodScheduling renamed PodSchedulingContext)',
    'storage.k8s.io/v1beta1': 'CSIStorageCapacity v1beta1 is no longer served from 1.27',
    'networking.k8s.io/v1alpha1/ipaddresses': 'IPAddress is new (alpha) in 1.27',
    'admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicies/status': 'ValidatingAdmissionPolicy status is new in 1.27',
  },
  'v1.28.0': {
    'admissionregistration.k8s.io/v1beta1': 'ValidatingAdmissionPolicy beta is new in 1.28',
    'authentication.k8s.io/v1/selfsubjectreviews': 'SelfSubjectReview is GA from 1.28',
    'networking.k8s.io/v1/networkpolicies/status': 'NetworkPolicy status was removed in 1.28',
  },
};

interface OpenApiResource { namespaced: boolean; kind?: string; verbs: Set<string>; subs: Map<string, { gvk?: string; verbs: Set<string> }> }
interface Operation { 'x-kubernetes-action'?: string; 'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string } }

const ACTION_VERB: Record<string, string> = { post: 'create', put: 'update', watchlist: 'watch' };
const CONNECT_VERB: Record<string, string> = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };

/** group-version (k8s.io spelling) → resources, from the document's paths and operations. */
function readOpenApi(release: Release): Map<string, Map<string, OpenApiResource>> {
  const out = new Map<string, Map<string, OpenApiResource>>();
  for (const file of readdirSync(fileURLToPath(new URL(`openapi/${release}/`, REFERENCE)))) {
    const m = /^(?:api__(v1)|apis__(.+)__(v\w+))_openapi\.json$/.exec(file);
    if (!m) continue;
    const gv = m[1] ?? `${m[2]}/${m[3]}`;
    const resources = new Map<string, OpenApiResource>();
    out.set(gv, resources);
    const doc = readJson(`openapi/${release}/${file}`) as { paths: Record<string, Record<string, Operation>> };
    for (const [path, ops] of Object.entries(doc.paths)) {
      let segs = path.split('/').slice(m[1] ? 3 : 4);
      const watchPath = segs[0] === 'watch';
      if (watchPath) segs = segs.slice(1);
      const namespaced = segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length > 2;
      if (namespaced) segs = segs.slice(2);
      const [res = '', , ...subParts] = segs;
      if (res === '') continue; // the discovery document of the group-version
      const sub = subParts[0];
      const entry: OpenApiResource = resources.get(res) ?? { namespaced: false, verbs: new Set(), subs: new Map() };
      resources.set(res, entry);
      entry.namespaced ||= namespaced;
      for (const [method, op] of Object.entries(ops)) {
        const action = op['x-kubernetes-action'];
        if (!action) continue;
        const verb = action === 'connect' ? CONNECT_VERB[method] : watchPath ? 'watch' : (ACTION_VERB[action] ?? action);
        if (!verb) continue;
        const gvk = op['x-kubernetes-group-version-kind'];
        if (sub === undefined) {
          entry.verbs.add(verb);
          if (gvk) entry.kind = gvk.kind;
        } else {
          const s = entry.subs.get(sub) ?? { verbs: new Set<string>() };
          entry.subs.set(sub, s);
          s.verbs.add(verb);
          if (gvk) s.gvk = `${gvk.group}/${gvk.version}/${gvk.kind}`;
        }
      }
    }
  }
  return out;
}

for (const release of ['v1.26.1', 'v1.28.0'] as const) {
  test(`every group-version and resource of the ${release} OpenAPI is catalogued or a listed difference`, () => {
    const diffs = OPENAPI_DIFFERENCES[release];
    const used = new Set<string>();
    const differs = (k: string) => { if (k in diffs) { used.add(k); return true; } return false; };
    for (const [gv, resources] of readOpenApi(release)) {
      if (differs(gv)) continue;
      const [g, v] = gv.includes('/') ? gv.split('/') as [string, string] : ['', gv];
      const ours = allResources().filter((r) => r.group === toSvcGroup(g) && r.version === v);
      assert.ok(ours.length > 0, `${release}: ${gv} is not catalogued`);
      for (const r of ours) {
        if (!resources.has(r.resource)) assert.ok(differs(`${gv}/${r.resource}`), `${release}: ${gv}/${r.resource} is not in the document`);
      }
      for (const [name, x] of resources) {
        const at = `${release}: ${gv}/${name}`;
        if (differs(`${gv}/${name}`)) continue;
        const r = lookup(g, v, name);
        assert.ok(r, `${at} is not catalogued`);
        assert.equal(r.namespaced, x.namespaced, `${at} namespaced`);
        assert.equal(r.kind, x.kind, `${at} kind`);
        assert.deepEqual([...r.verbs], sorted([...x.verbs]), `${at} verbs`);
        const subNames = new Set([...r.subresources.map((s) => s.name), ...x.subs.keys()]);
        for (const sn of subNames) {
          const s: SubresourceInfo | undefined = r.subresources.find((y) => y.name === sn);
          const xs: { gvk?: string; verbs: Set<string> } | undefined = x.subs.get(sn);
          if (!s || !xs) { assert.ok(differs(`${gv}/${name}/${sn}`), `${at}/${sn} only on one side`); continue; }
          assert.deepEqual([...s.verbs], sorted([...xs.verbs]), `${at}/${sn} verbs`);
          const gvk: string = `${toK8sGroup(s.group ?? r.group)}/${s.version ?? r.version}/${s.kind}`;
          assert.equal(gvk, xs.gvk, `${at}/${sn} kind`);
        }
      }
    }
    assert.deepEqual(Object.keys(diffs).filter((k) => !used.has(k)), [], `${release}: stale differences`);
  });
}

test('every catalogued group-version appears in v1.26.1 or v1.28.0', () => {
  const known = new Set([...readOpenApi('v1.26.1').keys(), ...readOpenApi('v1.28.0').keys()]);
  for (const g of allGroups()) {
    for (const v of g.versions) {
      const gv = g.name === '' ? v.version : `${g.k8sName}/${v.version}`;
      assert.ok(known.has(gv), `${gv} is in neither release`);
    }
  }
});
