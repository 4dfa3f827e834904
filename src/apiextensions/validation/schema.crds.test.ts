// Every real CRD in ../shared/reference/crds/ (cert-manager, prometheus-operator):
// each version's schema passes validateSchema with the create options (kube
// v1.26 accepted them all but for selectableFields, which is not a schema
// matter), toStructural converts it, and a few hand-made resources are checked.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { errorBody } from '../../api/meta/field.js';
import { parseGoYaml } from '../../endpoints/yaml.js';
import { prune } from '../../schema/prune.js';
import { validate } from '../../schema/validate.js';
import { toStructural } from '../structural/runtime.js';
import type { CustomResourceDefinition } from '../types.js';
import { createOptions } from './options.js';
import { schemaIsNonStructural, validateSchema } from './schema.js';

const dir = fileURLToPath(new URL('../../../../../shared/reference/crds/', import.meta.url));
const files = existsSync(dir)
  ? readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(join(dir, d.name)).filter((f) => f.endsWith('.yaml')).map((f) => join(dir, d.name, f)))
  : [];

const load = (f: string) => parseGoYaml(readFileSync(f, 'utf8').replace(/^---\n/, '')) as CustomResourceDefinition;

describe('real CRDs', () => {
  it('finds the reference CRDs', () => assert.ok(files.length >= 16, `only ${files.length} CRDs under ${dir}`));
  for (const f of files) {
    it(`${f.split('/').slice(-1)[0]} validates and converts`, () => {
      const crd = load(f);
      assert.ok(crd.spec.versions.length > 0);
      crd.spec.versions.forEach((v, i) => {
        const schema = v.schema!.openAPIV3Schema!;
        const errs = validateSchema(schema, `spec.versions[${i}].schema.openAPIV3Schema`, createOptions());
        assert.deepEqual(errs.map((e) => `${e.field}: ${errorBody(e)}`), []);
        assert.equal(schemaIsNonStructural(schema), false);
        const s = toStructural(schema);
        assert.equal(s.properties?.metadata?.properties?.name?.type, 'string');
        assert.equal(s.properties?.kind?.type, 'string');
      });
    });
  }

  it('a Certificate is pruned and validated with the runtime schema', { skip: files.length === 0 && 'no reference CRDs' }, () => {
    const crd = load(files.find((f) => f.endsWith('cert-manager.io_certificates.yaml'))!);
    const s = toStructural(crd.spec.versions.find((v) => v.storage)!.schema!.openAPIV3Schema!);
    const obj = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'c', namespace: 'default', bogus: 1, labels: { a: 'b' } },
      spec: { secretName: 's', issuerRef: { name: 'i' }, dnsNames: ['a.example.com'], unknownField: true },
    };
    assert.deepEqual(prune(s, obj), ['metadata.bogus', 'spec.unknownField']);
    assert.deepEqual(validate(s, obj), []);
    const bad = { ...obj, spec: { issuerRef: {}, duration: 5 } };
    assert.deepEqual(
      validate(s, bad).map((e) => `${e.field}: ${errorBody(e)}`),
      ['spec.issuerRef.name: Required value', 'spec.duration: Invalid value: "integer": spec.duration in body must be of type string: "integer"', 'spec.secretName: Required value'],
    );
  });
});

describe('real CRDs at request time', () => {
  it('none of them needs the junctor walk (their anyOf are int-or-string patterns)', { skip: files.length === 0 && 'no reference CRDs' }, async () => {
    const { junctorValidator } = await import('../structural/junctors.js');
    const needing = files.filter((f) => load(f).spec.versions.some((v) => junctorValidator(v.schema?.openAPIV3Schema) !== undefined)).map((f) => f.split('/').slice(-1)[0]);
    assert.deepEqual(needing, []);
  });
});

describe('real CRDs through crd-spec with schemaDeps', () => {
  it('validateCrdCreate finds nothing, and an update keeps every requirement', { skip: files.length === 0 && 'no reference CRDs' }, async () => {
    const { validateCrdCreate, validateCrdUpdate, updateOptions } = await import('./index.js');
    const { schemaDeps } = await import('./schema.js');
    const deps = { ...schemaDeps, ruleErrors: () => [] };
    for (const f of files) {
      const crd = load(f);
      crd.status = { storedVersions: crd.spec.versions.filter((v) => v.storage).map((v) => v.name) }; // prepareForCreate's
      assert.deepEqual(validateCrdCreate(crd, deps).map((e) => `${e.field}: ${errorBody(e)}`), [], f);
      assert.deepEqual(validateCrdUpdate(crd, crd, deps).map((e) => `${e.field}: ${errorBody(e)}`), [], f);
      const o = updateOptions(crd, deps);
      assert.ok(o.requireStructuralSchema && o.requirePrunedDefaults, f);
    }
  });
});
