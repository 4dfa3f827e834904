// One CustomResourceDefinition → what the OpenAPI documents publish of it: for
// each served version and each spelling of its group (svc.io and k8s.io when
// the group is spelled in one of those domains, else the group as written),
// the routes and the two components (the kind and its List) in both forms.
// kube-apiserver builds one document per served version the same way
// (BuildOpenAPIV2/V3 in apiextensions-apiserver pkg/controller/openapi/builder)
// and merges them into /openapi/v2 and /openapi/v3/apis/<group>/<version>.
import { canonicalGroup, kubernetesGroup } from '../../endpoints/requestinfo.js';
import { gvkExtension } from '../../openapi/definitions.js';
import type { ExtraComponent, ExtraComponents } from '../../openapi/documents.js';
import type { Route } from '../../openapi/routes.js';
import type { CustomResourceDefinition } from '../types.js';
import { definitionName } from './names.js';
import { versionRoutes } from './routes.js';
import { kindSchema, LIST_META_ID, listSchema, OBJECT_META_ID } from './schema.js';
import { isEstablished } from '../conditions.js';

export { isEstablished };

/** One served version of a custom resource in one spelling of its group. */
export interface PublishedVersion {
  /** The group as spelled in the routes. */
  readonly group: string;
  readonly version: string;
  /** The v3 document path: apis/<group>/<version>. */
  readonly key: string;
  readonly routes: readonly Route[];
  /** The kind's and the List's components (shared by both spellings). */
  readonly components: ExtraComponents;
}


/** Everything the documents publish of a CRD, served versions in spec order. */
export function publishedVersions(crd: CustomResourceDefinition): PublishedVersion[] {
  const { group, names, scope } = crd.spec;
  const listKind = names.listKind ?? `${names.kind}List`;
  const spellings = [...new Set([canonicalGroup(group), kubernetesGroup(group)])];
  const out: PublishedVersion[] = [];
  for (const v of crd.spec.versions) {
    if (!v.served) continue;
    const kindId = definitionName(group, v.name, names.kind);
    const listId = definitionName(group, v.name, listKind);
    const gvk = gvkExtension([{ group, version: v.name, kind: names.kind }]);
    const listGvk = gvkExtension([{ group, version: v.name, kind: listKind }]);
    const schemaInput = { schema: v.schema?.openAPIV3Schema, preserveUnknownFields: crd.spec.preserveUnknownFields, gvk };
    const kind: ExtraComponent = {
      v2: kindSchema(schemaInput, 'v2'),
      v3: kindSchema(schemaInput, 'v3'),
      refs: [OBJECT_META_ID],
    };
    const listInput = { kind: names.kind, listKind, plural: names.plural, itemId: kindId, gvk: listGvk };
    const list: ExtraComponent = { v2: listSchema(listInput, 'v2'), v3: listSchema(listInput, 'v3'), refs: [kindId, LIST_META_ID] };
    const components: ExtraComponents = new Map([[kindId, kind], [listId, list]]);
    for (const spelled of spellings) {
      const routes = versionRoutes({
        group: spelled, version: v.name, kind: names.kind, plural: names.plural, namespaced: scope === 'Namespaced',
        kindId, listId, status: v.subresources?.status !== undefined, scale: v.subresources?.scale !== undefined,
      });
      out.push({ group: spelled, version: v.name, key: `apis/${spelled}/${v.name}`, routes, components });
    }
  }
  return out;
}
