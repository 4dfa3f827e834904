// The admission engine over src/cel: kube's environments, types, texts, cost and the authorizer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Authorizer, Decision } from '../../authz/authorizer.js';
import { CelAdmissionEngine } from './celengine.js';
import type { AdmissionActivation, CompileOutcome } from './engine.js';
import { PER_CALL_LIMIT } from './limits.js';

const engine = new CelAdmissionEngine();
const ALL = { hasParams: true, hasAuthorizer: true };
const allowing = (name: string): Authorizer => ({ name: 'test', authorize: (a) => ({ decision: a.user.name === name ? 'allow' : 'noOpinion', reason: '' }) });
const vars = (authorizer: Authorizer = allowing('alice')): AdmissionActivation => ({
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { a: 'b' } }, data: { k: 'v' } },
  oldObject: null, params: { data: { max: '3' } },
  request: { uid: '', operation: 'CREATE', name: 'cm', userInfo: { username: 'alice', groups: ['devs'] }, kind: { group: '', version: 'v1', kind: 'ConfigMap' } },
  authorizer: { user: { name: 'alice', groups: ['devs'] }, authorizer, resource: { group: '', version: 'v1', resource: 'configmaps', subresource: '', namespace: 'ns', name: 'cm' } },
});
const compiled = (expr: string, v = ALL): CompileOutcome => engine.compile(expr, v);
const run = (expr: string, a = vars()) => {
  const c = compiled(expr);
  if (!c.ok) throw new Error(c.issues);
  const out = c.program.eval(a, PER_CALL_LIMIT);
  return out.ok === true ? { value: out.value } : out.ok === false ? { error: out.error } : { pending: true };
};

describe('admission engine: compile', () => {
  const rows: [string, string, typeof ALL, string][] = [
    ['a boolean', "object.metadata.name == 'cm'", ALL, 'bool'],
    ['dyn from object', 'object.metadata.name', ALL, 'dyn'],
    ['the typed request', 'request.userInfo.username', ALL, 'string'],
    ['null', 'null', ALL, 'null_type'],
    ['the strings extension', "'a,b'.split(',').size() == 2", ALL, 'bool'],
    ['Kubernetes lists', '[1, 2].isSorted()', ALL, 'bool'],
    ['the authorizer', "authorizer.group('').resource('pods').check('get').allowed()", ALL, 'bool'],
  ];
  for (const [name, expr, v, type] of rows) {
    it(name, () => {
      const c = compiled(expr, v);
      assert.ok(c.ok, c.ok ? '' : c.issues);
      assert.equal(c.ok && c.outputType, type);
    });
  }
  const errors: [string, string, typeof ALL, string][] = [
    ['an undefined field of the request', 'request.nope', ALL, "ERROR: <input>:1:8: undefined field 'nope'\n | request.nope\n | .......^"],
    ['params without a paramKind', 'params.x', { hasParams: false, hasAuthorizer: true }, "ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x\n | ^"],
    ['the authorizer in a messageExpression', 'authorizer.path("/x").check("get").allowed()', { hasParams: false, hasAuthorizer: false }, "ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path(\"/x\").check(\"get\").allowed()\n | ^"],
  ];
  for (const [name, expr, v, issues] of errors) {
    it(name, () => assert.deepEqual(compiled(expr, v), { ok: false, issues }));
  }
});

describe('admission engine: evaluate', () => {
  it('values and errors as cel-go words them', () => {
    assert.deepEqual(run("object.metadata.labels.a == 'b' && size(object.data) < int(params.data.max)"), { value: true });
    assert.deepEqual(run('object.data.missing'), { error: 'no such key: missing' });
    assert.deepEqual(run('request.namespace'), { error: 'no such key: namespace' });
  });
  it('the authorizer and authorizer.requestResource decide as the request\'s user', () => {
    assert.deepEqual(run("authorizer.requestResource.check('create').allowed()"), { value: true });
    assert.deepEqual(run("authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('get').allowed()"), { value: false });
  });
  it('an authorizer that waits: pending, then decided with the same variables', async () => {
    let calls = 0;
    const slow: Authorizer = { name: 'slow', authorize: () => { calls++; return Promise.resolve<Decision>({ decision: 'allow', reason: '' }); } };
    const a = vars(slow);
    const c = compiled("authorizer.group('').resource('pods').check('get').allowed()");
    assert.ok(c.ok);
    const first = c.program.eval(a, PER_CALL_LIMIT);
    assert.equal(first.ok, 'pending');
    await (first as { settled: Promise<void> }).settled;
    const second = c.program.eval(a, PER_CALL_LIMIT);
    assert.deepEqual({ ok: second.ok, value: (second as { value: unknown }).value }, { ok: true, value: true });
    assert.equal(calls, 1);
  });
  it('the per-call cost limit', () => {
    assert.deepEqual(run("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(a, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(b, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(c, authorizer.path('/' + string(a) + string(b) + string(c)).check('get').allowed() || true)))"),
      { error: 'operation cancelled: actual cost limit exceeded' });
  });
});

describe('admission engine: type checking (status.typeChecking)', () => {
  const schema = { type: 'object', properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } };
  it('fields the schema lacks; params typed too', () => {
    assert.equal(engine.typeCheck("object.data['a'] == 'b'", false, { object: schema }), undefined);
    assert.equal(engine.typeCheck('object.spec == 1', false, { object: schema }), "ERROR: <input>:1:7: undefined field 'spec'\n | object.spec == 1\n | ......^");
    assert.equal(engine.typeCheck('params.x == 1', true, { object: schema, params: schema }), "ERROR: <input>:1:7: undefined field 'x'\n | params.x == 1\n | ......^");
    assert.equal(engine.typeCheck('params.x == 1', true, { object: schema }), undefined);
  });
});
