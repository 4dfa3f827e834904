// What the server refuses, end to end: paths that name no route (404, 405 as
// Kubernetes' installer and go-restful answer them) and write bodies
// Kubernetes refuses (wrong kind or version, resourceVersion on create,
// apply without kind/apiVersion, PUT name/namespace mismatches, DELETE
// bodies that are not DeleteOptions). Each row names the Kubernetes
// behaviour it pins and checks the Status (code, reason, message, details)
// and that nothing was stored or changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { MINIMAL_BODIES } from './fixtures.js';

const NS = '/api/v1/namespaces/refuse';
const CM = `${NS}/configmaps`;
const DEP = '/apis/apps/v1/namespaces/refuse/deployments/dep';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const NOT_FOUND = 'the server could not find the requested resource';
const NOT_ALLOWED = 'the server does not allow this method on the requested resource';
const LEGACY = 'in scheme "pkg/api/legacyscheme/scheme.go:30"';

interface Row {
  /** The Kubernetes behaviour the row pins. */
  readonly why: string;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly status: number;
  /** Status fields; details `undefined` means none, a function checks them. Omitted for a success. */
  readonly reason?: string;
  readonly message?: string | RegExp;
  readonly details?: unknown;
  /** A plain-text answer instead of a Status. */
  readonly text?: string;
  /** A path that must not exist afterwards (nothing was stored). */
  readonly absent?: string;
  /** A fixture that must be unchanged afterwards (same resourceVersion). */
  readonly unchanged?: string;
}

const routeRows: Row[] = [
  { why: 'a namespaced resource has no object route without a namespace', method: 'GET', path: '/api/v1/configmaps/x', status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'a cluster-scoped resource has no namespaced object route', method: 'GET', path: `${NS}/nodes/x`, status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'a cluster-scoped resource has no namespaced collection route', method: 'GET', path: `${NS}/nodes`, status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'across namespaces there is only LIST: no POST', method: 'POST', path: '/api/v1/configmaps', body: { metadata: { name: 'across', namespace: 'refuse' } },
    status: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED, details: {}, absent: `${CM}/across` },
  { why: 'across namespaces there is no DELETECOLLECTION', method: 'DELETE', path: '/api/v1/configmaps', status: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED, details: {}, unchanged: `${CM}/existing` },
  { why: 'no PUT on a collection', method: 'PUT', path: CM, body: { metadata: { name: 'existing' } }, status: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED, details: {}, unchanged: `${CM}/existing` },
  { why: 'no WATCH of one namespaced object without a namespace (no hang)', method: 'GET', path: '/api/v1/watch/configmaps/x', status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'configmaps have no status subresource', method: 'GET', path: `${CM}/existing/status`, status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'nothing after a subresource that is not a proxy', method: 'GET', path: `${DEP}/status/extra`, status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'a group-version path naming no resource', method: 'GET', path: '/apis/apps/v1/namespaces/refuse', status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'an unknown version of a known group', method: 'GET', path: '/apis/apps/v7/namespaces/refuse/deployments', status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'an unknown group is not go-restful\'s: plain text', method: 'GET', path: '/apis/widgets.example.com/v1/things', status: 404, text: '404 page not found\n' },
  { why: 'status takes GET, PUT and PATCH: no POST', method: 'POST', path: `${DEP}/status`, body: {}, status: 405, reason: 'MethodNotAllowed', message: NOT_ALLOWED, details: {}, unchanged: DEP },
  { why: 'methods are matched exactly: no HEAD route', method: 'HEAD', path: `${CM}/existing`, status: 405, text: '' },
  { why: 'the route is found before the Accept header is negotiated', method: 'GET', path: '/api/v1/configmaps/x', headers: { accept: 'application/xml' }, status: 404, reason: 'NotFound', message: NOT_FOUND, details: {} },
  { why: 'a list route with ?watch on a kind that cannot be watched', method: 'GET', path: '/api/v1/componentstatuses?watch=1',
    status: 405, reason: 'MethodNotAllowed', message: 'watch is not supported on resources of kind "componentstatuses"', details: { kind: 'componentstatuses' } },
  { why: 'namespaces/{name}/status is a real route', method: 'GET', path: '/api/v1/namespaces/nowhere/status',
    status: 404, reason: 'NotFound', message: 'namespaces "nowhere" not found', details: { name: 'nowhere', kind: 'namespaces' } },
];

