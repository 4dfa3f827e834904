// The published documents' shape: what kubectl looks up in them (explain's GVK
// search, field-validation detection, the v2 model parser's rules), both
// group spellings, references, and the operations against Kubernetes' own
// documents in ../shared/reference/openapi.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { documentName, REFERENCE_DIR } from '../api/parity/reference.js';
import { kubernetesGroup } from '../endpoints/requestinfo.js';
import { servedResources } from '../server/served.js';
import { OpenAPIService } from './service.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const resources = servedResources();
const service = new OpenAPIService(resources);
const v2: Doc = JSON.parse(service.v2JsonBytes().body.toString());
const { index, byPath } = service.v3Docs();
const v3 = (key: string): Doc => JSON.parse(byPath.get(key)!.body.toString());
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
/** The OpenAPI schema keywords a published schema may use (besides x-kubernetes-* markers). */
const KEYWORDS = new Set([
  '$ref', 'allOf', 'anyOf', 'type', 'format', 'description', 'enum', 'nullable', 'default', 'minimum', 'exclusiveMinimum', 'maximum',
  'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'properties',
  'additionalProperties', 'items', 'required',
]);

function* operations(doc: Doc): Generator<[path: string, method: string, op: Doc, item: Doc]> {
  for (const [path, item] of Object.entries<Doc>(doc.paths)) {
    for (const m of METHODS) if (item[m]) yield [path, m, item[m], item];
  }
}

/** Every schema object under a component (properties, items, additionalProperties, allOf, anyOf). */
function* schemas(s: Doc): Generator<Doc> {
  yield s;
  for (const p of Object.values<Doc>(s.properties ?? {})) yield* schemas(p);
  if (s.items) yield* schemas(s.items);
  if (typeof s.additionalProperties === 'object') yield* schemas(s.additionalProperties);
  for (const x of [...(s.allOf ?? []), ...(s.anyOf ?? [])]) yield* schemas(x);
}

const keyOf = (group: string, version: string) => (group === '' ? `api/${version}` : `apis/${group}/${version}`);

