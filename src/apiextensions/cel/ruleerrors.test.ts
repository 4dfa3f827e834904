import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorBody, type FieldError } from '../../api/meta/field.js';
import type { JSONSchemaProps } from '../types.js';
import { createOptions, type SchemaCheck, type SchemaDeps } from '../validation/index.js';
import { ruleErrors, ruleShapeErrors } from './ruleerrors.js';

const AT = 'spec.validation.openAPIV3Schema';
const render = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${errorBody(e)}`);

interface Step {
  name: string;
  request: { method: string; body?: { kind?: string; spec?: { versions: { schema: { openAPIV3Schema: JSONSchemaProps } }[] } } };
  response: { status: number; body?: { details?: { causes?: { field: string; message: string }[] } } };
}

function goldenCrdSteps(file: string): Step[] {
  const g = JSON.parse(readFileSync(`../shared/reference/transcripts/golden/${file}`, 'utf8')) as { steps: Step[] };
  return g.steps.filter((s) => s.request.method === 'POST' && s.request.body?.kind === 'CustomResourceDefinition');
}

test('ruleErrors: kube v1.26 answers of golden celrules-03 (whole messages, order, paths)', () => {
  const steps = goldenCrdSteps('celrules-03-rejected-rules.json');
  assert.equal(steps.length, 11);
  for (const s of steps) {
    const schema = s.request.body!.spec!.versions[0]!.schema.openAPIV3Schema;
    const want = s.response.status === 201 ? [] : (s.response.body?.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
    assert.deepEqual(render(ruleErrors(schema, AT)), want, s.name);
  }
});

test('ruleErrors: the CRDs of golden celrules-01 and celrules-04 are accepted', () => {
  for (const f of ['celrules-01-messages.json', 'celrules-04-libraries.json']) {
    for (const s of goldenCrdSteps(f)) {
      assert.equal(s.response.status, 201);
      assert.deepEqual(render(ruleErrors(s.request.body!.spec!.versions[0]!.schema.openAPIV3Schema, AT)), [], `${f} ${s.name}`);
    }
  }
});

const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });
const spec = (s: JSONSchemaProps): JSONSchemaProps => obj({ spec: s });
const P = `${AT}.properties[spec]`;

test('ruleErrors: table of rule checks', () => {
  const cases: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
    { name: 'valid rule', schema: spec(obj({ a: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.a > 0' }] })), want: [] },
    {
      name: 'blank message',
      schema: spec(obj({}, { 'x-kubernetes-validations': [{ rule: 'true', message: '  ' }] })),
      want: [`${P}.x-kubernetes-validations[0].message: Invalid value: "  ": message must be non-empty if specified`],
    },
    {
      name: 'message with a line break',
      schema: spec(obj({}, { 'x-kubernetes-validations': [{ rule: 'true', message: 'a\nb' }] })),
      want: [`${P}.x-kubernetes-validations[0].message: Invalid value: "a\\nb": message must not contain line breaks`],
    },
    {
      name: 'multi-line rule without message',
      schema: spec(obj({}, { 'x-kubernetes-validations': [{ rule: 'true &&\ntrue' }] })),
      want: [`${P}.x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks`],
    },
    {
      name: 'blank messageExpression',
      schema: spec(obj({}, { 'x-kubernetes-validations': [{ rule: 'true', messageExpression: ' ' }] })),
      want: [`${P}.x-kubernetes-validations[0].messageExpression: Required value: messageExpression must be non-empty if specified`],
    },
    {
      name: 'messageExpression not a string',
      schema: spec(obj({}, { 'x-kubernetes-validations': [{ rule: 'true', messageExpression: '1' }] })),
      want: [`${P}.x-kubernetes-validations[0].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"true", Message:"", MessageExpression:"1"}: messageExpression must evaluate to a string`],
    },
    {
      name: 'messageExpression that does not compile',
      schema: spec(obj({}, { 'x-kubernetes-validations': [{ rule: 'true', messageExpression: 'self.x' }] })),
      want: [
        `${P}.x-kubernetes-validations[0].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"true", Message:"", MessageExpression:"self.x"}: messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'x'\n | self.x\n | ....^`,
      ],
    },
    {
      name: 'a schema error below the node blocks its compilation',
      schema: spec(obj({ a: obj({}, { 'x-kubernetes-validations': [{ rule: '' }] }) }, { 'x-kubernetes-validations': [{ rule: 'self.nope' }] })),
      want: [`${P}.properties[a].x-kubernetes-validations[0].rule: Required value: rule is not specified`],
    },
    {
      name: 'oldSelf under a set list (outermost uncorrelatable path)',
      schema: spec(obj({ xs: { type: 'array', maxItems: 2, 'x-kubernetes-list-type': 'set', items: { type: 'array', maxItems: 2, items: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } } })),
      want: [`${P}.properties[xs].items.items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${P}.properties[xs]`],
    },
    {
      name: 'oldSelf in a map value is correlatable',
      schema: spec(obj({ m: { type: 'object', maxProperties: 3, additionalProperties: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } })),
      want: [],
    },
    {
      name: 'rules under allOf are not compiled',
      schema: spec(obj({ a: { type: 'integer' } }, { allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.nope' }] }] })),
      want: [],
    },
    {
      name: 'rule on a node without a type',
      schema: spec({ 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'true' }] }),
      want: [`${P}.x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations`],
    },
    {
      name: 'root rule sees metadata.name',
      schema: obj({}, { 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a')" }] }),
      want: [],
    },
  ];
  for (const c of cases) assert.deepEqual(render(ruleErrors(c.schema, AT)), c.want, c.name);
});

test('ruleErrors: the whole-schema total names the most expensive rules', () => {
  // Each rule costs a little under the per-rule limit (bounded lists of bounded strings); many of them pass the CRD total.
  const rule = { rule: 'self.all(x, self.all(y, x == y || !x.contains(y)))' };
  const props: Record<string, JSONSchemaProps> = {};
  for (let i = 0; i < 15; i++) props[`l${i}`] = { type: 'array', maxItems: 70, items: { type: 'string', maxLength: 100 }, 'x-kubernetes-validations': [rule] };
  const got = render(ruleErrors(spec(obj(props)), AT));
  const perRule = got.filter((l) => l.includes('estimated rule cost exceeds budget'));
  const contributed = got.filter((l) => l.endsWith('contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
  assert.equal(perRule.length, 0, got.join('\n'));
  assert.equal(contributed.length, 4, got.join('\n'));
  assert.match(got.at(-1)!, /^spec\.validation\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of /);
});

test('ruleShapeErrors: the checks without compiling', () => {
  const schema = spec(obj({ a: obj({}, { 'x-kubernetes-validations': [{ rule: '' }, { rule: 'self.nope' }] }) }, { 'x-kubernetes-validations': [{ rule: 'x', message: ' ' }] }));
  assert.deepEqual(render(ruleShapeErrors(schema, AT)), [
    `${P}.properties[a].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
    `${P}.x-kubernetes-validations[0].message: Invalid value: " ": message must be non-empty if specified`,
  ]);
});

