// Table tests for the kind of write bodies: what Kubernetes' decoder makes of
// apiVersion and kind on create/update, on DELETE (DeleteOptions) and on
// server-side apply, with the messages it answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatusError } from '../api/meta/index.js';
import {
  apiVersionMismatch, checkAppliedKind, checkDeleteOptionsKind, decodeBodyKind, gvkString, parseGroupVersion, patchedKindError,
  summarizeBody, type EndpointKind,
} from './bodykind.js';

const CONFIGMAPS: EndpointKind = { group: '', version: 'v1', kind: 'ConfigMap', spelledGroup: '' };
const HPA_V2: EndpointKind = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', spelledGroup: 'autoscaling' };
const EVENTS_K8S: EndpointKind = { group: 'events.svc.io', version: 'v1', kind: 'Event', spelledGroup: 'events.k8s.io' };
const ROLES_K8S: EndpointKind = { group: 'rbac.authorization.svc.io', version: 'v1', kind: 'Role', spelledGroup: 'rbac.authorization.k8s.io' };
const SCALE: EndpointKind = { group: 'autoscaling', version: 'v1', kind: 'Scale', spelledGroup: 'autoscaling' };
const CRDS: EndpointKind = { group: 'apiextensions.svc.io', version: 'v1', kind: 'CustomResourceDefinition', spelledGroup: 'apiextensions.k8s.io' };

const LEGACY = 'in scheme "pkg/api/legacyscheme/scheme.go:30"';

function statusOf(fn: () => unknown): { code: number; message: string } | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (err) {
    const s = (err as StatusError).status;
    return { code: s.code!, message: s.message! };
  }
}

function decode(body: Record<string, unknown>, endpoint: EndpointKind) {
  return decodeBodyKind(body, Buffer.from(JSON.stringify(body)), endpoint);
}

