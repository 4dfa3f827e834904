import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorBody, type FieldError } from '../../api/meta/field.js';
import type { JSONSchemaProps } from '../types.js';
import { compileCrdRules, rulesNotCheckedError, type CrdRuleValidator } from './validator.js';

const render = (errs: readonly FieldError[]) => errs.map((e) => `${e.field}: ${errorBody(e)}`);

interface Step {
  name: string;
  request: { method: string; path: string; body?: Record<string, unknown> & { kind?: string; spec?: { versions: { schema: { openAPIV3Schema: JSONSchemaProps } }[] } } };
  response: { status: number; body?: { details?: { causes?: { field: string; message: string }[] } } };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Record<string, unknown> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) out[k] = v === null ? undefined : mergePatch(out[k], v);
  return out;
}

/** Replays a golden's custom-resource writes through the validator; checks the 422s made of rule failures. */
function replay(file: string): number {
  const g = JSON.parse(readFileSync(`../shared/reference/transcripts/golden/${file}`, 'utf8')) as { steps: Step[] };
  let validator: CrdRuleValidator | null = null;
  const stored = new Map<string, unknown>();
  let checked = 0;
  for (const s of g.steps) {
    const body = s.request.body;
    if (body?.kind === 'CustomResourceDefinition') {
      validator = compileCrdRules(body.spec!.versions[0]!.schema.openAPIV3Schema);
      continue;
    }
    if (!validator || !/^\/apis\/cel0\d\.example\.com\//.test(s.request.path)) continue;
    if (s.request.method !== 'POST' && s.request.method !== 'PATCH') continue;
    const name = s.request.method === 'POST' ? String((body!.metadata as { name: string }).name) : s.request.path.split('/').at(-1)!;
    const old = s.request.method === 'PATCH' ? stored.get(name) : undefined;
    const obj = s.request.method === 'PATCH' ? mergePatch(old, body) : body;
    const causes = (s.response.body?.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
    if (causes.some((c) => !c.includes(': Invalid value: "'))) continue; // schema errors: not the rules' part (see the rulesNotChecked test)
    const { errors } = validator.validate(obj, old);
    assert.deepEqual(render(errors), s.response.status < 300 ? [] : causes, `${file} ${s.name}`);
    if (s.response.status < 300 && !s.request.path.includes('dryRun')) stored.set(name, obj);
    checked++;
  }
  return checked;
}

test('validator: golden celrules-01 (messages, default message, nested, list and root rules, several failures, patches, dry-run)', () => {
  assert.equal(replay('celrules-01-messages.json'), 10);
});

test('validator: golden celrules-04 (lists, regex, URL, strings libraries; map key iteration)', () => {
  assert.equal(replay('celrules-04-libraries.json'), 10);
});

test('validator: rulesNotCheckedError renders as kube', () => {
  assert.deepEqual(render([rulesNotCheckedError()]), [
    '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  ]);
});

test('validator: null when no rules; compiled once per schema', () => {
  const plain: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } };
  assert.equal(compileCrdRules(plain), null);
  const s: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] };
  assert.equal(compileCrdRules(s), compileCrdRules(s));
});

const withSpec = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });

interface Case {
  name: string;
  spec: JSONSchemaProps;
  obj: unknown;
  old?: unknown;
  budget?: number;
  want: string[];
}

