// What kube-apiserver v1.26.1 answered (goldens crd-03-pruning-and-defaults and
// crd-07-listmap-apply-strict), from the CRDs and bodies of those scenarios.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { reasonOf } from '../../api/meta/field.js';
import { renderBody } from '../../api/meta/govalue.js';
import type { Schema } from '../../schema/model.js';
import type { CustomResourceDefinition } from '../types.js';
import { prune } from '../../schema/prune.js';
import { coerceObjectMeta, coerceResource } from './coerce.js';
import { validateEmbedded } from './embedded.js';
import { validateListTypes } from './listtype.js';

interface Step { name: string; request: { body?: Record<string, unknown> }; response: { headers: Record<string, unknown>; body: Record<string, unknown> } }
const load = (name: string): Map<string, Step> => {
  const g = JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../../shared/reference/transcripts/golden/${name}.json`, import.meta.url)), 'utf8')) as { steps: Step[] };
  return new Map(g.steps.map((s) => [s.name, s]));
};
const schemaOf = (steps: Map<string, Step>) => (steps.get('create-crd')!.request.body as unknown as CustomResourceDefinition).spec.versions[0]!.schema!.openAPIV3Schema as Schema;
const causes = (errs: ReturnType<typeof validateEmbedded>) => errs.map((e) => ({ reason: reasonOf(e), message: renderBody(e), field: e.field }));
const goldenCauses = (s: Step) => (s.response.body.details as { causes: unknown[] }).causes;
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('golden crd-03-pruning-and-defaults', () => {
  const steps = load('crd-03-pruning-and-defaults');
  const schema = schemaOf(steps);

  it('embedded-resource: the template\'s metadata typed (unknownMeta dropped, reported as a warning path)', () => {
    const s = steps.get('embedded-resource')!;
    const body = copy(s.request.body!);
    const r = coerceObjectMeta(schema, body, { root: true, returnUnknownFieldPaths: true });
    assert.equal(r.error, undefined);
    assert.deepEqual(r.unknownFieldPaths.map((p) => `299 - "unknown field \\"${p}\\""`), s.response.headers.warning);
    const stored = s.response.body as { spec: { template: unknown } };
    assert.deepEqual((body.spec as { template: unknown }).template, stored.spec.template);
    assert.deepEqual(validateEmbedded(schema, body, { root: true }), []);
  });

  it('embedded-resource through the whole decoder step (with src/schema pruning): the same body and warning', () => {
    const s = steps.get('embedded-resource')!;
    const body = copy(s.request.body!);
    const r = coerceResource(body, {
      group: 'crd03.example.com', kind: 'Gadget', schemaFor: () => schema, returnUnknownFieldPaths: true,
      prune: (o, sch) => prune({ ...sch, 'x-kubernetes-embedded-resource': true }, o),
    });
    assert.equal(r.error, undefined);
    assert.deepEqual(r.unknownFieldPaths.map((p) => `299 - "unknown field \\"${p}\\""`), s.response.headers.warning);
    assert.deepEqual((body.spec as { template: unknown }).template, (s.response.body as { spec: { template: unknown } }).spec.template);
  });

  it('embedded-resource-no-kind: apiVersion and kind required', () => {
    const s = steps.get('embedded-resource-no-kind')!;
    assert.deepEqual(causes(validateEmbedded(schema, s.request.body, { root: true })), goldenCauses(s));
  });
});

describe('golden crd-07-listmap-apply-strict', () => {
  const steps = load('crd-07-listmap-apply-strict');
  const schema = schemaOf(steps);
  for (const name of ['duplicate-map-key', 'duplicate-set-value']) {
    it(name, () => {
      const s = steps.get(name)!;
      assert.deepEqual(causes(validateListTypes(schema, s.request.body)), goldenCauses(s));
    });
  }
});
