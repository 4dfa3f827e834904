// Custom resources in the served documents (OpenAPIService.setCustomResources):
// what /openapi/v2 (JSON and protobuf) and /openapi/v3 publish of a CRD, that
// the built-in documents are kept as they are, and that ETags follow changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { widgetCRD, widgetVersion } from '../apiextensions/openapi/fixtures.js';
import type { CustomResourceDefinition } from '../apiextensions/types.js';
import type { RequestContext } from '../server/context.js';
import { servedResources } from '../server/served.js';
import { fieldsOf, readFields, stringOf } from './protobuf.js';
import { OpenAPIService } from './service.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const resources = servedResources();
const v2 = (s: OpenAPIService): Doc => JSON.parse(s.v2JsonBytes().body.toString());
const v3 = (s: OpenAPIService, key: string): Doc => JSON.parse(s.v3Docs().byPath.get(key)!.body.toString());
const KEY = 'apis/crd01.example.com/v1';
const WIDGET = 'com.example.crd01.v1.Widget';
const P = '/apis/crd01.example.com/v1';

function served(crds: CustomResourceDefinition[]): OpenAPIService {
  const s = new OpenAPIService(resources);
  s.setCustomResources(crds);
  return s;
}

/** The named entries of every occurrence of a repeated map message (protobuf merges repeated occurrences). */
function namedEntries(bytes: Uint8Array, docField: number, entryField: number): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const f of fieldsOf(readFields(bytes), docField)) {
    for (const e of fieldsOf(readFields(f.value as Uint8Array), entryField)) {
      const fields = readFields(e.value as Uint8Array);
      out.set(stringOf(fieldsOf(fields, 1)[0])!, fieldsOf(fields, 2)[0]!.value as Uint8Array);
    }
  }
  return out;
}