const cases: Case[] = [
  {
    name: 'transition rule skipped on create',
    spec: { type: 'object', properties: { x: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'x is immutable' }] } } },
    obj: { x: 'a' },
    want: [],
  },
  {
    name: 'transition rule on update',
    spec: { type: 'object', properties: { x: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'x is immutable' }] } } },
    obj: { x: 'a' },
    old: { x: 'b' },
    want: ['spec.x: Invalid value: "string": x is immutable'],
  },
  {
    name: 'transition rule: an added field has no old value',
    spec: { type: 'object', properties: { x: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } },
    obj: { x: 'a' },
    old: {},
    want: [],
  },
  {
    name: 'map list items correlate by key',
    spec: {
      type: 'object',
      properties: {
        xs: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'v must not decrease' }] } } },
        },
      },
    },
    obj: { xs: [{ name: 'b', v: 1 }, { name: 'a', v: 5 }, { name: 'c', v: 0 }] },
    old: { xs: [{ name: 'a', v: 3 }, { name: 'b', v: 2 }] },
    want: ['spec.xs[0].v: Invalid value: "integer": v must not decrease'],
  },
  {
    name: 'map list with two keys; items without a key have no old value',
    spec: {
      type: 'object',
      properties: {
        xs: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' }, v: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] } } },
        },
      },
    },
    obj: { xs: [{ port: 80, protocol: 'TCP', v: 'x' }, { port: 80, protocol: 'UDP', v: 'y' }, { protocol: 'TCP', v: 'z' }] },
    old: { xs: [{ port: 80, protocol: 'UDP', v: 'y2' }, { port: 80, protocol: 'TCP', v: 'x' }, { protocol: 'TCP', v: 'w' }] },
    want: ['spec.xs[1].v: Invalid value: "string": immutable'],
  },
  {
    name: 'atomic lists do not correlate',
    spec: { type: 'object', properties: { xs: { type: 'array', items: { type: 'object', properties: { v: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] } } } } } },
    obj: { xs: [{ v: 'a' }] },
    old: { xs: [{ v: 'b' }] },
    want: [],
  },
  {
    name: 'map values correlate by key',
    spec: { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] } } } },
    obj: { m: { a: '1', b: '2' } },
    old: { m: { a: '1', b: '3' } },
    want: ['spec.m[b]: Invalid value: "string": immutable'],
  },
  {
    name: 'messageExpression',
    spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n < 10', messageExpression: "'n is ' + string(self.n) + ', above 9'" }] },
    obj: { n: 12 },
    want: ['spec: Invalid value: "object": n is 12, above 9'],
  },
  {
    name: 'messageExpression blank: the message, else the default',
    spec: {
      type: 'object',
      properties: { n: { type: 'integer' } },
      'x-kubernetes-validations': [
        { rule: 'self.n < 10', message: 'too big', messageExpression: "'  '" },
        { rule: 'self.n < 5', messageExpression: "'a\\nb'" },
      ],
    },
    obj: { n: 12 },
    want: ['spec: Invalid value: "object": too big', 'spec: Invalid value: "object": failed rule: self.n < 5'],
  },
  {
    name: 'messageExpression out of budget',
    spec: { type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule: 'self.xs.size() < 3', messageExpression: "self.xs.map(x, string(x)).join(',')" }] },
    obj: { xs: Array.from({ length: 50 }, (_, i) => i) },
    budget: 50,
    want: ['spec: Invalid value: "object": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'],
  },
  {
    name: 'messageExpression over the per-call limit',
    spec: {
      type: 'object',
      properties: { xs: { type: 'array', items: { type: 'integer' } } },
      'x-kubernetes-validations': [
        { rule: 'self.xs.size() < 3', messageExpression: "self.xs.all(x, self.xs.all(y, x != y || x == y)) ? \"slow\" : 'x'" },
        { rule: 'false', message: 'not reached' },
      ],
    },
    obj: { xs: Array.from({ length: 1000 }, (_, i) => i) },
    want: ['spec: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: "self.xs.all(x, self.xs.all(y, x != y || x == y)) ? \\"slow\\" : \'x\'"'],
  },
  {
    name: 'messageExpression that fails to evaluate: the default message',
    spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n < 10', messageExpression: "string(10 / (self.n - 12))" }] },
    obj: { n: 12 },
    want: ['spec: Invalid value: "object": failed rule: self.n < 10'],
  },
  {
    name: 'evaluation error',
    spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: '10 / self.n > 1' }] },
    obj: { n: 0 },
    want: ['spec: Invalid value: "object": division by zero evaluating rule: 10 / self.n > 1'],
  },
  {
    name: 'no overload at runtime (int-or-string compared with an int)',
    spec: { type: 'object', properties: { x: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: 'self > 1' }] } } },
    obj: { x: 'abc' },
    want: ['spec.x: Invalid value: "": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: self > 1'],
  },
  {
    name: 'formats: durations and date-times are typed',
    spec: { type: 'object', properties: { d: { type: 'string', format: 'duration', 'x-kubernetes-validations': [{ rule: "self < duration('1h')", message: 'at most an hour' }] } } },
    obj: { d: '2h' },
    want: ['spec.d: Invalid value: "string": at most an hour'],
  },
  {
    name: 'out of budget',
    spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n > 0' }, { rule: 'self.n > 1' }] },
    obj: { n: 5 },
    budget: 3,
    want: ['spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run'],
  },
  {
    name: 'per-call limit',
    spec: {
      type: 'object',
      properties: { xs: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x != y || x == y))', message: 'slow' }] } },
      'x-kubernetes-validations': [{ rule: 'false', message: 'never reached after the limit' }],
    },
    obj: { xs: Array.from({ length: 1000 }, (_, i) => i) },
    want: [
      'spec: Invalid value: "object": never reached after the limit',
      "spec.xs: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: slow",
    ],
  },
];

test('validator: table', () => {
  for (const c of cases) {
    const v = compileCrdRules(withSpec(c.spec));
    assert.ok(v, c.name);
    const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec: c.obj };
    const old = c.old === undefined ? undefined : { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec: c.old };
    assert.deepEqual(render(v.validate(obj, old, c.budget === undefined ? undefined : { budget: c.budget }).errors), c.want, c.name);
  }
});

test('validator: the budget left is reported and shrinks with each evaluation', () => {
  const v = compileCrdRules(withSpec({ type: 'object', properties: { xs: { type: 'array', maxItems: 10, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x > 0)' }] } } }))!;
  const small = v.validate({ spec: { xs: [1] } }, undefined, { budget: 1000 }).remainingBudget;
  const large = v.validate({ spec: { xs: [1, 2, 3, 4, 5, 6, 7, 8] } }, undefined, { budget: 1000 }).remainingBudget;
  assert.ok(small < 1000 && large < small, `${small} ${large}`);
});