const bodyRows: Row[] = [
  { why: 'a kind the body\'s version does not register', method: 'POST', path: CM, body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'b1' } },
    status: 400, reason: 'BadRequest', message: `ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" ${LEGACY}`, absent: `${CM}/b1` },
  { why: 'another kind does not convert', method: 'POST', path: CM, body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'b2' } },
    status: 400, reason: 'BadRequest', message: 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion', absent: `${CM}/b2` },
  { why: 'resourceVersion on create (Kubernetes: 500 from storage; here 400)', method: 'POST', path: CM, body: { metadata: { name: 'b3', resourceVersion: '5' } },
    status: 400, reason: 'BadRequest', message: 'resourceVersion should not be set on objects to be created', absent: `${CM}/b3` },
  { why: 'resourceVersion on a dry-run create, the same', method: 'POST', path: `${CM}?dryRun=All`, body: { metadata: { name: 'b4', resourceVersion: '5' } },
    status: 400, reason: 'BadRequest', message: 'resourceVersion should not be set on objects to be created', absent: `${CM}/b4` },
  { why: 'resourceVersion "0" names no revision: created', method: 'POST', path: CM, body: { metadata: { name: 'b5', resourceVersion: '0' } }, status: 201 },
  { why: 'a PUT that creates keeps working with a resourceVersion', method: 'PUT', path: '/apis/coordination.k8s.io/v1/namespaces/refuse/leases/l1',
    body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l1', resourceVersion: '5' } }, status: 201 },
  { why: 'another served version of the kind decodes, then its version is refused', method: 'POST', path: '/apis/autoscaling/v2/namespaces/refuse/horizontalpodautoscalers',
    body: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h1' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'dep' }, maxReplicas: 2 } },
    status: 400, reason: 'BadRequest', message: 'the API version in the data (autoscaling/v1) does not match the expected API version (autoscaling/v2)',
    absent: '/apis/autoscaling/v2/namespaces/refuse/horizontalpodautoscalers/h1' },
  { why: 'each group printed as its sender spelled it', method: 'POST', path: '/apis/flowcontrol.apiserver.svc.io/v1beta3/flowschemas',
    body: { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'FlowSchema', metadata: { name: 'fs1' } },
    status: 400, reason: 'BadRequest', message: 'the API version in the data (flowcontrol.apiserver.k8s.io/v1beta2) does not match the expected API version (flowcontrol.apiserver.svc.io/v1beta3)',
    absent: '/apis/flowcontrol.apiserver.svc.io/v1beta3/flowschemas/fs1' },
  { why: 'a core Event posted to events.k8s.io, in the request\'s spelling', method: 'POST', path: '/apis/events.k8s.io/v1/namespaces/refuse/events',
    body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' } },
    status: 400, reason: 'BadRequest', message: 'the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)', absent: `${NS}/events/e1` },
  { why: 'apply without kind: versionCheckManager', method: 'PATCH', path: `${CM}/a1?fieldManager=m`, headers: APPLY, body: { apiVersion: 'v1', metadata: { name: 'a1' } },
    status: 400, reason: 'BadRequest', message: 'invalid object type: /v1, Kind=', absent: `${CM}/a1` },
  { why: 'apply without apiVersion', method: 'PATCH', path: `${CM}/a2?fieldManager=m`, headers: APPLY, body: { kind: 'ConfigMap', metadata: { name: 'a2' } },
    status: 400, reason: 'BadRequest', message: 'invalid object type: /, Kind=ConfigMap', absent: `${CM}/a2` },
  { why: 'apply of another served version of the kind', method: 'PATCH', path: '/apis/autoscaling/v2/namespaces/refuse/horizontalpodautoscalers/h2?fieldManager=m', headers: APPLY,
    body: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h2' } },
    status: 400, reason: 'BadRequest', message: 'invalid object type: autoscaling/v1, Kind=HorizontalPodAutoscaler', absent: '/apis/autoscaling/v2/namespaces/refuse/horizontalpodautoscalers/h2' },
  { why: 'PUT of another kind', method: 'PUT', path: `${CM}/existing`, body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'existing' } },
    status: 400, reason: 'BadRequest', message: 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion', unchanged: `${CM}/existing` },
  { why: 'PUT naming another object', method: 'PUT', path: `${CM}/existing`, body: { metadata: { name: 'other' } },
    status: 400, reason: 'BadRequest', message: 'the name of the object (other) does not match the name on the URL (existing)', unchanged: `${CM}/existing` },
  { why: 'PUT naming no object', method: 'PUT', path: `${CM}/existing`, body: { data: { a: 'b' } },
    status: 400, reason: 'BadRequest', message: 'the name of the object () does not match the name on the URL (existing)', unchanged: `${CM}/existing` },
  { why: 'PUT in another namespace', method: 'PUT', path: `${CM}/existing`, body: { metadata: { name: 'existing', namespace: 'default' } },
    status: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request', unchanged: `${CM}/existing` },
  { why: '/status bodies are of the parent\'s kind', method: 'PUT', path: `${DEP}/status`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dep' } },
    status: 400, reason: 'BadRequest', message: 'ConfigMap in version "v1" cannot be handled as a Deployment: converting (v1.ConfigMap) to (apps.Deployment): unknown conversion', unchanged: DEP },
  { why: '/scale bodies are autoscaling/v1 Scale', method: 'PUT', path: `${DEP}/scale`, body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dep' }, spec: { replicas: 3 } },
    status: 400, reason: 'BadRequest', message: 'Deployment in version "v1" cannot be handled as a Scale: converting (v1.Deployment) to (autoscaling.Scale): unknown conversion', unchanged: DEP },
  { why: '/scale bodies name the object', method: 'PUT', path: `${DEP}/scale`, body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'other' }, spec: { replicas: 3 } },
    status: 400, reason: 'BadRequest', message: 'the name of the object (other) does not match the name on the URL (dep)', unchanged: DEP },
  // The patched JSON decodes as a Secret first (its data must be base64: "1" is not), then cannot convert.
  { why: 'a merge patch that changes the kind decodes as that kind first: 422 on patch', method: 'PATCH', path: `${CM}/existing`, headers: { 'content-type': 'application/merge-patch+json' },
    body: { kind: 'Secret' }, status: 422, reason: 'Invalid', message: /patch: Invalid value: .*: illegal base64 data at input byte 0$/,
    details: (d: { causes: { field: string; reason: string }[] }) => d.causes.length === 1 && d.causes[0]!.field === 'patch' && d.causes[0]!.reason === 'FieldValueInvalid',
    unchanged: `${CM}/existing` },
  { why: 'a merge patch that changes the kind no longer decodes: 422 on patch', method: 'PATCH', path: `${CM}/existing`, headers: { 'content-type': 'application/merge-patch+json' },
    body: { kind: 'Secret', data: { a: 'MQ==' } }, status: 422, reason: 'Invalid', message: /patch: Invalid value: .*: converting \(v1\.Secret\) to \(core\.ConfigMap\): unknown conversion$/,
    details: (d: { causes: { field: string; reason: string }[] }) => d.causes.length === 1 && d.causes[0]!.field === 'patch' && d.causes[0]!.reason === 'FieldValueInvalid',
    unchanged: `${CM}/existing` },
  { why: 'DELETE with a body that is not DeleteOptions (Kubernetes: 500; here 400)', method: 'DELETE', path: `${CM}/existing`, body: { apiVersion: 'v1', kind: 'ConfigMap' },
    status: 400, reason: 'BadRequest', message: 'no kind "ConfigMap" is registered for version "v1" in scheme "pkg/apis/meta/internalversion/scheme/register.go:27"', unchanged: `${CM}/existing` },
  { why: 'DeleteOptions in the body, dry run', method: 'DELETE', path: `${CM}/existing`, body: { apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] }, status: 200, unchanged: `${CM}/existing` },
  { why: 'with a body, the query\'s options are not read', method: 'DELETE', path: `${CM}/doomed?dryRun=All`, body: { apiVersion: 'v1', kind: 'DeleteOptions' }, status: 200, absent: `${CM}/doomed` },
];