describe('/openapi/v3 index', () => {
  const paths = JSON.parse(index.body.toString()).paths as Record<string, { serverRelativeURL: string }>;

  it('names every served group-version, in both spellings where the group has a domain', () => {
    const want = new Set<string>();
    for (const r of resources) for (const g of [r.group, kubernetesGroup(r.group)]) want.add(keyOf(g, r.version));
    assert.deepEqual(Object.keys(paths), [...want].sort());
    for (const k of ['api/v1', 'apis/apps/v1', 'apis/networking.k8s.io/v1', 'apis/networking.svc.io/v1', 'apis/autoscaling/v2']) assert.ok(paths[k], k);
  });

  it('points at each document with the SHA-512 of its bytes as the hash', () => {
    for (const [key, { serverRelativeURL }] of Object.entries(paths)) {
      const hash = createHash('sha512').update(byPath.get(key)!.body).digest('hex').toUpperCase();
      assert.equal(serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
    }
  });
});

describe('published documents', () => {
  const all: [name: string, doc: Doc, schemasOf: (d: Doc) => Record<string, Doc>, prefix: string][] = [
    ['v2', v2, (d) => d.definitions, '#/definitions/'],
    ...[...byPath.keys()].map((k): [string, Doc, (d: Doc) => Record<string, Doc>, string] => [k, v3(k), (d) => d.components.schemas, '#/components/schemas/']),
  ];

  it('every reference resolves within its document, and schemas use only OpenAPI keywords (never our own slots)', () => {
    for (const [name, doc, schemasOf, prefix] of all) {
      const defs = schemasOf(doc);
      const refs: string[] = [];
      for (const c of Object.values(defs)) {
        for (const s of schemas(c)) {
          if (s.$ref) refs.push(s.$ref);
          for (const k of Object.keys(s)) assert.ok(KEYWORDS.has(k) || k.startsWith('x-kubernetes-'), `${name}: a schema with ${k}`);
        }
      }
      for (const [, , op] of operations(doc)) {
        for (const r of JSON.stringify(op).match(/"\$ref":"[^"]+"/g) ?? []) refs.push(JSON.parse(`{${r}}`).$ref);
      }
      for (const r of refs) {
        assert.ok(r.startsWith(prefix), `${name}: ${r}`);
        assert.ok(defs[r.slice(prefix.length)], `${name}: dangling ${r}`);
      }
    }
  });

  it('every PATCH of a kind takes fieldValidation (how kubectl detects server-side validation), POST and PUT too', () => {
    for (const [name, doc] of all) {
      for (const [path, method, op] of operations(doc)) {
        if (!['patch', 'post', 'put'].includes(method) || op['x-kubernetes-action'] === 'connect') continue;
        const names = (op.parameters ?? []).filter((p: Doc) => p.in === 'query').map((p: Doc) => p.name);
        assert.ok(names.includes('fieldValidation'), `${name}: ${method} ${path}`);
        assert.ok(names.includes('dryRun') && names.includes('fieldManager'), `${name}: ${method} ${path}`);
        if (method === 'patch') assert.ok(names.includes('force'), `${name}: ${method} ${path}`);
      }
    }
  });

  it('kubectl explain finds every resource: a path of it names the GVK and a component lists that GVK (v3, both spellings)', () => {
    for (const r of resources) {
      for (const g of new Set([r.group, kubernetesGroup(r.group)])) {
        const doc = v3(keyOf(g, r.version));
        const prefix = g === '' ? '/api' : `/apis/${g}`;
        const candidates = [`${prefix}/${r.version}/${r.resource}`, `${prefix}/${r.version}/${r.resource}/{name}`,
          `${prefix}/${r.version}/namespaces/{namespace}/${r.resource}`, `${prefix}/${r.version}/namespaces/{namespace}/${r.resource}/{name}`];
        let gvk: Doc;
        for (const p of candidates) for (const m of ['get', 'post', 'put', 'patch', 'delete']) gvk ??= doc.paths[p]?.[m]?.['x-kubernetes-group-version-kind'];
        assert.deepEqual(gvk, { group: g, kind: r.kind, version: r.version }, `${g}/${r.version} ${r.resource}`);
        const found = Object.values<Doc>(doc.components.schemas).filter((c) => (c['x-kubernetes-group-version-kind'] ?? []).some((x: Doc) => JSON.stringify(x) === JSON.stringify(gvk)));
        assert.equal(found.length, 1, `${g}/${r.version} ${r.kind}: components listing the GVK`);
        assert.ok(found[0].description, `${r.kind} has a description`);
      }
    }
  });

  it('a type lists its GVK in both spellings, and each document spells its paths and operations its own way', () => {
    const k8s = v3('apis/networking.k8s.io/v1');
    const svc = v3('apis/networking.svc.io/v1');
    const both = [{ group: 'networking.svc.io', kind: 'Ingress', version: 'v1' }, { group: 'networking.k8s.io', kind: 'Ingress', version: 'v1' }];
    assert.deepEqual(k8s.components.schemas['io.k8s.api.networking.v1.Ingress']['x-kubernetes-group-version-kind'], both);
    assert.deepEqual(v2.definitions['io.k8s.api.networking.v1.Ingress']['x-kubernetes-group-version-kind'], both);
    assert.ok(Object.keys(k8s.paths).every((p) => p.startsWith('/apis/networking.k8s.io/v1/')));
    assert.ok(Object.keys(svc.paths).every((p) => p.startsWith('/apis/networking.svc.io/v1/')));
    assert.equal(k8s.paths['/apis/networking.k8s.io/v1/namespaces/{namespace}/ingresses/{name}'].patch['x-kubernetes-group-version-kind'].group, 'networking.k8s.io');
    assert.ok(v2.paths['/apis/networking.svc.io/v1/ingresses'] && v2.paths['/apis/networking.k8s.io/v1/ingresses'], 'v2 has both');
  });

  it('a use of a shared type keeps its own description and patch strategy (v3 allOf, v2 $ref)', () => {
    const v3Strategy = v3('apis/apps/v1').components.schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties.strategy;
    assert.deepEqual(v3Strategy.allOf, [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy' }]);
    assert.equal(v3Strategy['x-kubernetes-patch-strategy'], 'retainKeys');
    assert.ok(v3Strategy.description);
    const v2Strategy = v2.definitions['io.k8s.api.apps.v1.DeploymentSpec'].properties.strategy;
    assert.equal(v2Strategy.$ref, '#/definitions/io.k8s.api.apps.v1.DeploymentStrategy');
    assert.equal(v2Strategy['x-kubernetes-patch-strategy'], 'retainKeys');
    assert.equal(v2Strategy.description, v3Strategy.description);
    const containers = v2.definitions['io.k8s.api.core.v1.PodSpec'].properties.containers;
    assert.deepEqual([containers['x-kubernetes-patch-strategy'], containers['x-kubernetes-patch-merge-key']], ['merge', 'name']);
    assert.ok(v2.definitions['io.k8s.api.core.v1.Pod'].properties.metadata.description, 'a use without a description shows the type\'s');
  });

  it('int-or-string: anyOf in v3, a string with its format in v2', () => {
    const id = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
    assert.deepEqual(v3('apis/apps/v1').components.schemas[id].anyOf, [{ type: 'integer' }, { type: 'string' }]);
    assert.deepEqual([v2.definitions[id].type, v2.definitions[id].format, v2.definitions[id].anyOf], ['string', 'int-or-string', undefined]);
  });

  it('List kinds: items of the kind, ListMeta metadata, their own GVK', () => {
    const list = v3('api/v1').components.schemas['io.k8s.api.core.v1.PodList'];
    assert.deepEqual(list.properties.items.items, { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Pod' }], description: list.properties.items.items.description });
    assert.deepEqual(list.properties.metadata.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' }]);
    assert.deepEqual(list.required, ['items']);
    assert.deepEqual(list['x-kubernetes-group-version-kind'], [{ group: '', kind: 'PodList', version: 'v1' }]);
    assert.equal(v3('api/v1').paths['/api/v1/namespaces/{namespace}/pods'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/io.k8s.api.core.v1.PodList');
  });

  it('v2 definitions pass the rules of kubectl\'s model parser (kube-openapi pkg/util/proto)', () => {
    const problems: string[] = [];
    const check = (s: Doc, where: string) => {
      if (s.$ref !== undefined) {
        if (s.type !== undefined || s.properties !== undefined) problems.push(`${where}: a reference with a type or properties`);
        if (!s.$ref.startsWith('#/definitions/') || !v2.definitions[s.$ref.slice(14)]) problems.push(`${where}: bad reference ${s.$ref}`);
        return;
      }
      if (s.allOf || s.anyOf || s.oneOf || s.nullable !== undefined) problems.push(`${where}: v3-only keyword`);
      if (Array.isArray(s.type)) problems.push(`${where}: several types`);
      if (s.type === 'array' && (s.items === undefined || Array.isArray(s.items))) problems.push(`${where}: an array needs exactly one items schema`);
      if (s.type !== undefined && !['object', 'array', 'string', 'integer', 'number', 'boolean'].includes(s.type)) problems.push(`${where}: unknown type ${s.type}`);
      if (s.type !== undefined && s.type !== 'object' && s.properties) problems.push(`${where}: properties on a ${s.type}`);
      for (const [k, p] of Object.entries<Doc>(s.properties ?? {})) check(p, `${where}.${k}`);
      if (s.items) check(s.items, `${where}[]`);
      if (typeof s.additionalProperties === 'object') check(s.additionalProperties, `${where}{}`);
    };
    for (const [id, s] of Object.entries<Doc>(v2.definitions)) check(s, id);
    assert.deepEqual(problems, []);
  });

  it('operation ids are unique in v2; x-kubernetes-action is one of Kubernetes\' actions', () => {
    const ids = new Set<string>();
    const actions = new Set(['get', 'list', 'watch', 'watchlist', 'post', 'put', 'patch', 'delete', 'deletecollection', 'connect', undefined]);
    for (const [path, method, op] of operations(v2)) {
      assert.ok(!ids.has(op.operationId), `${op.operationId} twice`);
      ids.add(op.operationId);
      assert.ok(actions.has(op['x-kubernetes-action']), `${method} ${path}`);
    }
  });

  it('a kind without a schema yet (TokenRequest) still gets a component that keeps its fields', () => {
    const post = v3('api/v1').paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token'].post;
    assert.deepEqual(post['x-kubernetes-group-version-kind'], { group: 'authentication.k8s.io', kind: 'TokenRequest', version: 'v1' });
    const id = post.requestBody.content['*/*'].schema.$ref.split('/').pop();
    assert.ok(v3('api/v1').components.schemas[id]['x-kubernetes-group-version-kind'].some((g: Doc) => g.group === 'authentication.k8s.io'));
  });
});

// Kubernetes' own documents: the same operations (method, path, action, GVK) and parameters.
const references = REFERENCE_DIR === undefined ? 'no ../shared/reference beside the repository' : false;
if (references && process.env.CI === 'true') throw new Error(`${references} (required under CI=true)`);

describe('operations against Kubernetes\' documents', { skip: references }, () => {
  /** Intended differences, `<release> <missing|extra> <METHOD path>`, each with its reason. */
  const intended: Record<string, string> = {
    'v1.28.0 missing POST /apis/authentication.k8s.io/v1/selfsubjectreviews': 'SelfSubjectReview reached authentication/v1 in 1.28; in 1.27 it is v1beta1',
    'v1.28.0 extra GET /apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies/{name}/status': 'the catalogue serves networkpolicies/status as 1.26 did; 1.28 dropped it',
    'v1.28.0 extra PUT /apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies/{name}/status': 'as above',
    'v1.28.0 extra PATCH /apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies/{name}/status': 'as above',
  };
  const ops = (doc: Doc) => {
    const out = new Map<string, string>();
    for (const [path, method, op, item] of operations(doc)) {
      const g = op['x-kubernetes-group-version-kind'];
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Doc) => p.name).sort().join(',');
      out.set(`${method.toUpperCase()} ${path}`, `${op['x-kubernetes-action']} ${g ? `${g.group}/${g.version}/${g.kind}` : '-'} ${params}`);
    }
    return out;
  };

  for (const release of ['v1.26.1', 'v1.28.0']) {
    it(`${release}: every document there has the same operations here, parameters aside from sendInitialEvents (new in 1.27, absent in 1.26)`, () => {
      const found: string[] = [];
      for (const key of byPath.keys()) {
        if (key.includes('.svc.io')) continue;
        const [, group, version] = key.startsWith('api/') ? [undefined, '', key.slice(4)] : key.split('/');
        const file = join(REFERENCE_DIR!, 'openapi', release, documentName(group!, version!));
        if (!existsSync(file)) continue;
        const theirs = ops(JSON.parse(readFileSync(file, 'utf8')));
        const ours = ops(v3(key));
        for (const [k, v] of theirs) {
          if (!ours.has(k)) found.push(`${release} missing ${k}`);
          else if (ours.get(k)!.replace(/,?sendInitialEvents/, '') !== v.replace(/,?sendInitialEvents/, '')) found.push(`${release} differs ${k}: ours ${ours.get(k)}, theirs ${v}`);
        }
        for (const k of ours.keys()) if (!theirs.has(k)) found.push(`${release} extra ${k}`);
      }
      const expected = Object.keys(intended).filter((d) => d.startsWith(release));
      assert.deepEqual(found.sort(), expected.sort());
    });
  }
});
