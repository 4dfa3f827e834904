// How a CustomResourceDefinition write is checked (the CRD strategy's
// validation, src/registry/strategies/crds.ts): kube's CRD validation
// (validation/) with the schema checks (validation/schema*.ts, structural/)
// and the expression rules' checks (cel/) plugged in.
import type { FieldError } from '../api/meta/index.js';
import { validateCrdCreate, validateCrdStatusUpdate, validateCrdUpdate, type CrdValidationDeps } from './validation/index.js';
import type { CustomResourceDefinition } from './types.js';
import { schemaDeps } from './validation/schema.js';
import { ruleErrors } from './cel/index.js';

export const crdValidationDeps: CrdValidationDeps = {
  ...schemaDeps,
  ruleErrors,
};

export function validateDefinition(obj: object): FieldError[] {
  return validateCrdCreate(obj as CustomResourceDefinition, crdValidationDeps);
}

export function validateDefinitionUpdate(obj: object, old: object, subresource?: string): FieldError[] {
  if (subresource === 'status') return validateCrdStatusUpdate(obj as CustomResourceDefinition, old as CustomResourceDefinition);
  return validateCrdUpdate(obj as CustomResourceDefinition, old as CustomResourceDefinition, crdValidationDeps);
}