test('ruleErrors plugs into the CRD validation as its SchemaDeps.ruleErrors', () => {
  const check: SchemaCheck = ruleErrors;
  const deps: SchemaDeps = { schemaErrors: () => [], ruleErrors: check };
  const crd = {
    spec: { versions: [{ schema: { openAPIV3Schema: spec(obj({}, { 'x-kubernetes-validations': [{ rule: 'self.nope' }] })) } }] },
  };
  const errs = render(deps.ruleErrors(crd.spec.versions[0]!.schema.openAPIV3Schema, AT, createOptions()));
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /undefined field 'nope'/);
});

test('ruleErrors: an expensive messageExpression is refused on its own path and counts in the total', () => {
  const schema = spec(obj({
    names: {
      type: 'array', maxItems: 5, items: { type: 'string', maxLength: 10 },
      'x-kubernetes-validations': [{ rule: 'self.size() > 0', messageExpression: "self.all(x, self.all(y, x.contains(y))) ? 'a' : 'b'" }],
    },
    all: { type: 'array', items: { type: 'string' } },
  }, { 'x-kubernetes-validations': [{ rule: 'true', messageExpression: "self.all.all(x, self.all.all(y, x.contains(y))) ? 'a' : 'b'" }] }));
  const R = `${P}.x-kubernetes-validations[0]`;
  assert.deepEqual(render(ruleErrors(schema, AT)), [
    `${R}.messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    `${R}.messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${AT}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
  ]);
});