describe('setCustomResources: /openapi/v2', () => {
  const builtIn = new OpenAPIService(resources);
  const builtInJson = builtIn.v2JsonBytes();
  const s = served([widgetCRD()]);
  const doc = v2(s);

  it('the kind and its List are definitions with their group-version-kind', () => {
    assert.deepEqual(doc.definitions[WIDGET]['x-kubernetes-group-version-kind'], [{ group: 'crd01.example.com', kind: 'Widget', version: 'v1' }]);
    assert.deepEqual(doc.definitions[`${WIDGET}List`]['x-kubernetes-group-version-kind'], [{ group: 'crd01.example.com', kind: 'WidgetList', version: 'v1' }]);
    assert.equal(doc.definitions[WIDGET].properties.metadata.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    assert.deepEqual(doc.definitions[WIDGET].properties.spec.properties.color, { enum: ['red', 'blue'] }, 'nullable: no type in v2');
    assert.deepEqual(doc.definitions[WIDGET].properties.spec.required, ['size']);
  });

  it('the paths of each verb and subresource join the built-in ones', () => {
    for (const path of [`${P}/widgets`, `${P}/namespaces/{namespace}/widgets`, `${P}/namespaces/{namespace}/widgets/{name}`,
      `${P}/namespaces/{namespace}/widgets/{name}/status`, `${P}/namespaces/{namespace}/widgets/{name}/scale`]) {
      assert.ok(doc.paths[path], path);
    }
    assert.equal(doc.paths[`${P}/namespaces/{namespace}/widgets/{name}/scale`].get.responses['200'].schema.$ref, '#/definitions/io.k8s.api.autoscaling.v1.Scale');
    for (const path of Object.keys(v2(builtIn).paths)) assert.ok(doc.paths[path], path);
    assert.equal(Object.keys(doc.definitions).length, Object.keys(v2(builtIn).definitions).length + 2);
  });

  it('the protobuf form holds the same paths and definitions (built-in bytes, then the additions)', () => {
    const bytes = s.v2ProtoBytes().body;
    assert.ok(bytes.subarray(0, builtIn.v2ProtoBytes().body.length).equals(builtIn.v2ProtoBytes().body));
    const paths = namedEntries(bytes, 8, 2);
    const defs = namedEntries(bytes, 9, 1);
    assert.equal(paths.size, Object.keys(doc.paths).length);
    assert.equal(defs.size, Object.keys(doc.definitions).length);
    // Schema.vendor_extension (31): NamedAny { name 1, Any { yaml 2 } }
    const ext = fieldsOf(readFields(defs.get(WIDGET)!), 31).map((f) => readFields(f.value as Uint8Array));
    const gvk = ext.find((e) => stringOf(fieldsOf(e, 1)[0]) === 'x-kubernetes-group-version-kind')!;
    assert.deepEqual(JSON.parse(stringOf(fieldsOf(readFields(fieldsOf(gvk, 2)[0]!.value as Uint8Array), 2)[0])!), [{ group: 'crd01.example.com', kind: 'Widget', version: 'v1' }]);
  });

  it('not Established: not published, and the document is the built-in one, byte for byte', () => {
    const t = served([widgetCRD({ established: false })]);
    assert.equal(t.v2JsonBytes().hash, builtInJson.hash);
    assert.equal(t.v2ProtoBytes().hash, builtIn.v2ProtoBytes().hash);
    assert.equal(t.v3Docs().byPath.has(KEY), false);
  });

  it('versions not served are not published; each served one is', () => {
    const t = served([widgetCRD({ versions: [widgetVersion('v1'), widgetVersion('v2', { storage: false }), widgetVersion('v0', { served: false, storage: false })] })]);
    const d = v2(t);
    assert.ok(d.definitions['com.example.crd01.v2.Widget']);
    assert.ok(d.paths['/apis/crd01.example.com/v2/widgets']);
    assert.equal(d.definitions['com.example.crd01.v0.Widget'], undefined);
    assert.equal(d.paths['/apis/crd01.example.com/v0/widgets'], undefined);
    assert.deepEqual([...t.v3Docs().byPath.keys()].filter((k) => k.includes('crd01')).sort(), ['apis/crd01.example.com/v1', 'apis/crd01.example.com/v2']);
  });

  it('a group in the svc.io domain is published in both spellings, one definition naming both', () => {
    const d = v2(served([widgetCRD({ group: 'widgets.svc.io' })]));
    assert.ok(d.paths['/apis/widgets.svc.io/v1/namespaces/{namespace}/widgets']);
    assert.ok(d.paths['/apis/widgets.k8s.io/v1/namespaces/{namespace}/widgets']);
    assert.deepEqual(d.definitions['io.svc.widgets.v1.Widget']['x-kubernetes-group-version-kind'], [
      { group: 'widgets.svc.io', kind: 'Widget', version: 'v1' }, { group: 'widgets.k8s.io', kind: 'Widget', version: 'v1' },
    ]);
    const ids = new Set<string>();
    for (const item of Object.values<Doc>(d.paths)) for (const m of ['get', 'put', 'post', 'delete', 'patch']) if (item[m]) ids.add(item[m].operationId);
    assert.ok(ids.has('listWidgetsSvcV1NamespacedWidget') && ids.has('listWidgetsV1NamespacedWidget'));
  });
});

describe('setCustomResources: /openapi/v3', () => {
  const s = served([widgetCRD()]);

  it('the index names the group-version with its hash; its document has the paths and components it needs', () => {
    const index = JSON.parse(s.v3Docs().index.body.toString());
    assert.equal(index.paths[KEY].serverRelativeURL, `/openapi/v3/${KEY}?hash=${s.v3Docs().byPath.get(KEY)!.hash}`);
    const doc = v3(s, KEY);
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      `${P}/namespaces/{namespace}/widgets`, `${P}/namespaces/{namespace}/widgets/{name}`, `${P}/namespaces/{namespace}/widgets/{name}/scale`,
      `${P}/namespaces/{namespace}/widgets/{name}/status`, `${P}/widgets`,
    ]);
    for (const id of [WIDGET, `${WIDGET}List`, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Status', 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions', 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
      'io.k8s.api.autoscaling.v1.Scale']) {
      assert.ok(doc.components.schemas[id], id);
    }
    assert.deepEqual(doc.components.schemas[WIDGET].properties.spec.properties.color, { type: 'string', enum: ['red', 'blue'], nullable: true });
    const patch = doc.paths[`${P}/namespaces/{namespace}/widgets/{name}`].patch;
    assert.deepEqual(Object.keys(patch.requestBody.content), ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    // kubectl 1.27 looks for fieldValidation on the kind's PATCH to leave field validation to the server.
    assert.ok(patch.parameters.some((p: Doc) => p.name === 'fieldValidation' && p.in === 'query'));
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'crd01.example.com', kind: 'Widget', version: 'v1' });
  });

  it('serves the document over HTTP with its ETag', () => {
    const a = call(s, `/openapi/v3/${KEY}`);
    assert.equal(a.status, 200);
    assert.equal(a.headers.etag, `"${s.v3Docs().byPath.get(KEY)!.hash}"`);
    assert.equal(JSON.parse(a.body.toString()).paths[`${P}/widgets`].get.operationId, 'listCrd01ExampleComV1WidgetForAllNamespaces');
  });
});

