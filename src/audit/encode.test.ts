import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventJSON, eventListJSON, eventString, microTime, rfc3339Nano, str } from './encode.js';
import { annotationsObject } from './record.js';
import type { AuditEvent } from './types.js';

// 2023-04-11T10:20:30.000123Z and 2023-04-11T10:20:30.5Z in microseconds
const T0 = Date.UTC(2023, 3, 11, 10, 20, 30) * 1000 + 123;
const T1 = Date.UTC(2023, 3, 11, 10, 20, 30) * 1000 + 500_000;

const base: AuditEvent = {
  level: 'Metadata', auditID: 'a1b2', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/default/pods?limit=500', verb: 'list',
  user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] }, sourceIPs: ['127.0.0.1'], userAgent: 'kubectl/v1.27.3',
  objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' }, responseStatus: { code: 200 },
  requestReceivedTimestamp: T0, stageTimestamp: T1,
  annotations: { 'authorization.k8s.io/reason': '', 'authorization.k8s.io/decision': 'allow' },
};

describe('audit event encoding', () => {
  it('writes MicroTime with six digits and RFC3339Nano without trailing zeros', () => {
    assert.equal(microTime(T0), '2023-04-11T10:20:30.000123Z');
    assert.equal(microTime(T1), '2023-04-11T10:20:30.500000Z');
    assert.equal(rfc3339Nano(T1), '2023-04-11T10:20:30.5Z');
    assert.equal(rfc3339Nano(Date.UTC(2023, 0, 1) * 1000), '2023-01-01T00:00:00Z');
  });

  const cases: [string, AuditEvent, string][] = [
    ['a Metadata list as kube writes it (fields in order, annotations sorted)', base,
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a1b2","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/pods?limit=500","verb":"list","user":{"username":"admin","groups":["system:masters","system:authenticated"]},"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.27.3","objectRef":{"resource":"pods","namespace":"default","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200},"requestReceivedTimestamp":"2023-04-11T10:20:30.000123Z","stageTimestamp":"2023-04-11T10:20:30.500000Z","annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":""}}'],
    ['a failure with impersonation and objects', {
      ...base, level: 'RequestResponse', verb: 'create', impersonatedUser: { username: 'bob', groups: ['system:authenticated'], extra: { z: ['1'], a: ['2'] } },
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'x', apiVersion: 'v1' },
      responseStatus: { status: 'Failure', message: 'configmaps "x" already exists', reason: 'AlreadyExists', details: { name: 'x', kind: 'configmaps' }, code: 409 },
      requestObject: '{"kind":"ConfigMap"}', responseObject: '{"kind":"Status"}', annotations: {},
    }, '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"a1b2","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/pods?limit=500","verb":"create","user":{"username":"admin","groups":["system:masters","system:authenticated"]},"impersonatedUser":{"username":"bob","groups":["system:authenticated"],"extra":{"a":["2"],"z":["1"]}},"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.27.3","objectRef":{"resource":"configmaps","namespace":"default","name":"x","apiVersion":"v1"},"responseStatus":{"metadata":{},"status":"Failure","message":"configmaps \\"x\\" already exists","reason":"AlreadyExists","details":{"name":"x","kind":"configmaps"},"code":409},"requestObject":{"kind":"ConfigMap"},"responseObject":{"kind":"Status"},"requestReceivedTimestamp":"2023-04-11T10:20:30.000123Z","stageTimestamp":"2023-04-11T10:20:30.500000Z"}'],
    ['a failed authentication: no user, no objectRef', {
      level: 'Metadata', auditID: 'x', stage: 'ResponseStarted', requestURI: '/api', verb: 'get', user: {}, sourceIPs: [], userAgent: '',
      responseStatus: { message: 'Authentication failed, attempted: bearer', code: 401 }, requestReceivedTimestamp: T0, stageTimestamp: T0,
    }, '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"x","stage":"ResponseStarted","requestURI":"/api","verb":"get","user":{},"responseStatus":{"metadata":{},"message":"Authentication failed, attempted: bearer","code":401},"requestReceivedTimestamp":"2023-04-11T10:20:30.000123Z","stageTimestamp":"2023-04-11T10:20:30.000123Z"}'],
  ];
  for (const [name, ev, want] of cases) {
    it(name, () => {
      assert.equal(eventJSON(ev), want);
      JSON.parse(eventJSON(ev));
    });
  }

  it('annotations: a frozen object shared by events is encoded once; an unfrozen one each time', () => {
    const ann = (o: AuditEvent) => JSON.parse(eventJSON(o)).annotations;
    const shared = annotationsObject(new Map([['b', '2'], ['a', '1']]));
    assert.equal(annotationsObject(new Map([['b', '2'], ['a', '1']])), shared, 'the same keys and values give the same object');
    assert.notEqual(annotationsObject(new Map([['b', '2'], ['a', '3']])), shared);
    const again = annotationsObject(new Map([['b', '2'], ['a', '1']]));
    assert.deepEqual(ann({ ...base, annotations: again }), { a: '1', b: '2' });
    assert.deepEqual(ann({ ...base, annotations: again }), { a: '1', b: '2' });
    assert.throws(() => ((again as Record<string, string>).c = 'x'), TypeError, 'events share it: frozen');
    const loose: Record<string, string> = { x: '1' };
    assert.deepEqual(ann({ ...base, annotations: loose }), { x: '1' });
    loose.y = '2';
    assert.deepEqual(ann({ ...base, annotations: loose }), { x: '1', y: '2' });
    assert.equal(JSON.parse(eventJSON({ ...base, annotations: Object.freeze({}) })).annotations, undefined);
  });

  it('writes the svc.io spelling on request, and EventLists', () => {
    assert.match(eventJSON(base, 'audit.svc.io/v1'), /^\{"kind":"Event","apiVersion":"audit.svc.io\/v1",/);
    const list = JSON.parse(eventListJSON([base, base]));
    assert.equal(list.kind, 'EventList');
    assert.equal(list.apiVersion, 'audit.k8s.io/v1');
    assert.deepEqual(list.metadata, {});
    assert.equal(list.items.length, 2);
  });

  it('writes the legacy line (kube EventString)', () => {
    assert.equal(eventString(base),
      '2023-04-11T10:20:30.000123Z AUDIT: id="a1b2" stage="ResponseComplete" ip="127.0.0.1" method="list" user="admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.27.3" namespace="default" uri="/api/v1/namespaces/default/pods?limit=500" response="200"');
    assert.equal(eventString({ ...base, stage: 'RequestReceived', user: {}, sourceIPs: [], objectRef: undefined, responseStatus: undefined, impersonatedUser: { username: 'bob', groups: ['g'] } }),
      '2023-04-11T10:20:30.000123Z AUDIT: id="a1b2" stage="RequestReceived" ip="<unknown>" method="list" user="<none>" groups="<none>" as="bob" asgroups="\\"g\\"" user-agent="kubectl/v1.27.3" namespace="<none>" uri="/api/v1/namespaces/default/pods?limit=500" response="<deferred>"');
  });
});

describe('str: a string quoted as JSON.stringify quotes it', () => {
  const rows: [string, string][] = [
    ['plain', '/api/v1/namespaces/default/configmaps/x'],
    ['empty', ''],
    ['quote', 'say "hi"'],
    ['backslash', 'a\\b'],
    ['control characters', 'line\nnext\ttab\u0000nul\u001f'],
    ['non-ASCII', 'naïve — 日本'],
    ['U+2028 and U+2029 (left as they are)', 'a\u2028b\u2029c'],
    ['a surrogate pair', 'emoji 😀'],
    ['a lone surrogate (escaped)', 'x\ud800y'],
    ['DEL and Latin-1', '\u007f\u00ff'],
  ];
  for (const [name, s] of rows) it(name, () => assert.equal(str(s), JSON.stringify(s)));
});
