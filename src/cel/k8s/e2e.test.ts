// End to end: Kubernetes-style rules (../shared/reference/cel-bench/cases.json)
// parsed, type-checked against a schema derived from each case's data
// (schemaType), planned with the standard library, the strings extension and
// the Kubernetes libraries, and evaluated on the case's JSON data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Library, OverloadImpl } from '../decls.js';
import type { Type } from '../types.js';
import { CelError, CelMap, Double, Uint } from '../values.js';
import { parse } from '../parser/index.js';
import { buildCheckEnv, check, formatType } from '../checker/index.js';
import { plan } from '../interpreter/planner.js';
import { Program } from '../interpreter/program.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { standardImpls } from '../stdlib/impls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { stringsImpls } from '../ext/strings_impls.js';
import { schemaType, type Schema } from './schema.js';
import { estimateCost } from '../cost/estimate.js';
import { k8sLibraries, authzLibrary, AUTHORIZER_TYPE, RESOURCE_CHECK_TYPE, AuthzSession, authorizerFor, evaluateWithAuthorizer, requestResourceCheck } from './index.js';
import type { Authorizer } from '../../authz/authorizer.js';

interface Case {
  name: string;
  expr: string;
  expect: unknown;
  expectError?: string;
  lib?: string;
  schemaHints?: { maps?: string[]; absent?: Record<string, string> };
  vars: Record<string, unknown>;
}

const cases = (JSON.parse(readFileSync('../shared/reference/cel-bench/cases.json', 'utf8')) as { cases: Case[] }).cases;

const LIBRARIES: Library[] = [
  { name: 'std', functions: stdlibFunctions, impls: standardImpls, variables: stdlibTypeIdents },
  { name: 'strings', functions: stringsFunctions, impls: stringsImpls },
  ...k8sLibraries,
];

/** A structural schema for JSON data (objects named in `maps` become maps). */
function schemaOf(v: unknown, maps: ReadonlySet<string>, key = ''): Schema {
  if (typeof v === 'boolean') return { type: 'boolean' };
  if (typeof v === 'number') return Number.isInteger(v) ? { type: 'integer' } : { type: 'number' };
  if (typeof v === 'string') return { type: 'string' };
  if (Array.isArray(v)) return { type: 'array', items: v.length ? merge(v.map((e) => schemaOf(e, maps))) : { type: 'string' } };
  const o = v as Record<string, unknown>;
  if (maps.has(key)) return { type: 'object', additionalProperties: merge(Object.values(o).map((e) => schemaOf(e, maps))) };
  return { type: 'object', properties: Object.fromEntries(Object.entries(o).map(([k, e]) => [k, schemaOf(e, maps, k)])) };
}

function merge(schemas: Schema[]): Schema {
  const [first, ...rest] = schemas;
  if (!first) return { type: 'string' };
  if (first.type === 'number' || (first.type === 'integer' && rest.some((s) => s.type === 'number'))) return { type: 'number' };
  if (first.type !== 'object' || !first.properties) return first;
  const props: Record<string, Schema[]> = {};
  for (const s of schemas) for (const [k, p] of Object.entries(s.properties ?? {})) (props[k] ??= []).push(p);
  return { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, ps]) => [k, merge(ps)])) };
}

function addAbsent(s: Schema, path: string, type: string): void {
  const parts = path.split('.');
  let at = s;
  for (const p of parts.slice(0, -1)) at = (at.properties ??= {})[p] ??= { type: 'object', properties: {} };
  (at.properties ??= {})[parts[parts.length - 1]!] = { type };
}

/** A runtime value as plain JSON, for comparing with `expect`. */
function plain(v: unknown): unknown {
  if (v instanceof Double) return v.v;
  if (v instanceof Uint) return Number(v.v);
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof CelMap) return Object.fromEntries([...v.entries.values()].map(([k, x]) => [String(k), plain(x)]));
  return v;
}

