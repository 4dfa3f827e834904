// Real CRDs (../shared/reference/crds: cert-manager, prometheus-operator),
// which kube-apiserver accepts (VERDICTS.md; the refusals there are about
// selectableFields, a field v1.27 does not know, decided by field validation
// before this code runs): none gets an error from this module.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { CustomResourceDefinition } from '../types.js';
import { validateCrdCreate, validateCrdUpdate } from './crd.js';
import { crdNameErrors } from './names.js';
import { baseCrd, fakeDeps, withV1Defaults } from './testfixtures.js';

const root = fileURLToPath(new URL('../../../../../shared/reference/crds/', import.meta.url));
const files = existsSync(root)
  ? readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(join(root, d.name)).filter((f) => f.endsWith('.yaml')).map((f) => join(d.name, f)))
      .sort()
  : [];

describe('reference CRDs pass CRD validation', () => {
  it('finds the reference CRDs', () => assert.ok(files.length >= 16, `expected the reference CRDs under ${root}`));
  for (const f of files) {
    it(f, () => {
      const crd = withV1Defaults(parse(readFileSync(join(root, f), 'utf8')) as CustomResourceDefinition);
      const { deps, calls } = fakeDeps();
      assert.deepEqual(crdNameErrors(crd.metadata.name, false, crd.spec), []);
      assert.deepEqual(validateCrdCreate(crd, deps), []);
      assert.ok(calls.length > 0, 'the schemas were handed to the callbacks');
      const established = structuredClone(crd);
      established.status!.conditions = [{ type: 'Established', status: 'True' }];
      assert.deepEqual(validateCrdUpdate(structuredClone(crd), established, deps), []);
    });
  }
  it('a reference CRD made wrong is refused (the check can fail)', () => {
    const crd = withV1Defaults(parse(readFileSync(join(root, files[0]!), 'utf8')) as CustomResourceDefinition);
    crd.spec.names.listKind = crd.spec.names.kind;
    assert.deepEqual(
      validateCrdCreate(crd, fakeDeps().deps).map((e) => `${e.field}: ${e.detail}`),
      ['spec.names.listKind: kind and listKind may not be the same'],
    );
    assert.deepEqual(validateCrdCreate(withV1Defaults(baseCrd()), fakeDeps().deps), []);
  });
});

// The CRDs the golden transcripts create: a real kube-apiserver accepted
// each (201), or refused it only for its x-kubernetes-validations (crd-cel's
// part, a pass-through callback here).
const goldens = fileURLToPath(new URL('../../../../../shared/reference/transcripts/golden/', import.meta.url));
interface Step { name: string; request: { method: string; path: string; body?: unknown }; response: { status: number } }
const crdSteps = existsSync(goldens)
  ? readdirSync(goldens)
      .filter((f) => /^(crd|celrules)-.*\.json$/.test(f))
      .sort()
      .flatMap((f) =>
        (JSON.parse(readFileSync(join(goldens, f), 'utf8')) as { steps: Step[] }).steps
          .filter((s) => s.request.method === 'POST' && s.request.path.endsWith('/customresourcedefinitions'))
          .map((s) => ({ file: f, step: s })),
      )
  : [];

describe('golden transcripts: the CRDs kube-apiserver was sent', () => {
  it('finds them', () => assert.ok(crdSteps.length >= 10, `expected CRD creates under ${goldens}`));
  for (const { file, step } of crdSteps) {
    it(`${file} ${step.name} (${step.response.status})`, () => {
      assert.ok(step.response.status === 201 || (step.response.status === 422 && file.startsWith('celrules-03')), 'only rule refusals are expected');
      const crd = withV1Defaults(structuredClone(step.request.body) as CustomResourceDefinition);
      assert.deepEqual(crdNameErrors(crd.metadata.name, false, crd.spec), []);
      assert.deepEqual(validateCrdCreate(crd, fakeDeps().deps), []);
    });
  }
});