describe('refused paths and bodies (HTTPS, embedded storage)', () => {
  let t: TestServer;
  const versions = new Map<string, string>();
  before(async () => {
    t = await startTestServer({ controllers: false });
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'refuse' } })).status, 201);
    for (const [path, body] of [
      [CM, { metadata: { name: 'existing' }, data: { a: '1' } }],
      [CM, { metadata: { name: 'doomed' } }],
      ['/apis/apps/v1/namespaces/refuse/deployments', { metadata: { name: 'dep' }, ...MINIMAL_BODIES['apps/deployments'] }],
    ] as const) {
      const r = await t.req('POST', path, body);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      versions.set(`${path}/${r.body.metadata.name}`, r.body.metadata.resourceVersion);
    }
  });
  after(async () => t?.stop());

  for (const row of [...routeRows, ...bodyRows]) {
    it(`${row.method} ${row.path} → ${row.status}: ${row.why}`, async () => {
      const r = await t.req(row.method, row.path, row.body, row.headers ? { headers: row.headers } : undefined);
      assert.equal(r.status, row.status, r.text);
      if (row.text !== undefined) assert.equal(r.text, row.text);
      else if (row.reason !== undefined) {
        assert.equal(r.body.kind, 'Status');
        assert.equal(r.body.code, row.status);
        assert.equal(r.body.reason, row.reason);
        if (row.message instanceof RegExp) assert.match(r.body.message, row.message);
        else assert.equal(r.body.message, row.message);
        if (typeof row.details === 'function') assert.ok(row.details(r.body.details), JSON.stringify(r.body.details));
        else assert.deepEqual(r.body.details, row.details);
      }
      if (row.absent) assert.equal((await t.req('GET', row.absent)).status, 404, `${row.absent} was not stored`);
      if (row.unchanged) {
        const g = await t.req('GET', row.unchanged);
        assert.equal(g.status, 200);
        assert.equal(g.body.metadata.resourceVersion, versions.get(row.unchanged), `${row.unchanged} is unchanged`);
      }
    });
  }
});