function compile(expr: string, variables: Record<string, Type>, libraries: Library[] = LIBRARIES): Program {
  const parsed = parse(expr);
  assert.ok(parsed.parsed, JSON.stringify(parsed.issues));
  const env = buildCheckEnv({ libraries, variables, homogeneousAggregateLiterals: true });
  const r = check(parsed.parsed, env);
  assert.ok(r.checked, `${expr}: ${JSON.stringify(r.issues)}`);
  const impls = new Map<string, OverloadImpl>();
  for (const l of libraries) for (const i of l.impls) impls.set(i.id, i);
  const p = plan({ expr: r.checked.expr, types: r.checked.types, refs: r.checked.refs }, { functions: env.functions, impls, variables: env.variables });
  return new Program(p);
}

test('e2e: cel-bench rules typed by a schema evaluate to the expected values', () => {
  let passed = 0;
  for (const c of cases) {
    const maps = new Set(c.schemaHints?.maps ?? []);
    const schema = schemaOf(c.vars['self'], maps);
    for (const [path, type] of Object.entries(c.schemaHints?.absent ?? {})) addAbsent(schema, path, type);
    const selfType = schemaType(schema, { name: 'Object' });
    assert.ok(selfType, c.name);
    const variables: Record<string, Type> = { self: selfType };
    if ('oldSelf' in c.vars) variables['oldSelf'] = selfType;
    const program = compile(c.expr, variables);
    if (c.expectError) {
      assert.throws(() => program.eval(c.vars), (e: unknown) => e instanceof CelError && e.message.includes(c.expectError!), c.name);
    } else {
      assert.deepEqual(plain(program.eval(c.vars)), c.expect, c.name);
    }
    passed++;
  }
  assert.equal(passed, 44);
});

test('e2e: rules over formats, escaped names and the Kubernetes libraries', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          'max-surge': { type: 'integer' },
          namespace: { type: 'string' },
          'app.kubernetes.io/name': { type: 'string' },
          ratio: { type: 'number' },
          start: { type: 'string', format: 'date-time' },
          every: { type: 'string', format: 'duration' },
          payload: { type: 'string', format: 'byte' },
          weights: { type: 'array', items: { type: 'number' } },
          timeouts: { type: 'array', items: { type: 'string', format: 'duration' } },
          port: { 'x-kubernetes-int-or-string': true },
          endpoint: { type: 'string' },
        },
      },
    },
  };
  const self = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w1', labels: { a: 'b' } },
    spec: {
      'max-surge': 2, namespace: 'prod', 'app.kubernetes.io/name': 'web', ratio: 1, start: '2024-03-01T12:00:00Z', every: '90m',
      payload: 'aGVsbG8=', weights: [1, 2.5], timeouts: ['1s', '30s', '2m'], port: 'http', endpoint: 'https://api.example.com:8443/v1?x=1',
    },
  };
  const selfType = schemaType(schema, { name: 'Object', resourceRoot: true })!;
  const rows: [string, unknown][] = [
    ['self.spec.max__dash__surge + 1', 3],
    ['self.spec.__namespace__', 'prod'],
    ['self.spec.app__dot__kubernetes__dot__io__slash__name', 'web'],
    ['self.spec.ratio == 1.0 && type(self.spec.ratio) == double', true],
    ['self.spec.start + self.spec.every == timestamp("2024-03-01T13:30:00Z")', true],
    ['self.spec.payload == b"hello"', true],
    ['self.spec.weights.sum()', 3.5],
    ['self.spec.timeouts.max() == duration("2m") && self.spec.timeouts.isSorted()', true],
    ['self.spec.timeouts.indexOf(duration("30s"))', 1],
    ["type(self.spec.port) == string ? self.spec.port.find('[a-z]+') : ''", 'http'],
    ['url(self.spec.endpoint).getQuery()', { x: ['1'] }],
    ['isURL(self.spec.endpoint) && url(self.spec.endpoint).getPort() == "8443"', true],
    ['self.metadata.name + "/" + self.kind', 'w1/Widget'],
    ["'a1 b22 c333'.findAll('[0-9]+', 2)", ['1', '22']],
    ['[3, 1, 2].min()', 1],
  ];
  for (const [expr, want] of rows) assert.deepEqual(plain(compile(expr, { self: selfType }).eval({ self })), want, expr);
  // The type checker sees the schema: unknown and inaccessible fields are rejected.
  const env = buildCheckEnv({ libraries: LIBRARIES, variables: { self: selfType } });
  for (const [expr, message] of [
    ['self.metadata.labels', "undefined field 'labels'"],
    ['self.spec.namespace', "undefined field 'namespace'"],
    ['self.spec.missing', "undefined field 'missing'"],
  ] as const) {
    const r = check(parse(expr).parsed!, env);
    assert.ok(!r.checked || r.issues.length > 0, expr);
    assert.ok(r.issues.some((i) => i.message.includes(message)), `${expr}: ${JSON.stringify(r.issues)}`);
  }
  assert.equal(formatType(selfType), 'Object');
  // Runtime errors of the libraries reach the caller.
  assert.throws(() => compile("url('not a url')", {}).eval({}), (e: unknown) => e instanceof CelError && e.message === 'URL parse error during conversion from string: parse "not a url": invalid URI for request');
  assert.throws(() => compile('self.spec.timeouts.filter(t, t > duration("1h")).min()', { self: selfType }).eval({ self }), (e: unknown) => e instanceof CelError && e.message === 'min called on empty list');
});

