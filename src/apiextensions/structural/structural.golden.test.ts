// toStructural at request time against crd-03-pruning-and-defaults (what
// kube-apiserver v1.26.1 answered): each create's body pruned, defaulted and
// validated with the runtime schema gives the stored object (but metadata,
// which the server fills) and kube's 422 causes; Strict names the unknown
// fields kube names; an object read after a default is added gets it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderBody } from '../../api/meta/govalue.js';
import { applyDefaults } from '../../schema/defaults.js';
import { prune } from '../../schema/prune.js';
import { validate } from '../../schema/validate.js';
import type { JSONSchemaProps } from '../types.js';
import { toStructural } from './runtime.js';

const file = fileURLToPath(new URL('../../../../../shared/reference/transcripts/golden/crd-03-pruning-and-defaults.json', import.meta.url));
interface Step {
  name: string;
  request: { method: string; path: string; body?: Record<string, unknown> & { spec?: { versions?: { schema?: { openAPIV3Schema?: JSONSchemaProps } }[] } } };
  response: { status: number; body: Record<string, unknown> & { message?: string; details?: { causes?: { message: string; field: string }[] } } };
}
const doc = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Step[] | { steps: Step[] }) : [];
const steps: Step[] = Array.isArray(doc) ? doc : doc.steps;
const step = (name: string) => steps.find((s) => s.name === name)!;
const schemaOf = (name: string) => toStructural(step(name).request.body!.spec!.versions![0]!.schema!.openAPIV3Schema!);
const withoutMeta = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'metadata'));

describe('crd-03 at request time', { skip: steps.length === 0 && `no golden transcript at ${file}` }, () => {
  for (const name of ['create-with-unknown', 'create-ignore', 'embedded-resource']) {
    it(`${name}: pruned and defaulted as stored`, () => {
      const s = schemaOf('create-crd');
      const body = structuredClone(step(name).request.body!);
      prune(s, body);
      applyDefaults(s, body);
      assert.deepEqual(validate(s, body), []);
      assert.deepEqual(withoutMeta(body), withoutMeta(step(name).response.body));
      if (name === 'embedded-resource') {
        const stored = (step(name).response.body.spec as { template: unknown }).template;
        assert.deepEqual((body.spec as { template: unknown }).template, stored);
      }
    });
  }
  it('create-strict: the unknown fields kube names', () => {
    const body = structuredClone(step('create-strict').request.body!);
    const unknown = prune(schemaOf('create-crd'), body).sort();
    assert.equal(step('create-strict').response.body.message, `Gadget in version "v1" cannot be handled as a Gadget: strict decoding error: ${unknown.map((p) => `unknown field "${p}"`).join(', ')}`);
  });
  for (const name of ['int-or-string-invalid', 'enum-invalid']) {
    it(`${name}: kube's causes`, () => {
      const s = schemaOf('create-crd');
      const body = structuredClone(step(name).request.body!);
      prune(s, body);
      applyDefaults(s, body);
      const causes = step(name).response.body.details!.causes!.map((c) => `${c.field}: ${c.message}`);
      assert.deepEqual(validate(s, body).map((e) => `${e.field}: ${renderBody(e)}`), causes);
    });
  }
  it('read-old-object: a default added later appears on read', () => {
    const s = schemaOf('add-default');
    const stored = structuredClone(step('create-with-unknown').response.body);
    applyDefaults(s, stored);
    assert.deepEqual(withoutMeta(stored), withoutMeta(step('read-old-object').response.body));
  });
});
