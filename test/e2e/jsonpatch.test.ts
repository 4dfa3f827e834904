// application/json-patch+json through the real server, one row per answer
// kube-apiserver v1.27 gives (handlers/patch.go jsonPatcher, evanphx/json-patch
// v4.12.0, then the update path): status, reason, details and body. Each row
// patches a fresh object of its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type HttpResult, type TestServer } from './harness.js';

const NS = 'jsonpatch';
const GENERIC_422 = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

interface Row {
  /** What kube-apiserver does. */
  readonly name: string;
  readonly target: 'configmap' | 'deployment';
  readonly sub?: 'status' | 'scale';
  readonly query?: string;
  readonly contentType?: string;
  /** The body: ops (sent as JSON), raw text, or built from the object before the patch. */
  readonly body: unknown[] | string | ((before: Obj) => unknown[]);
  readonly status: number;
  /** Checks the answer; `before` is the object (or Scale) as it was. */
  readonly expect: (r: HttpResult, before: Obj) => void;
}

const status = (code: number, reason: string, message: string, details?: Obj) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });

/** The object as the patch sees it: the GET body (kind and apiVersion included). */
const docOf = (o: Obj): Obj => structuredClone(o);

/**
 * A 422 Invalid with one `patch` cause (jsonPatcher's NewInvalid(GroupKind{}, "", …)):
 * its value is the patched JSON as evanphx writes it — checked as a value against
 * `doc`, and for the Go map order (sorted keys) at `sortedAt` (the top level is
 * always sorted) — and the message repeats it, quoted.
 */
function patchCause(r: HttpResult, detail: string, doc: Obj, sortedAt: string[] = []): void {
  const cause = r.body.details?.causes?.[0];
  assert.ok(cause, r.text);
  const value: string = JSON.parse(cause.message.slice('Invalid value: '.length, cause.message.length - detail.length - 2));
  assert.deepEqual(JSON.parse(value), doc);
  for (const at of ['', ...sortedAt]) {
    const o = at.split('.').filter(Boolean).reduce((x: Obj, k) => x[k], JSON.parse(value));
    const keys = Object.keys(o);
    assert.deepEqual(keys, [...keys].sort(), `keys at "${at}" as Go writes a map`);
  }
  const body = `Invalid value: ${JSON.stringify(value)}: ${detail}`;
  assert.deepEqual(r.body, status(422, 'Invalid', ` "" is invalid: patch: ${body}`, { causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }] }));
}

