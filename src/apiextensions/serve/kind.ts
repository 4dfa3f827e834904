// A CustomResourceDefinition as the request path serves it: one
// ServedResource per served version (accepted names, scope, subresources,
// kube's verb order) with the facts of that version (src/registry/registry.ts
// CustomKind: the runtime schema, decoding, read defaults, printer,
// deprecation warning, scale paths).
import { ObjectMeta } from '../../schema/common.js';
import { prune } from '../../schema/prune.js';
import { applyDefaults, hasDefaults } from '../../schema/defaults.js';
import type { Schema } from '../../schema/model.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import type { CustomKind, ServedResource, ServedSubresource, WebhookConversion } from '../../registry/registry.js';
import type { ApiObject } from '../../registry/object.js';
import type { CallbackCaller } from '../../webhook/callback.js';
import { converterFor, type CrConverter } from '../conversion/index.js';
import type { Printer } from '../../printers/index.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion, CustomResourceSubresourceScale, JSONSchemaProps } from '../types.js';
import { scalePathOf } from '../../endpoints/scale.js';
import { validateTypeMeta } from '../objects/index.js';
import { toStructural } from '../structural/index.js';
import { field, type Path } from '../../smd/fieldpath.js';

/** The verbs of a custom resource, in the order kube's discovery lists them. */
export const CUSTOM_RESOURCE_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'] as const;
const SUBRESOURCE_VERBS = ['get', 'patch', 'update'] as const;

export interface KindDeps {
  /** The table printer of a version (additionalPrinterColumns). */
  printer(version: CustomResourceDefinitionVersion): Printer;
  /** The outbound callback client conversion webhooks are called through. */
  readonly conversionCaller?: CallbackCaller & { close?(): void };
}

/** The version objects are stored in (exactly one, validation guarantees it). */
export function storageVersionOf(crd: CustomResourceDefinition): string {
  return (crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]!).name;
}

/** The served versions of an established CRD, in the CRD's order. */
export function servedResources(crd: CustomResourceDefinition, deps: KindDeps): ServedResource[] {
  const names = crd.status?.acceptedNames ?? crd.spec.names;
  const group = canonicalGroup(crd.spec.group);
  const storageVersion = storageVersionOf(crd);
  const schemas = new Map<string, Schema>();
  for (const v of crd.spec.versions) schemas.set(v.name, runtimeSchema(v.schema?.openAPIV3Schema));
  const terminating = Boolean(crd.metadata.deletionTimestamp);
  const converting = crd.spec.conversion?.strategy === 'Webhook' ? webhookConverter(crd, deps) : undefined;
  return crd.spec.versions.filter((v) => v.served).map((v) => {
    const schema = schemas.get(v.name)!;
    const subresources: ServedSubresource[] = [];
    if (v.subresources?.status) subresources.push({ name: 'status', kind: names.kind, verbs: SUBRESOURCE_VERBS });
    if (v.subresources?.scale) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: SUBRESOURCE_VERBS });
    const want = { group: crd.spec.group, version: v.name, kind: names.kind };
    const apiVersion = `${crd.spec.group}/${v.name}`;
    const custom: CustomKind = {
      spelledGroup: crd.spec.group,
      schema,
      versionSchema: (version) => schemas.get(version),
      // only the type meta is read: no copy of the object
      typeMetaErrors: (obj) => validateTypeMeta({ apiVersion: obj.apiVersion ?? apiVersion, kind: obj.kind ?? names.kind }, want),
      decode: (obj) => {
        const removed = prune(schema, obj);
        applyDefaults(schema, obj);
        return removed;
      },
      ...(hasDefaults(schema) ? { readDefaults: (obj: Record<string, unknown>) => void applyDefaults(schema, obj) } : {}),
      printer: deps.printer(v),
      ...(v.deprecated ? { deprecationWarning: v.deprecationWarning ?? `${crd.spec.group}/${v.name} ${names.kind} is deprecated` } : {}),
      terminating,
      ...(converting && v.name !== storageVersion
        ? { webhookConversion: webhookConversion(converting, { group, version: v.name, schema }, { version: storageVersion, schema: schemas.get(storageVersion)! }) }
        : {}),
      ...(v.subresources?.scale ? { scale: scaleOf(crd, v.subresources.scale) } : {}),
    };
    return {
      group,
      version: v.name,
      resource: names.plural,
      kind: names.kind,
      namespaced: crd.spec.scope === 'Namespaced',
      verbs: CUSTOM_RESOURCE_VERBS,
      singularName: names.singular ?? names.kind.toLowerCase(),
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      subresources,
      storageVersion,
      custom,
    };
  });
}

/** The CRD's webhook converter, or the error every conversion answers (no caller, a strategy kube does not know). */
function webhookConverter(crd: CustomResourceDefinition, deps: KindDeps): CrConverter | Error {
  try {
    return converterFor(crd, deps.conversionCaller ? { caller: deps.conversionCaller } : {});
  } catch (err) {
    return err as Error;
  }
}

/**
 * A version's conversions to and from the storage version through the
 * webhook; what comes back is decoded as its version (pruned, defaulted), as
 * kube's codec decodes a converted object.
 */
function webhookConversion(c: CrConverter | Error, request: { group: string; version: string; schema: Schema }, storage: { version: string; schema: Schema }): WebhookConversion {
  const decoded = (objs: object[], schema: Schema): ApiObject[] => objs.map((o) => {
    prune(schema, o as Record<string, unknown>);
    applyDefaults(schema, o as Record<string, unknown>);
    return o as ApiObject;
  });
  return {
    toRequest: async (objs, list) => {
      if (c instanceof Error) throw c;
      return decoded(await c.convert(objs, `${request.group}/${request.version}`, { list }), request.schema);
    },
    toStorage: async (obj) => {
      if (c instanceof Error) throw c;
      return decoded(await c.convert([obj], `${request.group}/${storage.version}`, { list: false }), storage.schema)[0]!;
    },
  };
}

/** The Scale's paths of a version, and every version's spec replicas path for field ownership. */
function scaleOf(crd: CustomResourceDefinition, s: CustomResourceSubresourceScale): NonNullable<CustomKind['scale']> {
  const replicasByApiVersion = new Map<string, Path>();
  for (const v of crd.spec.versions) {
    const path = v.subresources?.scale?.specReplicasPath;
    if (path) replicasByApiVersion.set(`${crd.spec.group}/${v.name}`, scalePathOf(path).map((k) => field(k)));
  }
  return {
    paths: {
      specReplicas: scalePathOf(s.specReplicasPath),
      statusReplicas: scalePathOf(s.statusReplicasPath),
      ...(s.labelSelectorPath ? { selector: scalePathOf(s.labelSelectorPath), selectorIsString: true } : {}),
    },
    replicasByApiVersion,
  };
}

/**
 * The schema objects of a version are decoded, pruned and tracked with: the CRD's structural
 * schema with apiVersion and kind (strings) and metadata (ObjectMeta) at the root, as kube
 * types the root of a custom resource. Without a schema everything is kept.
 */
export function runtimeSchema(s: JSONSchemaProps | undefined): Schema {
  if (!s) return runtimeOf(undefined);
  let r = runtimeSchemas.get(s);
  if (!r) runtimeSchemas.set(s, (r = runtimeOf(s)));
  return r;
}

const runtimeSchemas = new WeakMap<JSONSchemaProps, Schema>();

function runtimeOf(s: JSONSchemaProps | undefined): Schema {
  if (s) return toStructural(s);
  return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: ObjectMeta.schema } };
}
