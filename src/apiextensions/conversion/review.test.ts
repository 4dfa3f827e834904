// ConversionReview out (kube's shape) and the answer's checks, with kube's texts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildReview, convertedObjectsOf, reviewVersionFor, ReviewAnswerError } from './review.js';

describe('conversion review version', () => {
  const rows: [string[], string | undefined][] = [[['v1', 'v1beta1'], 'v1'], [['v1beta1', 'v1'], 'v1beta1'], [['v2', 'v1beta1'], 'v1beta1'], [['v2'], undefined], [[], undefined]];
  for (const [accepted, want] of rows) it(`${JSON.stringify(accepted)} → ${want}`, () => assert.equal(reviewVersionFor(accepted), want));
});

describe('buildReview', () => {
  it('writes kube\'s ConversionReview: k8s.io spelling, request fields in order, the empty response', () => {
    const text = buildReview('v1beta1', 'u-1', 'stable.example.com/v2', [{ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a' } }]);
    assert.equal(text, '{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1beta1","request":{"uid":"u-1","desiredAPIVersion":"stable.example.com/v2","objects":[{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"}}]},"response":{"uid":"","convertedObjects":null,"result":{"metadata":{}}}}');
  });
});

describe('convertedObjectsOf', () => {
  const uid = 'u-1';
  const objs = [{ apiVersion: 'stable.example.com/v2', kind: 'CronTab' }];
  const v1 = (response: unknown, extra: Record<string, unknown> = {}) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response, ...extra });
  const ok = { uid, convertedObjects: objs, result: { status: 'Success' } };
  const SCHEME = '"k8s.io/apiserver/pkg/util/webhook/client.go:69"';
  const rows: { name: string; version: 'v1' | 'v1beta1'; answer: unknown; want: unknown[] | string }[] = [
    { name: 'v1 success', version: 'v1', answer: v1(ok), want: objs },
    { name: 'v1 in the svc.io spelling', version: 'v1', answer: v1(ok, { apiVersion: 'apiextensions.svc.io/v1' }), want: objs },
    { name: 'v1 without convertedObjects: none', version: 'v1', answer: v1({ uid, result: { status: 'Success' } }), want: [] },
    { name: 'v1 wrong uid', version: 'v1', answer: v1({ ...ok, uid: 'other' }), want: 'expected response.uid="u-1", got "other"' },
    { name: 'v1 no uid', version: 'v1', answer: v1({ ...ok, uid: undefined }), want: 'expected response.uid="u-1", got ""' },
    { name: 'v1 no response', version: 'v1', answer: v1(undefined), want: 'no response provided' },
    { name: 'v1 null response', version: 'v1', answer: v1(null), want: 'no response provided' },
    { name: 'v1 failure with message', version: 'v1', answer: v1({ uid, result: { status: 'Failure', message: 'cannot convert spec.cron' } }), want: 'cannot convert spec.cron' },
    { name: 'v1 failure without message', version: 'v1', answer: v1({ uid, result: { status: 'Failure' } }), want: "response.result.status was 'Failure', not 'Success'" },
    { name: 'v1 no result', version: 'v1', answer: v1({ uid, convertedObjects: objs }), want: "response.result.status was '', not 'Success'" },
    { name: 'v1 without kind and apiVersion', version: 'v1', answer: { response: ok }, want: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=' },
    { name: 'v1 without kind', version: 'v1', answer: { apiVersion: 'apiextensions.k8s.io/v1', response: ok }, want: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=' },
    { name: 'v1 answered in v1beta1', version: 'v1', answer: v1(ok, { apiVersion: 'apiextensions.k8s.io/v1beta1' }), want: 'converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion' },
    { name: 'another kind', version: 'v1', answer: v1(ok, { kind: 'AdmissionReview' }), want: `no kind "AdmissionReview" is registered for version "apiextensions.k8s.io/v1" in scheme ${SCHEME}` },
    { name: 'another group', version: 'v1', answer: v1(ok, { apiVersion: 'admission.k8s.io/v1' }), want: `no kind "ConversionReview" is registered for version "admission.k8s.io/v1" in scheme ${SCHEME}` },
    { name: 'an unknown version', version: 'v1beta1', answer: v1(ok, { apiVersion: 'apiextensions.k8s.io/v2' }), want: `no kind "ConversionReview" is registered for version "apiextensions.k8s.io/v2" in scheme ${SCHEME}` },
    { name: 'v1beta1 success', version: 'v1beta1', answer: v1(ok, { apiVersion: 'apiextensions.k8s.io/v1beta1' }), want: objs },
    { name: 'v1beta1 does not check the uid', version: 'v1beta1', answer: v1({ ...ok, uid: 'other' }, { apiVersion: 'apiextensions.k8s.io/v1beta1' }), want: objs },
    { name: 'v1beta1 without kind and apiVersion', version: 'v1beta1', answer: { response: ok }, want: objs },
    { name: 'v1beta1 no response', version: 'v1beta1', answer: { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview' }, want: 'no response provided' },
    { name: 'a null body reads as an empty review', version: 'v1beta1', answer: null, want: 'no response provided' },
    { name: 'response not an object', version: 'v1', answer: v1('x'), want: 'json: cannot unmarshal string into Go struct field ConversionReview.response of type v1.ConversionResponse' },
    { name: 'uid a number', version: 'v1', answer: v1({ ...ok, uid: 5 }), want: 'json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID' },
    { name: 'convertedObjects an object', version: 'v1', answer: v1({ ...ok, convertedObjects: {} }), want: 'json: cannot unmarshal object into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension' },
    { name: 'result a list', version: 'v1beta1', answer: { response: { ...ok, result: [] } }, want: 'json: cannot unmarshal array into Go struct field ConversionResponse.response.result of type v1.Status' },
    { name: 'result.status a bool', version: 'v1', answer: v1({ ...ok, result: { status: true } }), want: 'json: cannot unmarshal bool into Go struct field Status.response.result.status of type string' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (typeof r.want === 'string') {
        assert.throws(() => convertedObjectsOf(r.version, uid, r.answer), (err: unknown) => {
          assert.ok(err instanceof ReviewAnswerError, String(err));
          assert.equal(err.message, r.want);
          return true;
        });
      } else {
        assert.deepEqual(convertedObjectsOf(r.version, uid, r.answer), r.want);
      }
    });
  }
});