const ROWS: Row[] = [
  // ---- the body (jsonPatcher.applyJSPatch before evanphx applies anything) ----
  // kjson.UnmarshalStrict failure under the default Warn: 400 "error decoding patch: …".
  { name: 'bad JSON is 400 with the decoder text', target: 'configmap', body: '[{"op":', status: 400, expect: (r) => assert.deepEqual(r.body, status(400, 'BadRequest', 'error decoding patch: unexpected end of JSON input')) },
  { name: 'a non-string op is 400 (Warn)', target: 'configmap', body: '[{"op":1,"path":"/a"}]', status: 400, expect: (r) => assert.deepEqual(r.body, status(400, 'BadRequest', 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string')) },
  // fieldValidation=Ignore: jsonpatch.DecodePatch alone, its error as is.
  { name: 'an object body is 400 (Ignore: DecodePatch)', target: 'configmap', query: 'fieldValidation=Ignore', body: '{"op":"add"}', status: 400, expect: (r) => assert.deepEqual(r.body, status(400, 'BadRequest', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch')) },
  // ...where a non-string op decodes and is an unknown kind when applied.
  { name: 'a non-string op is an unknown kind (Ignore)', target: 'configmap', query: 'fieldValidation=Ignore', body: '[{"op":1,"path":"/a"}]', status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },
  // More than maxJSONPatchOperations (10000): 413.
  { name: 'more than 10000 operations is 413', target: 'configmap', body: `[${Array(10001).fill('{"op":"test","path":"/data/a","value":"1"}').join(',')}]`, status: 413, expect: (r) => assert.deepEqual(r.body, status(413, 'RequestEntityTooLarge', 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001')) },

  // ---- evanphx's Apply failing: NewGenericServerResponse(422, …, false): generic message, no causes ----
  { name: 'a failed test is 422 with empty details', target: 'configmap', body: [{ op: 'test', path: '/data/a', value: '999' }, { op: 'replace', path: '/data/a', value: '2' }], status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },
  { name: 'removing a missing member is 422', target: 'configmap', body: [{ op: 'remove', path: '/data/nope' }], status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },
  // An absent list has no "-" to append to (the parent must exist).
  { name: 'appending to absent finalizers is 422', target: 'configmap', body: [{ op: 'add', path: '/metadata/finalizers/-', value: 'example.com/f' }], status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },
  // test compares the encoder's text: Go wrote "<" as \u003c, so "x<y" does not match...
  { name: 'a test sees the text Go encoded ("<")', target: 'configmap', body: [{ op: 'test', path: '/metadata/annotations/note', value: 'x<y' }], status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },
  // ...and "x\u003cy" does.
  { name: 'a test of the escaped text passes', target: 'configmap', body: '[{"op":"test","path":"/metadata/annotations/note","value":"x\\u003cy"},{"op":"add","path":"/data/t","value":"ok"}]', status: 200, expect: (r) => assert.equal(r.body.data.t, 'ok') },
  { name: 'a test compares number text (1 is not 1.0)', target: 'deployment', body: '[{"op":"test","path":"/spec/replicas","value":1.0}]', status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },
  // v4 panics on a nil value and kube-apiserver answers a plain-text 500; a client mistake here is
  // the generic 422 of a patch that does not apply (deliberate difference, README).
  { name: 'a test of a missing member without a value (kube: panic 500) is 422', target: 'configmap', body: [{ op: 'test', path: '/data/nope' }], status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },

  // ---- success ----
  { name: 'add answers the patched object', target: 'configmap', body: [{ op: 'add', path: '/data/b', value: '2' }], status: 200, expect: (r, b) => {
    assert.deepEqual([r.body.kind, r.body.apiVersion, r.body.data], ['ConfigMap', 'v1', { a: '1', b: '2' }]);
    assert.notEqual(r.body.metadata.resourceVersion, b.metadata.resourceVersion);
  } },
  // v4: replace of a missing object member adds it.
  { name: 'replace of a missing member adds it', target: 'configmap', body: [{ op: 'replace', path: '/data/zz', value: '9' }], status: 200, expect: (r) => assert.deepEqual(r.body.data, { a: '1', zz: '9' }) },
  { name: 'copy and move', target: 'configmap', body: [{ op: 'copy', from: '/data/a', path: '/data/a2' }, { op: 'move', from: '/data/a', path: '/data/c' }], status: 200, expect: (r) => assert.deepEqual(r.body.data, { a2: '1', c: '1' }) },
  { name: 'escaped keys (~1) and negative indices', target: 'deployment', body: [{ op: 'add', path: '/metadata/labels', value: {} }, { op: 'add', path: '/metadata/labels/example.com~1team', value: 'blue' }, { op: 'add', path: '/spec/template/spec/containers/-1/args', value: ['a'] }], status: 200, expect: (r) => {
    assert.deepEqual(r.body.metadata.labels, { 'example.com/team': 'blue' });
    assert.deepEqual(r.body.spec.template.spec.containers[0].args, ['a']);
  } },

  // ---- the patched JSON decoded as the kind (runtime.DecodeInto): 422 with one `patch` cause ----
  { name: 'a wrong JSON type for a field is 422 on `patch`', target: 'configmap', body: [{ op: 'replace', path: '/data/a', value: 1 }], status: 422, expect: (r, b) => patchCause(r, 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string', { ...docOf(b), data: { a: 1 } }, ['data']) },
  { name: 'a string for an int32 field is 422 on `patch`', target: 'deployment', body: [{ op: 'replace', path: '/spec/replicas', value: '3' }], status: 422, expect: (r, b) => patchCause(r, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32', { ...docOf(b), spec: { ...b.spec, replicas: '3' } }, ['spec']) },
  // A merge patch takes the same jsonPatcher path.
  { name: 'a merge patch with a wrong type is 422 on `patch` too', target: 'configmap', contentType: 'application/merge-patch+json', body: '{"data":{"a":2}}', status: 422, expect: (r, b) => patchCause(r, 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string', { ...docOf(b), data: { a: 2 } }) },
  // The body's strict problems ("json patch …") come before the object's.
  { name: 'Strict: unknown fields of the body and of the object', target: 'configmap', query: 'fieldValidation=Strict', body: [{ op: 'add', path: '/spam', value: 1, extra: 1 }], status: 422, expect: (r, b) => patchCause(r, 'strict decoding error: json patch unknown field "[0].extra", unknown field "spam"', { ...docOf(b), spam: 1 }) },
  { name: 'Warn: the same problems are warnings', target: 'configmap', body: [{ op: 'add', path: '/spam', value: 1, extra: 1 }], status: 200, expect: (r) => {
    assert.equal(r.headers.warning, '299 - "json patch unknown field \\"[0].extra\\"", 299 - "unknown field \\"spam\\""');
    assert.equal(r.body.spam, undefined);
  } },
  // The serializer reads apiVersion/kind first (SimpleMetaFactory.Interpret).
  { name: 'a document that is not an object is 422 on `patch`', target: 'configmap', body: [{ op: 'replace', path: '', value: [1] }], status: 422, expect: (r) => patchCause(r, 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }', [1]) },
  { name: 'a non-string kind is 422 on `patch`', target: 'configmap', body: [{ op: 'replace', path: '/kind', value: 5 }], status: 422, expect: (r, b) => patchCause(r, 'couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string', { ...docOf(b), kind: 5 }) },
  { name: 'a malformed apiVersion is 422 on `patch`', target: 'configmap', body: [{ op: 'replace', path: '/apiVersion', value: 'a/b/c' }], status: 422, expect: (r, b) => patchCause(r, 'unexpected GroupVersion string: a/b/c', { ...docOf(b), apiVersion: 'a/b/c' }) },
  { name: 'an unknown kind is 422 on `patch`', target: 'configmap', body: [{ op: 'replace', path: '/kind', value: 'Nope' }], status: 422, expect: (r, b) => patchCause(r, 'no kind "Nope" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"', { ...docOf(b), kind: 'Nope' }) },
  // Another known kind is read as that kind first: a ConfigMap's "1" is not base64 for a Secret...
  { name: 'another kind is decoded as that kind', target: 'configmap', body: [{ op: 'replace', path: '/kind', value: 'Secret' }], status: 422, expect: (r, b) => patchCause(r, 'illegal base64 data at input byte 0', { ...docOf(b), kind: 'Secret' }) },
  // ...and then does not convert to the URL's kind.
  { name: 'another kind does not convert', target: 'configmap', body: [{ op: 'replace', path: '/kind', value: 'Secret' }, { op: 'replace', path: '/data/a', value: 'MQ==' }], status: 422, expect: (r, b) => patchCause(r, 'converting (v1.Secret) to (core.ConfigMap): unknown conversion', { ...docOf(b), kind: 'Secret', data: { a: 'MQ==' } }, ['data']) },
  // Empty apiVersion/kind take the URL's (gvkWithDefaults).
  { name: 'removing apiVersion and kind changes nothing', target: 'configmap', body: [{ op: 'remove', path: '/kind' }, { op: 'remove', path: '/apiVersion' }, { op: 'add', path: '/data/b', value: '2' }], status: 200, expect: (r) => assert.deepEqual([r.body.kind, r.body.apiVersion, r.body.data], ['ConfigMap', 'v1', { a: '1', b: '2' }]) },

  // ---- patcher.applyPatch: namespace, then name; then the store's resourceVersion check ----
  { name: 'another name is 400', target: 'configmap', body: [{ op: 'replace', path: '/metadata/name', value: 'other' }], status: 400, expect: (r, b) => assert.deepEqual(r.body, status(400, 'BadRequest', `the name of the object (other) does not match the name on the URL (${b.metadata.name})`)) },
  { name: 'no name is 400', target: 'configmap', body: [{ op: 'remove', path: '/metadata/name' }], status: 400, expect: (r, b) => assert.deepEqual(r.body, status(400, 'BadRequest', `the name of the object () does not match the name on the URL (${b.metadata.name})`)) },
  // patcher.applyPatch → checkName (before BeforeUpdate's own namespace check).
  { name: 'another namespace is 400', target: 'configmap', body: [{ op: 'replace', path: '/metadata/namespace', value: 'other' }], status: 400, expect: (r) => assert.deepEqual(r.body, status(400, 'BadRequest', 'the namespace of the object (other) does not match the namespace on the request (jsonpatch)')) },
  { name: 'no namespace takes the request\'s', target: 'configmap', body: [{ op: 'remove', path: '/metadata/namespace' }], status: 200, expect: (r) => assert.equal(r.body.metadata.namespace, NS) },
  { name: 'a stale resourceVersion is 409', target: 'configmap', body: [{ op: 'replace', path: '/metadata/resourceVersion', value: '1' }, { op: 'add', path: '/data/b', value: '2' }], status: 409, expect: (r, b) => assert.deepEqual(r.body, status(409, 'Conflict', `Operation cannot be fulfilled on configmaps "${b.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`, { name: b.metadata.name, kind: 'configmaps' })) },
  { name: 'the current resourceVersion is a precondition that holds', target: 'configmap', body: (b) => [{ op: 'test', path: '/metadata/resourceVersion', value: b.metadata.resourceVersion }, { op: 'add', path: '/data/b', value: '2' }], status: 200, expect: (r) => assert.equal(r.body.data.b, '2') },
  { name: 'no resourceVersion is an unconditional update', target: 'configmap', body: [{ op: 'remove', path: '/metadata/resourceVersion' }, { op: 'add', path: '/data/b', value: '2' }], status: 200, expect: (r) => assert.equal(r.body.data.b, '2') },

  // ---- then the kind's validation answers ----
  { name: 'removing the last container: validation\'s 422', target: 'deployment', body: [{ op: 'remove', path: '/spec/template/spec/containers/0' }], status: 422, expect: (r, b) => assert.deepEqual(r.body, status(422, 'Invalid', `Deployment.apps "${b.metadata.name}" is invalid: spec.template.spec.containers: Required value`, { name: b.metadata.name, group: 'apps', kind: 'Deployment', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.template.spec.containers' }] })) },

  // ---- subresources ----
  // /status patches the whole object; the status strategy keeps only the status change.
  { name: '/status applies to the object and keeps only status', target: 'deployment', sub: 'status', body: [{ op: 'add', path: '/status/observedGeneration', value: 7 }, { op: 'replace', path: '/spec/replicas', value: 9 }], status: 200, expect: (r) => assert.deepEqual([r.body.status.observedGeneration, r.body.spec.replicas], [7, 1]) },
  { name: '/status: a wrong type is 422 on `patch`', target: 'deployment', sub: 'status', body: [{ op: 'add', path: '/status/replicas', value: 'x' }], status: 422, expect: (r, b) => patchCause(r, 'json: cannot unmarshal string into Go struct field DeploymentStatus.status.replicas of type int32', { ...docOf(b), status: { ...b.status, replicas: 'x' } }, ['status']) },
  // /scale patches the autoscaling/v1 Scale.
  { name: '/scale: replicas', target: 'deployment', sub: 'scale', body: [{ op: 'test', path: '/spec/replicas', value: 1 }, { op: 'replace', path: '/spec/replicas', value: 5 }], status: 200, expect: (r) => assert.deepEqual([r.body.kind, r.body.apiVersion, r.body.spec], ['Scale', 'autoscaling/v1', { replicas: 5 }]) },
  { name: '/scale: a failed test is 422', target: 'deployment', sub: 'scale', body: [{ op: 'test', path: '/spec/replicas', value: 2 }], status: 422, expect: (r) => assert.deepEqual(r.body, GENERIC_422) },
  // The patch applies to the Scale the handler builds, whose managedFields are the parent's owners of
  // spec.replicas in autoscaling/v1 (ScaleHandler.ToSubresource): the cause's value shows them.
  { name: '/scale: a wrong type is 422 on `patch`', target: 'deployment', sub: 'scale', body: [{ op: 'replace', path: '/spec/replicas', value: '3' }], status: 422, expect: (r, b) => {
    const detail = 'json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32';
    const value = JSON.parse(JSON.parse(r.body.details.causes[0].message.slice('Invalid value: '.length, -(detail.length + 2)))) as { metadata: { managedFields: Obj[] } };
    assert.deepEqual(value.metadata.managedFields.map((e) => [e.apiVersion, e.operation, e.fieldsType, e.fieldsV1]), [['autoscaling/v1', 'Update', 'FieldsV1', { 'f:spec': { 'f:replicas': {} } }]]);
    const doc = docOf(b);
    patchCause(r, detail, { ...doc, metadata: { ...(doc.metadata as Obj), managedFields: value.metadata.managedFields }, spec: { replicas: '3' } }, ['spec']);
  } },
  // autoscaling ValidateScale.
  { name: '/scale: negative replicas is 422 on spec.replicas', target: 'deployment', sub: 'scale', body: [{ op: 'replace', path: '/spec/replicas', value: -1 }], status: 422, expect: (r, b) => assert.deepEqual(r.body, status(422, 'Invalid', `Scale.autoscaling "${b.metadata.name}" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`, { name: b.metadata.name, group: 'autoscaling', kind: 'Scale', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' }] })) },
  { name: '/scale: another name is 400', target: 'deployment', sub: 'scale', body: [{ op: 'replace', path: '/metadata/name', value: 'other' }], status: 400, expect: (r, b) => assert.deepEqual(r.body, status(400, 'BadRequest', `the name of the object (other) does not match the name on the URL (${b.metadata.name})`)) },
];

describe('JSON patch over HTTP (kube-apiserver v1.27 answers)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => t?.stop());

  const create = async (row: Row, name: string): Promise<string> => {
    if (row.target === 'configmap') {
      const base = `/api/v1/namespaces/${NS}/configmaps`;
      const c = await t.req('POST', base, { metadata: { name, annotations: { note: 'x<y' } }, data: { a: '1' } });
      assert.equal(c.status, 201, c.text);
      return `${base}/${name}`;
    }
    const base = `/apis/apps/v1/namespaces/${NS}/deployments`;
    const labels = { app: name };
    const c = await t.req('POST', base, { metadata: { name }, spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    assert.equal(c.status, 201, c.text);
    return `${base}/${name}`;
  };

  ROWS.forEach((row, i) => {
    it(row.name, async () => {
      const url = await create(row, `jp-${i}`);
      const path = row.sub ? `${url}/${row.sub}` : url;
      const was = (await t.req('GET', path)).body;
      const body = typeof row.body === 'function' ? JSON.stringify(row.body(was)) : typeof row.body === 'string' ? row.body : JSON.stringify(row.body);
      const r = await t.req('PATCH', row.query ? `${path}?${row.query}` : path, undefined, { raw: body, headers: { 'content-type': row.contentType ?? 'application/json-patch+json' } });
      assert.equal(r.status, row.status, r.text.slice(0, 2000));
      row.expect(r, was);
      if (row.status >= 400) assert.deepEqual((await t.req('GET', path)).body, was, 'a failed patch changes nothing');
    });
  });
});