test('e2e: the authorizer library in an admission-style rule', async () => {
  const authz: Authorizer = {
    name: 'webhook',
    authorize: async (a) => ({
      decision: a.isResourceRequest && a.resource === 'secrets' && a.verb === 'get' ? 'allow' : 'noOpinion',
      reason: a.isResourceRequest ? `asked about ${a.resource}` : '',
    }),
  };
  const session = new AuthzSession(authz);
  const authorizer = authorizerFor(session, { name: 'bob', groups: [] });
  const libs = [...LIBRARIES, authzLibrary];
  const p = compile(
    "authorizer.group('').resource('secrets').namespace('ns').check('get').allowed() && !authorizer.group('').resource('configmaps').check('delete').allowed()",
    { authorizer: AUTHORIZER_TYPE },
    libs,
  );
  assert.equal(await evaluateWithAuthorizer(session, () => p.eval({ authorizer })), true);
  const reason = compile("authorizer.path('/metrics').check('get').reason() + authorizer.group('apps').resource('deployments').check('list').reason()", { authorizer: AUTHORIZER_TYPE }, libs);
  assert.equal(await evaluateWithAuthorizer(session, () => reason.eval({ authorizer })), 'asked about deployments');
  // kube declares the request's own resource as the variable `authorizer.requestResource`.
  const own = compile(
    "authorizer.requestResource.check('get').allowed() && authorizer.requestResource.subresource('status').check('get').reason() == 'asked about secrets'",
    { authorizer: AUTHORIZER_TYPE, 'authorizer.requestResource': RESOURCE_CHECK_TYPE },
    libs,
  );
  const requestResource = requestResourceCheck(authorizer, { group: '', resource: 'secrets', namespace: 'ns', name: 's1' });
  assert.equal(await evaluateWithAuthorizer(session, () => own.eval({ authorizer, 'authorizer.requestResource': requestResource })), true);
  const bad = compile("authorizer.serviceAccount('ns', 'Not Valid').path('/x').check('get').allowed()", { authorizer: AUTHORIZER_TYPE }, libs);
  await assert.rejects(evaluateWithAuthorizer(session, () => bad.eval({ authorizer })), (e: unknown) => e instanceof CelError && e.message === 'Invalid service account name');
});

// The x-kubernetes-validations rules of real CRDs, each checked with `self`
// typed by the schema it sits on (as kube compiles CRD rules), and evaluated
// on data that satisfies / breaks it.
const CRD_FILES = [
  'cert-manager/cert-manager.io_issuers.yaml',
  'prometheus-operator/monitoring.coreos.com_scrapeconfigs.yaml',
  'prometheus-operator/monitoring.coreos.com_alertmanagerconfigs.yaml',
];

