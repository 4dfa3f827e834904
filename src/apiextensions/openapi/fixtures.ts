// CustomResourceDefinitions for the OpenAPI tests: a small Widget CRD to vary,
// and the real-world CRDs of ../shared/reference/crds (read as the tests find
// the shared folder from dist/), marked Established.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGoYaml } from '../../endpoints/yaml.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../types.js';

export const ESTABLISHED = { conditions: [{ type: 'Established', status: 'True' }] };

export interface WidgetOptions {
  readonly group?: string;
  readonly resourceVersion?: string;
  readonly versions?: CustomResourceDefinitionVersion[];
  readonly scope?: 'Namespaced' | 'Cluster';
  readonly established?: boolean;
}

/** widgets.<group> (default crd01.example.com): v1 served and stored, with status and scale. */
export function widgetCRD(opts: WidgetOptions = {}): CustomResourceDefinition {
  const group = opts.group ?? 'crd01.example.com';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}`, uid: `uid-${group}`, resourceVersion: opts.resourceVersion ?? '10' },
    spec: {
      group,
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: opts.scope ?? 'Namespaced',
      versions: opts.versions ?? [widgetVersion('v1')],
    },
    status: opts.established === false ? { conditions: [{ type: 'Established', status: 'False' }] } : ESTABLISHED,
  };
}

export function widgetVersion(name: string, more: Partial<CustomResourceDefinitionVersion> = {}): CustomResourceDefinitionVersion {
  return {
    name, served: true, storage: true,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        description: 'A widget.',
        properties: {
          spec: {
            type: 'object',
            description: 'What the widget should be.',
            required: ['size'],
            properties: {
              size: { type: 'integer', description: 'How big.', minimum: 1 },
              replicas: { type: 'integer' },
              color: { type: 'string', enum: ['red', 'blue'], nullable: true },
            },
          },
          status: { type: 'object', properties: { replicas: { type: 'integer' } } },
        },
      },
    },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
    ...more,
  };
}

/** The shared folder beside the repository (../shared), from dist/src/apiextensions/openapi/. */
export const SHARED = fileURLToPath(new URL('../../../../../shared/', import.meta.url));
export const REFERENCE_CRDS = join(SHARED, 'reference/crds');
export const referenceCRDsMissing = existsSync(REFERENCE_CRDS) ? false : `the reference CRDs are not at ${REFERENCE_CRDS}`;

/** Every reference CRD (file name, object), Established, resourceVersion "1". */
export function referenceCRDs(): { file: string; crd: CustomResourceDefinition }[] {
  const out: { file: string; crd: CustomResourceDefinition }[] = [];
  for (const dir of ['cert-manager', 'prometheus-operator']) {
    for (const file of readdirSync(join(REFERENCE_CRDS, dir)).filter((f) => f.endsWith('.yaml')).sort()) {
      const text = readFileSync(join(REFERENCE_CRDS, dir, file), 'utf8').replace(/^---\n/, '');
      const crd = parseGoYaml(text) as CustomResourceDefinition;
      crd.metadata.resourceVersion = '1';
      crd.status = ESTABLISHED;
      out.push({ file: `${dir}/${file}`, crd });
    }
  }
  return out;
}
