// The schema callbacks: where kube validates each schema (hoisted or per
// version), with which options, and when the rule errors count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invalid, required, forbidden } from '../../api/meta/field.js';
import type { CustomResourceDefinition } from '../types.js';
import { validateCrdCreate } from './crd.js';
import { createOptions } from './options.js';
import { baseCrd, fakeDeps, render } from './testfixtures.js';

const withTwoVersions = (sameSchema: boolean): CustomResourceDefinition => {
  const c = baseCrd();
  const v2 = { ...structuredClone(c.spec.versions[0]!), name: 'v2', storage: false };
  if (!sameSchema) v2.schema!.openAPIV3Schema!.description = 'v2';
  c.spec.versions.push(v2);
  return c;
};

describe('schema callbacks: paths', () => {
  const cases: { name: string; crd: () => CustomResourceDefinition; paths: string[] }[] = [
    { name: 'one version: the schema is hoisted to spec.validation', crd: baseCrd, paths: ['spec.validation.openAPIV3Schema'] },
    { name: 'identical schemas are hoisted', crd: () => withTwoVersions(true), paths: ['spec.validation.openAPIV3Schema'] },
    { name: 'different schemas stay per version', crd: () => withTwoVersions(false), paths: ['spec.versions[0].schema.openAPIV3Schema', 'spec.versions[1].schema.openAPIV3Schema'] },
    {
      name: 'a Go zero value written out still counts as identical',
      crd: () => {
        const c = withTwoVersions(true);
        Object.assign(c.spec.versions[1]!.schema!.openAPIV3Schema!, { nullable: false, description: '', required: [] });
        return c;
      },
      paths: ['spec.validation.openAPIV3Schema'],
    },
    {
      name: 'a pointer written out (preserve-unknown-fields false) differs',
      crd: () => {
        const c = withTwoVersions(true);
        c.spec.versions[1]!.schema!.openAPIV3Schema!['x-kubernetes-preserve-unknown-fields'] = false;
        return c;
      },
      paths: ['spec.versions[0].schema.openAPIV3Schema', 'spec.versions[1].schema.openAPIV3Schema'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { deps, calls } = fakeDeps();
      assert.deepEqual(validateCrdCreate(c.crd(), deps), []);
      assert.deepEqual(calls.filter((x) => x.fn === 'schemaErrors').map((x) => x.path), c.paths);
      assert.deepEqual(calls.filter((x) => x.fn === 'ruleErrors').map((x) => x.path), c.paths);
    });
  }

  it('create passes kube\'s strict options', () => {
    const { deps, calls } = fakeDeps();
    validateCrdCreate(baseCrd(), deps);
    assert.deepEqual(calls[0]!.opts, createOptions());
    assert.equal(calls[0]!.opts.requireStructuralSchema, true);
  });

  it('golden celrules-03 empty-rule: the rule error appears under the hoisted path, word for word', () => {
    const { deps } = fakeDeps({ ruleErrors: (p) => [required(`${p}.properties[spec].x-kubernetes-validations[0].rule`, 'rule is not specified')] });
    assert.deepEqual(render(validateCrdCreate(baseCrd(), deps)), ['spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified']);
  });

  it('schema errors come after the root checks and before rule errors', () => {
    const c = baseCrd();
    c.spec.versions[0]!.schema!.openAPIV3Schema!.nullable = true;
    const { deps } = fakeDeps({ schemaErrors: (p) => [invalid(`${p}.properties[spec].type`, 'x', 'bad')] }, { celReady: () => true });
    const { deps: ruled } = fakeDeps(
      { schemaErrors: (p) => [invalid(`${p}.properties[spec].type`, 'x', 'bad')], ruleErrors: (p) => [forbidden(`${p}.properties[status].x-kubernetes-validations[0].rule`, 'too expensive')] },
      { celReady: () => true },
    );
    assert.deepEqual(render(validateCrdCreate(c, deps)), [
      'spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root',
      'spec.validation.openAPIV3Schema.properties[spec].type: Invalid value: "x": bad',
    ]);
    assert.deepEqual(render(validateCrdCreate(c, ruled)).slice(1), [
      'spec.validation.openAPIV3Schema.properties[spec].type: Invalid value: "x": bad',
      'spec.validation.openAPIV3Schema.properties[status].x-kubernetes-validations[0].rule: Forbidden: too expensive',
    ]);
  });
});

describe('schema callbacks: when rule errors count', () => {
  const schemaErr = (p: string) => [invalid(`${p}.properties[spec].properties[replicas].type`, 'x', 'bad')];
  const ruleErrs = (p: string) => [
    invalid(`${p}.properties[spec].x-kubernetes-validations[0].rule`, 'r', 'in the broken subtree'),
    invalid(`${p}.properties[status].x-kubernetes-validations[0].rule`, 'r', 'in a clean subtree'),
    forbidden(p, 'whole-schema cost'),
  ];
  const cases: { name: string; schema: boolean; celReady?: boolean; want: string[] }[] = [
    { name: 'no schema errors: every rule error', schema: false, want: ['in the broken subtree', 'in a clean subtree', 'whole-schema cost'] },
    { name: 'schema errors without celReady: no rule errors', schema: true, want: ['bad'] },
    { name: 'schema errors, celReady: rules of clean subtrees only (kube skips a node whose subtree has errors)', schema: true, celReady: true, want: ['bad', 'in a clean subtree', 'whole-schema cost'] },
    { name: 'not structural (celReady false): no rule errors', schema: true, celReady: false, want: ['bad'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { deps } = fakeDeps({ schemaErrors: c.schema ? schemaErr : undefined, ruleErrors: ruleErrs }, c.celReady === undefined ? {} : { celReady: () => c.celReady! });
      assert.deepEqual(validateCrdCreate(baseCrd(), deps).map((e) => e.detail), c.want);
    });
  }
});