test('e2e: real CRD rules type-check against their schemas', async () => {
  const { parse: parseYaml } = await import('yaml');
  const found: { rule: string; schema: Schema; path: string }[] = [];
  const walk = (s: Schema, path: string): void => {
    for (const v of (s['x-kubernetes-validations'] as { rule: string }[] | undefined) ?? []) found.push({ rule: v.rule, schema: s, path });
    for (const [k, p] of Object.entries(s.properties ?? {})) walk(p, `${path}.${k}`);
    if (s.items) walk(s.items, `${path}[]`);
    if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}{}`);
  };
  for (const f of CRD_FILES) {
    const doc = parseYaml(readFileSync(`../shared/reference/crds/${f}`, 'utf8'), { maxAliasCount: -1 }) as { spec: { versions: { schema: { openAPIV3Schema: Schema } }[] } };
    walk(doc.spec.versions[0]!.schema.openAPIV3Schema, f);
  }
  assert.equal(found.length, 3);
  for (const { rule, schema, path } of found) {
    const selfType = schemaType(schema, { name: 'selfType0' });
    assert.ok(selfType, path);
    compile(rule, { self: selfType, oldSelf: selfType });
  }
  // cert-manager's Venafi issuer: exactly one of tpp, cloud or ngts.
  const venafi = found.find((x) => x.rule.includes('has(self.tpp)'))!;
  const p = compile(venafi.rule, { self: schemaType(venafi.schema, { name: 'selfType0' })! });
  assert.equal(p.eval({ self: { zone: 'z', tpp: { url: 'https://tpp' } } }), true);
  assert.equal(p.eval({ self: { zone: 'z', tpp: { url: 'https://tpp' }, cloud: {} } }), false);
  assert.equal(p.eval({ self: { zone: 'z' } }), false);
});

// Kubernetes' CRD rule cost estimates (apiextensions-apiserver compilation_test.go
// TestCostEstimation, v1.27) over Types from schemaType: without bounds (kube's
// per-request estimates) and with maxItems/maxProperties/maxLength set.
test('e2e: estimated costs of rules over schema types match kube', () => {
  const item = (type: string, format?: string): Schema => (type === 'int-or-string' ? { 'x-kubernetes-int-or-string': true } : format ? { type, format } : { type });
  const array = (items: Schema) => (max?: number): Schema => ({ type: 'array', items, ...(max !== undefined ? { maxItems: max } : {}) });
  const map = (values: Schema) => (max?: number): Schema => ({ type: 'object', additionalProperties: values, ...(max !== undefined ? { maxProperties: max } : {}) });
  const string = (max?: number): Schema => ({ type: 'string', ...(max !== undefined ? { maxLength: max } : {}) });
  const objects = array({ type: 'object', required: ['required'], properties: { required: { type: 'string' }, optional: { type: 'string' } } });
  const rows: [name: string, schema: (max?: number) => Schema, rule: string, calc: number, max: number, set: number][] = [
    ['number array with all', array(item('number')), 'self.all(x, true)', 4718591, 10, 32],
    ['string array with all', array(item('string')), 'self.all(x, true)', 3145727, 20, 62],
    ['boolean array with all', array(item('boolean')), 'self.all(x, true)', 1887437, 5, 17],
    ['array of number arrays with all', array({ type: 'array', items: item('number') }), 'self.all(x, true)', 3145727, 100, 302],
    ['array of objects with all', objects, 'self.all(x, true)', 555128, 50, 152],
    ['map of numbers with all', map(item('number')), 'self.all(x, true)', 1348169, 10, 32],
    ['map of strings with all', map(item('string')), 'self.all(x, true)', 1179647, 3, 11],
    ['map of booleans with all', map(item('boolean')), 'self.all(x, true)', 943718, 100, 302],
    ['string with contains', string, "self.contains('test')", 314574, 10, 5],
    ['concat string', string, "size(self + 'hello') > size('hello')", 314578, 4, 7],
    ['regex matches simple', string, "self.matches('x')", 314574, 50, 22],
    ['int-or-string array with all', array(item('int-or-string')), 'self.all(x, true)', 4718591, 10, 32],
    ['set maxLength greater than estimated maxLength', array(item('number')), 'self.all(x, x == 0.0)', 6291454, 3 * 1024 * 2048, 25165826],
  ];
  for (const [name, schema, rule, calc, max, set] of rows) {
    for (const [s, want] of [[schema(), calc], [schema(max), set]] as const) {
      const t = schemaType(s, { name: 'selfType0' })!;
      const env = buildCheckEnv({ libraries: LIBRARIES, variables: { self: t, oldSelf: t }, homogeneousAggregateLiterals: true });
      const r = check(parse(rule).parsed!, env);
      assert.ok(r.checked, name);
      assert.equal(estimateCost(r.checked).max, want, `${name} (${s === undefined ? '' : JSON.stringify(s).slice(0, 60)})`);
    }
  }
});
