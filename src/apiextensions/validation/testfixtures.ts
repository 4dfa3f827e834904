// Test helpers: a valid v1 CRD after defaults and prepare, kube's v1 defaults
// for CRDs read from files, and fake schema callbacks.
import type { FieldError } from '../../api/meta/field.js';
import { renderCause } from '../../api/meta/govalue.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../types.js';
import type { CrdValidationDeps } from './crd.js';
import type { ValidationOptions } from './options.js';
import { defaultCustomResourceDefinition } from '../../api/apiextensions/v1/defaults.js';

export function baseCrd(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } }, status: { type: 'object' } } } },
        },
      ],
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: ['v1'], acceptedNames: { plural: '', kind: '' } },
  };
}

/** kube's v1 defaults a CRD read from a file lacks, and PrepareForCreate's storedVersions. */
export function withV1Defaults(crd: CustomResourceDefinition): CustomResourceDefinition {
  defaultCustomResourceDefinition(crd as unknown as Record<string, unknown>);
  const storage = crd.spec.versions.find((v) => v.storage);
  crd.status = { storedVersions: storage ? [storage.name] : [], acceptedNames: { plural: '', kind: '' } };
  return crd;
}

export interface Call {
  fn: 'schemaErrors' | 'ruleErrors';
  path: string;
  opts: ValidationOptions;
  schema: JSONSchemaProps;
}

/** Callbacks that record their calls and answer from the given functions (nothing by default). */
export function fakeDeps(answers: Partial<Record<Call['fn'], (path: string, schema: JSONSchemaProps) => FieldError[]>> = {}, extra: Partial<CrdValidationDeps> = {}) {
  const calls: Call[] = [];
  const deps: CrdValidationDeps = {
    schemaErrors: (schema, path, opts) => {
      calls.push({ fn: 'schemaErrors', path, opts, schema });
      return answers.schemaErrors?.(path, schema) ?? [];
    },
    ruleErrors: (schema, path, opts) => {
      calls.push({ fn: 'ruleErrors', path, opts, schema });
      return answers.ruleErrors?.(path, schema) ?? [];
    },
    ...extra,
  };
  return { deps, calls };
}

export const render = (errs: readonly FieldError[]): string[] => errs.map(renderCause);