describe('bodykind: create and update bodies', () => {
  // [why (the Kubernetes behaviour), body, endpoint, result: decoded apiVersion/kind or the 400 message]
  const rows: [string, Record<string, unknown>, EndpointKind, string][] = [
    ['no kind and no apiVersion take the endpoint\'s', { metadata: {} }, CONFIGMAPS, 'ok v1 ConfigMap'],
    ['no apiVersion takes the endpoint\'s group/version', { kind: 'ConfigMap' }, CONFIGMAPS, 'ok v1 ConfigMap'],
    ['a group without version takes the endpoint\'s version when it is the endpoint\'s group', { apiVersion: 'autoscaling/' }, HPA_V2, 'ok autoscaling/v2 HorizontalPodAutoscaler'],
    ['either group spelling is the group', { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role' }, ROLES_K8S, 'ok rbac.authorization.svc.io/v1 Role'],
    ['a group without version, not the endpoint\'s: missing apiVersion', { apiVersion: 'apps/' }, CONFIGMAPS,
      'ConfigMap in version "" cannot be handled as a ConfigMap: Object \'apiVersion\' is missing in \'{"apiVersion":"apps/"}\''],
    ['a kind the version does not register', { apiVersion: 'apps/v1', kind: 'ConfigMap' }, CONFIGMAPS,
      `ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" ${LEGACY}`],
    ['a version the group does not have, in the request\'s spelling', { apiVersion: 'rbac.authorization.k8s.io/v9', kind: 'Role' }, ROLES_K8S,
      `Role in version "v9" cannot be handled as a Role: no kind "Role" is registered for version "rbac.authorization.k8s.io/v9" ${LEGACY}`],
    ['a registered kind of another type', { apiVersion: 'v1', kind: 'Secret' }, CONFIGMAPS,
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion'],
    ['only the kind given: the endpoint\'s version of another kind', { kind: 'Secret' }, CONFIGMAPS,
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion'],
    ['the list kind is another type', { kind: 'ConfigMapList' }, CONFIGMAPS,
      'ConfigMapList in version "v1" cannot be handled as a ConfigMap: converting (v1.ConfigMapList) to (core.ConfigMap): unknown conversion'],
    ['options kinds are registered in every version', { apiVersion: 'v1', kind: 'DeleteOptions' }, CONFIGMAPS,
      'DeleteOptions in version "v1" cannot be handled as a ConfigMap: converting (v1.DeleteOptions) to (core.ConfigMap): unknown conversion'],
    ['Status is registered in every version', { apiVersion: 'apps/v9', kind: 'Status' }, CONFIGMAPS,
      'Status in version "v9" cannot be handled as a ConfigMap: converting (v1.Status) to (core.ConfigMap): unknown conversion'],
    ['another kind of another group names its internal package', { apiVersion: 'apps/v1', kind: 'Deployment' }, SCALE,
      'Deployment in version "v1" cannot be handled as a Scale: converting (v1.Deployment) to (autoscaling.Scale): unknown conversion'],
    ['Scale is registered in autoscaling/v1 only', { apiVersion: 'apps/v1', kind: 'Scale' }, SCALE,
      `Scale in version "v1" cannot be handled as a Scale: no kind "Scale" is registered for version "apps/v1" ${LEGACY}`],
    ['the endpoint\'s type in another version decodes', { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }, HPA_V2, 'ok autoscaling/v1 HorizontalPodAutoscaler (other version)'],
    ['a core Event is an events.svc.io Event', { apiVersion: 'v1', kind: 'Event' }, EVENTS_K8S, 'ok v1 Event (other version)'],
    ['CRDs are decoded by apiextensions-apiserver\'s scheme', { apiVersion: 'v1', kind: 'ConfigMap' }, CRDS,
      'ConfigMap in version "v1" cannot be handled as a CustomResourceDefinition: no kind "ConfigMap" is registered for version "v1" in scheme "pkg/apiserver/apiserver.go:56"'],
    ['apiVersion not a string', { apiVersion: 5, kind: 'ConfigMap' }, CONFIGMAPS,
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string ({"apiVersion":5,"kind":"Config ...)'],
    ['kind not a string', { kind: ['x'] }, CONFIGMAPS,
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go struct field .kind of type string ({"kind":["x"]})'],
    ['two slashes do not parse', { apiVersion: 'a/b/c' }, CONFIGMAPS,
      'the object provided is unrecognized (must be of type ConfigMap): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})'],
  ];
  for (const [why, body, endpoint, want] of rows) {
    it(why, () => {
      let got: string;
      try {
        const d = decode(body, endpoint);
        got = `ok ${d.group ? `${d.group}/` : ''}${d.version} ${d.kind}${d.sameVersion ? '' : ' (other version)'}`;
      } catch (err) {
        const s = (err as StatusError).status;
        assert.equal(s.code, 400);
        assert.equal(s.reason, 'BadRequest');
        got = s.message!;
      }
      assert.equal(got, want);
    });
  }

  it('another version is refused after decoding, in the spellings of body and request', () => {
    const d = decode({ apiVersion: 'v1', kind: 'Event' }, EVENTS_K8S);
    assert.equal(apiVersionMismatch(d, EVENTS_K8S).status.message, 'the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)');
    const h = decode({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }, HPA_V2);
    assert.equal(apiVersionMismatch(h, HPA_V2).status.message, 'the API version in the data (autoscaling/v1) does not match the expected API version (autoscaling/v2)');
  });

  it('a JSON or merge patch result: no defaults but the type\'s own, and the decoder\'s error as is', () => {
    assert.equal(patchedKindError({ metadata: {} }, CONFIGMAPS), undefined);
    assert.equal(patchedKindError({ apiVersion: 'v1', kind: 'Secret' }, CONFIGMAPS), 'converting (v1.Secret) to (core.ConfigMap): unknown conversion');
    assert.equal(patchedKindError({ apiVersion: 'apps/v1', kind: 'ConfigMap' }, CONFIGMAPS), `no kind "ConfigMap" is registered for version "apps/v1" ${LEGACY}`);
  });
});

describe('bodykind: DELETE bodies', () => {
  const META = 'in scheme "pkg/apis/meta/internalversion/scheme/register.go:27"';
  // [why, body, 'ok' or the message (Kubernetes answers these 500, we 400)]
  const rows: [string, Record<string, unknown>, string][] = [
    ['no kind and no apiVersion: meta DeleteOptions', { propagationPolicy: 'Orphan' }, 'ok'],
    ['DeleteOptions in core v1 (what clients send)', { apiVersion: 'v1', kind: 'DeleteOptions' }, 'ok'],
    ['DeleteOptions is registered in every version', { apiVersion: 'foo/v1', kind: 'DeleteOptions' }, 'ok'],
    ['only apiVersion: kind DeleteOptions', { apiVersion: 'meta.k8s.io/v1' }, 'ok'],
    ['a resource kind', { apiVersion: 'v1', kind: 'ConfigMap' }, `no kind "ConfigMap" is registered for version "v1" ${META}`],
    ['a resource kind without apiVersion: meta\'s version', { kind: 'ConfigMap' }, `no kind "ConfigMap" is registered for version "meta.svc.io/v1" ${META}`],
    ['another options kind', { apiVersion: 'meta.k8s.io/v1', kind: 'ListOptions' }, 'converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion'],
    ['an unversioned kind', { apiVersion: 'v1', kind: 'Status' }, 'converting (v1.Status) to (v1.DeleteOptions): unknown conversion'],
    ['apiVersion not a string', { apiVersion: true }, 'couldn\'t get version/kind; json parse error: json: cannot unmarshal bool into Go struct field .apiVersion of type string'],
    ['a group without version', { apiVersion: 'apps/', kind: 'DeleteOptions' }, 'Object \'apiVersion\' is missing in \'{"apiVersion":"apps/","kind":"DeleteOptions"}\''],
  ];
  for (const [why, body, want] of rows) {
    it(why, () => {
      const got = statusOf(() => checkDeleteOptionsKind(body, Buffer.from(JSON.stringify(body)), 'meta.svc.io'));
      assert.deepEqual(got, want === 'ok' ? 'ok' : { code: 400, message: want });
    });
  }
});

describe('bodykind: server-side apply', () => {
  const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
  // [why, applied object, 'ok' or the 400 message (versionCheckManager)]
  const rows: [string, Record<string, unknown>, typeof CM, string][] = [
    ['the endpoint\'s kind', { apiVersion: 'v1', kind: 'ConfigMap' }, CM, 'ok'],
    ['either group spelling', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' }, { group: 'rbac.authorization.svc.io', version: 'v1', kind: 'Role' }, 'ok'],
    ['no kind', { apiVersion: 'v1' }, CM, 'invalid object type: /v1, Kind='],
    ['no apiVersion', { kind: 'ConfigMap' }, CM, 'invalid object type: /, Kind=ConfigMap'],
    ['another group', { apiVersion: 'apps/v1', kind: 'ConfigMap' }, CM, 'invalid object type: apps/v1, Kind=ConfigMap'],
    ['another served version of the kind', { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' },
      { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, 'invalid object type: autoscaling/v1, Kind=HorizontalPodAutoscaler'],
    ['an apiVersion that does not parse empties the whole kind', { apiVersion: 'a/b/c', kind: 'ConfigMap' }, CM, 'invalid object type: /, Kind='],
    ['a kind that is not a string reads as none', { apiVersion: 'v1', kind: 7 }, CM, 'invalid object type: /v1, Kind='],
  ];
  for (const [why, config, endpoint, want] of rows) {
    it(why, () => assert.deepEqual(statusOf(() => checkAppliedKind(config, endpoint)), want === 'ok' ? 'ok' : { code: 400, message: want }));
  }
});

describe('bodykind: Kubernetes\' printing and parsing', () => {
  it('parseGroupVersion', () => {
    assert.deepEqual(parseGroupVersion(''), { group: '', version: '' });
    assert.deepEqual(parseGroupVersion('/'), { group: '', version: '' });
    assert.deepEqual(parseGroupVersion('v1'), { group: '', version: 'v1' });
    assert.deepEqual(parseGroupVersion('/v1'), { group: '', version: 'v1' });
    assert.deepEqual(parseGroupVersion('apps/'), { group: 'apps', version: '' });
    assert.deepEqual(parseGroupVersion('apps/v1'), { group: 'apps', version: 'v1' });
    assert.ok(parseGroupVersion('a/b/c') instanceof Error);
  });
  it('gvkString prints the core group empty', () => {
    assert.equal(gvkString({ group: '', version: 'v1', kind: 'ConfigMap' }), '/v1, Kind=ConfigMap');
    assert.equal(gvkString({ group: 'apps', version: 'v1', kind: 'Deployment' }), 'apps/v1, Kind=Deployment');
  });
  it('summarizeBody: 30 bytes, as text from a brace, else hex', () => {
    assert.equal(summarizeBody(Buffer.alloc(0)), '<empty>');
    assert.equal(summarizeBody(Buffer.from('{"a":1}')), '{"a":1}');
    assert.equal(summarizeBody(Buffer.from(`{"a":"${'x'.repeat(40)}"}`)), `{"a":"${'x'.repeat(24)} ...`);
    assert.equal(summarizeBody(Buffer.from('kind: x')), '6b696e643a2078');
  });
});