describe('setCustomResources: changes', () => {
  it('the same CRDs again: nothing is rebuilt (the same bytes objects)', () => {
    const s = served([widgetCRD()]);
    const json = s.v2JsonBytes();
    const proto = s.v2ProtoBytes();
    const docs = s.v3Docs();
    s.setCustomResources([widgetCRD()]);
    s.setCustomResources([widgetCRD({ resourceVersion: '11' })]); // a status-only write: same published spec
    assert.equal(s.v2JsonBytes(), json);
    assert.equal(s.v2ProtoBytes(), proto);
    assert.equal(s.v3Docs(), docs);
  });

  it('a changed schema changes the ETags of /openapi/v2 and of its group-version, not of the built-in group-versions', () => {
    const s = served([widgetCRD()]);
    const json = s.v2JsonBytes().hash;
    const proto = s.v2ProtoBytes().hash;
    const before = s.v3Docs().byPath;
    const changed = widgetVersion('v1');
    changed.schema!.openAPIV3Schema!.properties!.spec!.properties!.size!.maximum = 10;
    s.setCustomResources([widgetCRD({ resourceVersion: '12', versions: [changed] })]);
    assert.notEqual(s.v2JsonBytes().hash, json);
    assert.notEqual(s.v2ProtoBytes().hash, proto);
    const after = s.v3Docs().byPath;
    assert.notEqual(after.get(KEY)!.hash, before.get(KEY)!.hash);
    assert.equal(v3(s, KEY).components.schemas[WIDGET].properties.spec.properties.size.maximum, 10);
    for (const [key, doc] of before) if (key !== KEY) assert.equal(after.get(key), doc, key);
    const stale = call(s, '/openapi/v2', { 'if-none-match': `"${json}"` });
    assert.equal(stale.status, 200);
  });

  it('a CRD removed: its paths, definitions and group-version are gone; the built-in document is back, byte for byte', () => {
    const s = served([widgetCRD(), widgetCRD({ group: 'other.example.com' })]);
    assert.ok(v2(s).definitions['com.example.other.v1.Widget']);
    s.setCustomResources([widgetCRD({ group: 'other.example.com' })]);
    assert.equal(v2(s).definitions[WIDGET], undefined);
    assert.equal(v2(s).paths[`${P}/widgets`], undefined);
    assert.equal(s.v3Docs().byPath.has(KEY), false);
    assert.equal(JSON.parse(s.v3Docs().index.body.toString()).paths[KEY], undefined);
    assert.equal(call(s, `/openapi/v3/${KEY}`).status, 404);
    s.setCustomResources([]);
    assert.equal(s.v2JsonBytes().hash, new OpenAPIService(resources).v2JsonBytes().hash);
  });
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function call(s: OpenAPIService, target: string, headers: Record<string, string> = {}): Answer {
  const answer: Answer = { status: 0, headers: {}, body: Buffer.alloc(0) };
  const res = {
    statusCode: 200,
    setHeader: (k: string, v: string | number) => void (answer.headers[k.toLowerCase()] = String(v)),
    end: (chunk?: string | Uint8Array) => void (answer.body = chunk === undefined ? Buffer.alloc(0) : Buffer.from(chunk)),
  };
  const url = new URL(target, 'https://127.0.0.1');
  const ctx = { req: { method: 'GET', url: target, headers }, res, url } as unknown as RequestContext;
  assert.ok(s.handle(ctx, url.pathname));
  answer.status = res.statusCode;
  return answer;
}
