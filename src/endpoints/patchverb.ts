// PATCH (json, merge, strategic merge) and server-side apply of a resource:
// the patched object takes the update path, after kube's patcher checks
// (checkName, then BeforeUpdate's namespace rule).
import { bodyObject, decodeAsKind } from './writebody.js';
import { newBadRequest, newConflict } from '../api/meta/index.js';
import { type RequestContext } from '../server/context.js';
import { addWarning } from '../server/respond.js';
import { addAuditAnnotation } from '../server/auditannotations.js';
import type { ServedResource } from '../registry/registry.js';
import type { GenericStore, TrackFields } from '../registry/store.js';
import { type ApiObject, isObject, withTypeMeta } from '../registry/object.js';
import { type ResourceRequestInfo } from './requestinfo.js';
import { auditRequestPatch } from '../audit/record.js';
import { readBody } from './body.js';
import { checkAppliedKind, type EndpointKind } from './bodykind.js';
import { applyPatch, decodePatch, patchedObject, patchInvalid, patchTypeOf, requireObject, type DecodedPatch, type Patched, type PatchTarget } from './patch.js';
import type { JsonObject } from '../patch/index.js';
import { fieldValidationOf } from './fieldvalidation.js';
import { writeOptions } from './writeoptions.js';
import { kindSchema } from './kindschema.js';
import { type FeatureGates } from '../features/gates.js';
import { applyTo, decodeApply, type FieldTracking } from './fieldmanager.js';
import { type Versioner } from './versioning.js';

/**
 * PATCH: a JSON, merge or strategic merge patch, or a server-side apply; the
 * patched object takes the update path (an apply may create the object).
 */
export async function servePatch(
  ctx: RequestContext,
  p: { store: GenericStore; served: ServedResource; endpoint: EndpointKind; info: ResourceRequestInfo; apiVersion: string; dryRun: boolean; gates: FeatureGates; tracking: (kind: 'PatchOptions', apply: boolean) => FieldTracking; track: (t: FieldTracking) => TrackFields; versions: Versioner },
): Promise<{ object: ApiObject; created: boolean }> {
  const { store, served, info, endpoint } = p;
  // Strategic merge patch needs Go struct tags: custom resources answer it 415, as kube does.
  const type = patchTypeOf(ctx.req.headers['content-type'], !served.custom && kindSchema(served) !== undefined);
  const t = p.tracking('PatchOptions', type === 'apply');
  const mode = fieldValidationOf(ctx.url.searchParams, 'PatchOptions');
  const text = (await readBody(ctx.req)).toString('utf8');
  auditRequestPatch(ctx, text);
  let warnings: string[] = [];
  const opts = { dryRun: p.dryRun, user: ctx.user, requestInfo: info, options: writeOptions('PatchOptions', ctx.url.searchParams), subresource: info.subresource || undefined, warn: (w: string) => addWarning(ctx, w), annotate: (k: string, v: string) => addAuditAnnotation(ctx, k, v), latency: ctx, ...(p.versions.lens ? { lens: p.versions.lens } : {}) };
  if (type === 'apply') {
    /** The applied object, checked against the URL as every patch result is (checkName) and decoded as the kind. */
    const finish = (applied: Record<string, unknown>, current: ApiObject | undefined): ApiObject => {
      checkPatchedMeta(applied, info, store.namespaced);
      const rv = isObject(applied.metadata) ? applied.metadata.resourceVersion : undefined;
      if (current && rv !== undefined && rv !== null && rv !== current.metadata.resourceVersion) throw conflict(served, info);
      warnings = decodeAsKind(served, applied, [], mode, p.gates);
      return bodyObject(applied);
    };
    const req = decodeApply(text, ctx.url.searchParams, mode);
    checkAppliedKind(req.config, endpoint);
    const r = await store.upsert(info.namespace, info.name, (current) => {
      const live = current && withTypeMeta(p.versions.toRequest(current), p.apiVersion, served.kind);
      return p.versions.toStorage(finish(applyTo(t, live, req) as Record<string, unknown>, current));
    }, opts);
    for (const w of [...req.warnings, ...warnings]) addWarning(ctx, w);
    return r;
  }
  /**
   * The patched document decoded as the kind. JSON and merge patches (jsonPatcher):
   * everything that does not decode is 422 on `patch`, and a JSON patch body's own
   * strict problems come first. Strategic merge patches: the patch map in a 422 for
   * Strict field validation; type errors are still the 400 of a body here (Kubernetes
   * answers 422 with the unstructured converter's text).
   */
  const decodePatched = (patched: Patched, decoded: DecodedPatch, target: PatchTarget): Record<string, unknown> => {
    const fail = (detail: string) => patchInvalid(patched, detail);
    if (decoded.type === 'strategic') {
      const obj = requireObject(patched.value) as Record<string, unknown>;
      warnings = decodeAsKind(served, obj, [], mode, p.gates, { strictError: fail });
      return obj;
    }
    const obj = patchedObject(patched, target) as Record<string, unknown>;
    warnings = decodeAsKind(served, obj, [], mode, p.gates, { strictError: fail, typeError: fail, leading: decoded.type === 'json' ? decoded.strict : [] });
    return obj;
  };
  const patch = decodePatch(type, text, mode);
  const target: PatchTarget = { group: served.group, version: served.version, kind: served.kind, apiVersion: p.apiVersion };
  const object = await store.guaranteedUpdate(info.namespace, info.name, (current) => {
    // As the API server's patcher: apply, decode the result as the kind, then the name and
    // namespace checks (patcher.applyPatch → checkName, then BeforeUpdate), then the store's
    // resourceVersion check.
    const patched = applyPatch(withTypeMeta(p.versions.toRequest(current), p.apiVersion, served.kind) as JsonObject, patch, served.custom ? undefined : kindSchema(served));
    const decoded = decodePatched(patched, patch, target);
    const obj = checkPatchedMeta(decoded, info, store.namespaced);
    const rv = isObject(obj.metadata) ? obj.metadata.resourceVersion : undefined;
    if (typeof rv === 'string' && rv !== '' && rv !== current.metadata.resourceVersion) throw conflict(served, info);
    return bodyObject(obj);
  }, { ...opts, track: p.track(t) });
  for (const w of warnings) addWarning(ctx, w);
  return { object, created: false };
}

export function conflict(served: ServedResource, info: ResourceRequestInfo): Error {
  return newConflict({ group: served.group, resource: served.resource }, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
}

/**
 * The name and namespace checks of the API server's patcher: checkName (the
 * name must be the URL's, an empty one too; a namespace the object names must
 * be the request's), then BeforeUpdate's namespace rule (an empty namespace
 * takes the request's, a cluster-scoped object's is cleared).
 */
export function checkPatchedMeta(obj: Record<string, unknown>, info: ResourceRequestInfo, namespaced: boolean): Record<string, unknown> {
  const meta = isObject(obj.metadata) ? (obj.metadata as Record<string, unknown>) : undefined;
  const name = typeof meta?.name === 'string' ? meta.name : '';
  if (name !== info.name) throw newBadRequest(`the name of the object (${name}) does not match the name on the URL (${info.name})`);
  const ns = typeof meta?.namespace === 'string' ? meta.namespace : '';
  if (info.namespace && ns && ns !== info.namespace) {
    throw newBadRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${info.namespace})`);
  }
  const want = namespaced ? info.namespace : '';
  if (meta && ns !== want) {
    if (ns === '') meta.namespace = want;
    else delete meta.namespace;
  }
  return obj;
}
