// The CRDs of the golden transcripts (crd-*, celrules-*: what kube-apiserver
// v1.26.1 answered): every CRD it accepted passes validateSchema, and where it
// refused one for a schema reason ours gives its message. Refusals for CEL
// compilation and cost are the CEL code's (src/apiextensions/cel/) and are
// only checked to produce no schema error here.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderCause } from '../../api/meta/govalue.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../types.js';
import { validateCrdCreate } from './crd.js';
import { schemaDeps } from './schema.js';

const dir = fileURLToPath(new URL('../../../../../shared/reference/transcripts/golden/', import.meta.url));
const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^(crd|celrules)-.*\.json$/.test(f)) : [];

interface Step {
  name?: string;
  request?: { method?: string; path?: string; body?: Record<string, unknown> & { spec?: { versions?: CustomResourceDefinitionVersion[] } } };
  response?: { status?: number; body?: { message?: string; details?: { causes?: { reason: string; message: string; field: string }[] } } };
}

/** The CRD's errors through crd-spec with schemaDeps (no CEL rules), keeping the schema's. */
function ours(body: Record<string, unknown>): string[] {
  const crd = structuredClone(body) as unknown as CustomResourceDefinition;
  crd.status = { storedVersions: crd.spec.versions.filter((v) => v.storage).map((v) => v.name) }; // prepareForCreate's
  return validateCrdCreate(crd, { ...schemaDeps, ruleErrors: () => [] }).map(renderCause).filter((m) => m.includes('openAPIV3Schema'));
}

const SCHEMA_REASONS = /rule is not specified|must be specified|must not be empty|not supported|must be structural|mutual exclusive|must not be set|x-kubernetes-list|x-kubernetes-map/;

describe('golden CRD writes', () => {
  it('finds the golden transcripts', () => assert.ok(files.length >= 5, `only ${files.length} under ${dir}`));
  let checked = 0;
  for (const f of files) {
    const steps = JSON.parse(readFileSync(`${dir}${f}`, 'utf8')) as Step[] | { steps: Step[] };
    for (const st of Array.isArray(steps) ? steps : steps.steps) {
      const req = st.request;
      const versions = req?.body?.spec?.versions;
      if (!req || !/customresourcedefinitions/.test(req.path ?? '') || !['POST', 'PUT'].includes(req.method ?? '') || !versions) continue;
      checked++;
      const status = st.response?.status ?? 0;
      it(`${f} ${st.name ?? ''} (${status})`, () => {
        const causes = (st.response?.body?.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
        const schemaCauses = status === 422 ? causes.filter((c) => SCHEMA_REASONS.test(c)) : [];
        assert.deepEqual(ours(req.body!), schemaCauses);
      });
    }
  }
  it('checked CRD writes', () => assert.ok(checked > 5 || files.length === 0, `only ${checked}`));
});
