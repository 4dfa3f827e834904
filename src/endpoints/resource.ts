// Resource requests: one handler per verb over the registry's generic store.
// Decode (JSON/YAML) → fill apiVersion/kind and namespace from the URL →
// store (strategy, validation, admission, storage) → encode in the request's
// group spelling. Watch, patch and paging arrive with their issues; routing
// already knows them and answers 405 until then.
import { fieldPath, invalid, newBadRequest, newConflict, newInvalid, newMethodNotAllowed, newMethodNotSupported, newNotFound, newUnsupportedMediaType, notSupported, type Status } from '../api/meta/index.js';
import { resourceInfoOf, type RequestContext } from '../server/context.js';
import { addWarning, writeJSONText, writeObject } from '../server/respond.js';
import type { Registry, ServedResource } from '../registry/registry.js';
import type { DeleteOptions, GenericStore, TrackFields } from '../registry/store.js';
import { type ApiObject, isObject, withTypeMeta } from '../registry/object.js';
import { applyFinalize } from '../registry/strategies/namespaces.js';
import { groupSpelling, queryBool, spellApiVersion, type ResourceRequestInfo } from './requestinfo.js';
import { readBody, readObject, readObjectBody } from './body.js';
import { applyPatch, decodePatch, patchTypeOf } from './patch.js';
import { goFormat } from '../patch/gofmt.js';
import type { JsonObject } from '../patch/index.js';
import { decodeTyped, fieldValidationOf, type FieldValidation } from './fieldvalidation.js';
import { schemaFor } from '../api/schemas.js';
import { finishGoDecode } from '../schema/gozero.js';
import { defaulterFor } from '../api/defaults.js';
import { DEFAULT_GATES, type FeatureGates } from '../features/gates.js';
import { contentTypeOf, negotiate, negotiateTarget, protobufMediaType } from './negotiate.js';
import { watchContentType } from '../protobuf/index.js';
import { convertList, convertObject, includeObjectOf, watchConverter } from './convert.js';
import { listPredicate } from './selectors.js';
import { getScale, patchScale, updateScale } from './scale.js';
import { POD_STREAM_SUBRESOURCES, servePodStream } from './podstreams.js';
import { review, type ReviewDeps } from './reviews.js';
import type { SubresourceHandler } from './tokenrequest.js';
import { planGet, planList } from '../registry/listoptions.js';
import { DEFAULT_WATCH_SETTINGS, serveWatch, type WatchSettings } from './watch.js';
import { serveListJSON } from './liststream.js';
import { applyTo, decodeApply, fieldManagerOf, resetFields, trackWrite, type FieldTracking } from './fieldmanager.js';
import { managedFieldsConverter, versionerFor, type Versioner } from './versioning.js';

/** `tokenRequest`: serviceaccounts/<name>/token (src/endpoints/tokenrequest.ts); without it the subresource answers 405. */
export function resourceHandler(registry: Registry, reviews: ReviewDeps, watchSettings: WatchSettings = DEFAULT_WATCH_SETTINGS, gates: FeatureGates = DEFAULT_GATES, tokenRequest?: SubresourceHandler) {
  return async (ctx: RequestContext): Promise<void> => {
    const info = resourceInfoOf(ctx);
    const served = registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    const sub = info.subresource ? served?.subresources.find((x) => x.name === info.subresource) : undefined;
    if (!served || (info.subresource && !sub)) {
      if (!registry.servesGroup(info.apiGroup)) throw new PageNotFound();
      throw newNotFound({ group: '', resource: '' }, '', 'the server could not find the requested resource');
    }
    // Routes exist only for the verbs a resource (or subresource) has, as Kubernetes' installer does.
    const routeVerb = info.verb === 'deletecollection' ? 'deletecollection' : info.verb;
    const verbs: readonly string[] = sub ? sub.verbs : served.verbs;
    const namedVerb = ['get', 'update', 'patch', 'delete'].includes(info.verb);
    if (!verbs.includes(routeVerb) || (info.verb === 'create' && info.name && !sub) || (namedVerb && !info.name)) throw newMethodNotAllowed();
    if (served.virtual) {
      const apiVersion = spellApiVersion(served.group === '' ? served.version : `${served.group}/${served.version}`, groupSpelling(info.apiGroup));
      const body = info.verb === 'create' ? await requireBody(ctx) : undefined;
      const answer = body && (await review(reviews, { kind: served.kind, group: served.group, namespace: info.namespace, user: ctx.user!, body }));
      if (!answer) throw newMethodNotSupported({ group: served.group, resource: served.resource }, info.verb);
      return writeObject(ctx, 201, { kind: served.kind, apiVersion, ...answer });
    }
    const store = registry.store(served.group, served.resource);
    const versions = versionerFor(served, gates);
    const view = versions.toRequest;
    const apiVersion = spellApiVersion(served.group === '' ? served.version : `${served.group}/${served.version}`, groupSpelling(info.apiGroup));
    const out = (code: number, obj: ApiObject) => {
      // An object the store just wrote (or kept): its stored JSON with the resourceVersion spliced in.
      const stored = !versions.converts && (negotiate(ctx.req.headers.accept) ?? 'json') === 'json' ? store.writtenJSON(obj, apiVersion) : null;
      if (stored) return writeJSONText(ctx, code, stored);
      return writeObject(ctx, code, withTypeMeta(view(obj), apiVersion, served.kind));
    };
    const q = ctx.url.searchParams;
    const dryRun = parseDryRun(q, OPTIONS_KIND[info.verb] ?? 'GetOptions');
    const user = ctx.user;
    /** managedFields bookkeeping of a write verb, by the request's field manager. */
    const tracking = (optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', apply = false): FieldTracking => ({
      manager: fieldManagerOf(q, ctx.req.headers['user-agent'], optionsKind, apply),
      apiVersion: served.group === '' ? served.version : `${served.group}/${served.version}`,
      kind: served.kind,
      schema: schemaFor(served.group, served.version, served.kind),
      ...(info.subresource ? { subresource: info.subresource } : {}),
      ignored: resetFields(store.strategy.hasStatus, info.subresource || undefined),
      converter: managedFieldsConverter(served),
    });
    /** managedFields kept in the request's version; what the store gets is in the storage version. */
    const track = (t: FieldTracking): TrackFields => (live, next) => versions.toStorage(trackWrite(t, live && view(live), next));

    if (served.group === '' && served.resource === 'pods' && POD_STREAM_SUBRESOURCES.has(info.subresource)) return servePodStream(ctx, info, { pod: (ns, n) => store.get(ns, n), node: (n) => registry.store('', 'nodes').get('', n) });
    if (served.group === '' && served.resource === 'serviceaccounts' && info.subresource === 'token') {
      if (tokenRequest && info.verb === 'create') return tokenRequest(ctx, info);
      throw newMethodNotSupported({ group: served.group, resource: 'serviceaccounts/token' }, info.verb);
    }
    if (info.subresource === 'scale') {
      if (info.verb === 'get') return writeObject(ctx, 200, getScale(await store.get(info.namespace, info.name)));
      if (info.verb === 'update') return writeObject(ctx, 200, getScale(await updateScale(store, info, await requireBody(ctx), { dryRun, user, track: track(tracking('UpdateOptions')) })));
      if (info.verb === 'patch') {
        const type = patchTypeOf(ctx.req.headers['content-type'], true);
        if (type === 'apply') throw newUnsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
        const t = tracking('PatchOptions');
        const patch = decodePatch(type, (await readBody(ctx.req)).toString('utf8'));
        // Scale has no lists, so a strategic merge patch merges as a merge patch does.
        const apply = (scale: Record<string, unknown>) => applyPatch(scale as JsonObject, patch, undefined) as Record<string, unknown>;
        return writeObject(ctx, 200, getScale(await patchScale(store, info, apply, { dryRun, user, track: track(t) })));
      }
      throw newMethodNotSupported({ group: served.group, resource: `${served.resource}/scale` }, info.verb);
    }

    switch (info.verb) {
      case 'get': {
        const target = negotiateTarget(ctx.req.headers.accept, false)!;
        if (target.as === 'object' && target.encoding === 'json' && !info.subresource) {
          return writeJSONText(ctx, 200, await store.getJSON(info.namespace, info.name, planGet(q), apiVersion, view));
        }
        const obj = view(await store.get(info.namespace, info.name, planGet(q)));
        if (target.as === 'object') return out(200, obj);
        const converted = convertObject(target, withTypeMeta(obj, apiVersion, served.kind), { group: served.group, resource: served.resource, includeObject: includeObjectOf(q) });
        return writeObject(ctx, 200, converted, target.encoding, contentTypeOf(target));
      }
      case 'list': {
        const target = negotiateTarget(ctx.req.headers.accept, true)!;
        const plan = planList(q, store.collectionPrefix(info.namespace));
        const predicate = listPredicate(served, q);
        if (target.as === 'object' && target.encoding === 'json') {
          return serveListJSON(ctx, { store, namespace: info.namespace, plan, predicate, kind: `${served.kind}List`, apiVersion, ...(versions.converts ? { convert: view } : {}) });
        }
        const r = await store.list(info.namespace, { predicate, plan });
        const metadata = { resourceVersion: r.resourceVersion, ...(r.continue ? { continue: r.continue } : {}), ...(r.remainingItemCount ? { remainingItemCount: r.remainingItemCount } : {}) };
        if (target.as !== 'object') {
          const items = r.items.map((o) => withTypeMeta(view(o), apiVersion, served.kind));
          return writeObject(ctx, 200, convertList(target, items, metadata, { group: served.group, resource: served.resource, includeObject: includeObjectOf(q) }), target.encoding, contentTypeOf(target));
        }
        return writeObject(ctx, 200, { kind: `${served.kind}List`, apiVersion, metadata, items: r.items.map((o) => withoutTypeMeta(view(o))) });
      }
      case 'create': {
        if (info.subresource) throw newMethodNotSupported({ group: served.group, resource: `${served.resource}/${info.subresource}` }, 'create');
        const t = tracking('CreateOptions');
        const obj = bodyObject(await typedBody(ctx, served, 'CreateOptions', gates), info, served);
        return out(201, await store.create(info.namespace, obj, { dryRun, user, track: track(t) }));
      }
      case 'update': {
        const t = tracking('UpdateOptions');
        const obj = bodyObject(await typedBody(ctx, served, 'UpdateOptions', gates), info, served);
        if (info.subresource === 'finalize') {
          // As kube-apiserver, /finalize keeps no managedFields of its own.
          const r = await store.guaranteedUpdate(info.namespace, info.name, (cur) => applyFinalize(cur, obj), { dryRun, user, subresource: 'finalize' });
          return out(200, r);
        }
        const r = await store.update(info.namespace, info.name, obj, { dryRun, user, subresource: info.subresource || undefined, track: track(t) });
        return out(r.created ? 201 : 200, r.object);
      }
      case 'delete': {
        const opts = await deleteOptions(ctx, dryRun);
        const r = await store.delete(info.namespace, info.name, opts);
        if (r.deleted && !store.strategy.returnDeletedObject) return writeObject(ctx, 200, successStatus(served, r.object));
        return out(200, r.object);
      }
      case 'deletecollection': {
        const opts = await deleteOptions(ctx, dryRun);
        const { items, resourceVersion } = await store.deleteCollection(info.namespace, { predicate: listPredicate(served, q) }, opts);
        return writeObject(ctx, 200, { kind: `${served.kind}List`, apiVersion, metadata: { resourceVersion }, items: items.map((o) => withoutTypeMeta(view(o))) });
      }
      case 'patch': {
        const r = await servePatch(ctx, { store, served, info, apiVersion, dryRun, gates, tracking, track, versions });
        return out(r.created ? 201 : 200, r.object);
      }
      case 'watch': {
        const selected = listPredicate(served, q);
        const byName = info.name ? (o: ApiObject) => o.metadata.name === info.name : undefined;
        const predicate = selected && byName ? (o: ApiObject) => byName(o) && selected(o) : (selected ?? byName);
        const target = negotiateTarget(ctx.req.headers.accept, true)!;
        const render = target.as === 'object' ? undefined : watchConverter(target, { group: served.group, resource: served.resource, includeObject: includeObjectOf(q) });
        const protobuf = target.encoding === 'protobuf';
        const contentType = protobuf ? watchContentType(protobufMediaType(ctx.req.headers.accept)) : contentTypeOf({ ...target, encoding: 'json' });
        return serveWatch(ctx, { store, namespace: info.namespace, apiVersion, kind: served.kind, predicate, settings: watchSettings, render, contentType, protobuf, ...(versions.converts ? { convert: view } : {}) });
      }
      default:
        throw newMethodNotSupported({ group: served.group, resource: served.resource }, info.verb);
    }
  };
}

/** A write body decoded as its kind (types checked, unknown and duplicate fields per fieldValidation, pruned, defaulted). */
async function typedBody(ctx: RequestContext, served: ServedResource, optionsKind: string, gates: FeatureGates): Promise<Record<string, unknown>> {
  const mode = fieldValidationOf(ctx.url.searchParams, optionsKind);
  const body = await readObjectBody(ctx.req);
  if (!body) throw newBadRequest('the body of the request was empty');
  for (const w of decodeAsKind(served, body.value, body.duplicates, mode, gates)) addWarning(ctx, w);
  return body.value;
}

/** Decodes `value` in place as the served kind, as Kubernetes decodes a body; returns the field-validation warnings. */
function decodeAsKind(served: ServedResource, value: Record<string, unknown>, duplicates: readonly string[], mode: FieldValidation, gates: FeatureGates, strictError?: (detail: string) => Error): string[] {
  const schema = schemaFor(served.group, served.version, served.kind);
  const warnings = decodeTyped({ body: value, duplicates, schema, kind: served.kind, version: served.version, mode, ...(strictError ? { strictError } : {}) });
  defaulterFor(served.group, served.version, served.kind, gates)?.(value); // as Kubernetes defaults on decode
  if (schema) finishGoDecode(schema, value); // Go's omitempty drop, then its always-written zero values, in one walk
  return warnings;
}

/**
 * PATCH: a JSON, merge or strategic merge patch, or a server-side apply; the
 * patched object takes the update path (an apply may create the object).
 */
async function servePatch(
  ctx: RequestContext,
  p: { store: GenericStore; served: ServedResource; info: ResourceRequestInfo; apiVersion: string; dryRun: boolean; gates: FeatureGates; tracking: (kind: 'PatchOptions', apply: boolean) => FieldTracking; track: (t: FieldTracking) => TrackFields; versions: Versioner },
): Promise<{ object: ApiObject; created: boolean }> {
  const { store, served, info } = p;
  const schema = schemaFor(served.group, served.version, served.kind);
  const type = patchTypeOf(ctx.req.headers['content-type'], schema !== undefined);
  const t = p.tracking('PatchOptions', type === 'apply');
  const mode = fieldValidationOf(ctx.url.searchParams, 'PatchOptions');
  const text = (await readBody(ctx.req)).toString('utf8');
  let warnings: string[] = [];
  const opts = { dryRun: p.dryRun, user: ctx.user, subresource: info.subresource || undefined };
  /** The patched object, checked against the URL and decoded as the kind. */
  const finish = (patched: Record<string, unknown>, current: ApiObject | undefined, strictError?: (detail: string) => Error): ApiObject => {
    const name = isObject(patched.metadata) ? patched.metadata.name : undefined;
    if (typeof name === 'string' && name !== info.name) throw newBadRequest(`the name of the object (${name}) does not match the name on the URL (${info.name})`);
    const rv = isObject(patched.metadata) ? patched.metadata.resourceVersion : undefined;
    if (current && rv !== undefined && rv !== null && rv !== current.metadata.resourceVersion) {
      throw newConflict({ group: served.group, resource: served.resource }, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    warnings = decodeAsKind(served, patched, [], mode, p.gates, strictError);
    return bodyObject(patched, info, served);
  };
  if (type === 'apply') {
    const req = decodeApply(text, ctx.url.searchParams, mode);
    const r = await store.upsert(info.namespace, info.name, (current) => {
      const live = current && withTypeMeta(p.versions.toRequest(current), p.apiVersion, served.kind);
      return p.versions.toStorage(finish(applyTo(t, live, req) as Record<string, unknown>, current));
    }, opts);
    for (const w of [...req.warnings, ...warnings]) addWarning(ctx, w);
    return r;
  }
  const patch = decodePatch(type, text);
  const object = await store.guaranteedUpdate(info.namespace, info.name, (current) => {
    const patched = applyPatch(withTypeMeta(p.versions.toRequest(current), p.apiVersion, served.kind) as JsonObject, patch, schema) as Record<string, unknown>;
    return finish(patched, current, (detail) => strictPatchError(patch, patched, detail));
  }, { ...opts, track: p.track(t) });
  for (const w of warnings) addWarning(ctx, w);
  return { object, created: false };
}

/**
 * A Strict field-validation failure of a patch, as Kubernetes reports it: 422
 * on the field `patch`, whose value is the patched object as JSON (top-level
 * keys sorted, as Go writes a map) or, for a strategic merge patch, the patch
 * as Go prints a map.
 */
function strictPatchError(patch: ReturnType<typeof decodePatch>, patched: Record<string, unknown>, detail: string): Error {
  const value = patch.type === 'strategic' ? goFormat(patch.doc) : JSON.stringify(Object.fromEntries(Object.keys(patched).sort().map((k) => [k, patched[k]])));
  return newInvalid({ group: '', kind: '' }, '', [invalid(fieldPath('patch'), value, detail)]);
}

async function requireBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  const body = await readObject(ctx.req);
  if (!body) throw newBadRequest('the body of the request was empty');
  return body;
}

/** The body as an object of the URL's kind: apiVersion/kind filled in when absent, and checked when present. */
function bodyObject(body: Record<string, unknown>, info: ResourceRequestInfo, served: ServedResource): ApiObject {
  const kind = body.kind;
  if (kind !== undefined && kind !== served.kind && !(info.subresource === 'status' || info.subresource === 'finalize')) {
    throw newBadRequest(`the API version in the data (${String(body.apiVersion ?? '')}) does not match the expected API version (${info.apiGroup ? `${info.apiGroup}/` : ''}${info.apiVersion}) or kind (${served.kind})`);
  }
  if (body.metadata !== undefined && !isObject(body.metadata)) throw newBadRequest('metadata must be an object');
  return { ...body, metadata: { ...((body.metadata as object) ?? {}) } } as ApiObject;
}

const OPTIONS_KIND: Record<string, string> = { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions', deletecollection: 'DeleteOptions' };

function parseDryRun(q: URLSearchParams, optionsKind: string): boolean {
  const values = q.getAll('dryRun');
  if (values.some((v) => v !== 'All')) {
    throw newInvalid({ group: 'meta.svc.io', kind: optionsKind }, '', [notSupported(fieldPath('dryRun'), values, ['All'])]);
  }
  return values.length > 0;
}

async function deleteOptions(ctx: RequestContext, dryRun: boolean): Promise<DeleteOptions> {
  const body = (await readObject(ctx.req)) ?? {};
  const q = ctx.url.searchParams;
  const grace = q.get('gracePeriodSeconds') ?? (body.gracePeriodSeconds === undefined ? undefined : String(body.gracePeriodSeconds));
  if (grace !== undefined && !/^-?\d+$/.test(grace)) throw newBadRequest(`gracePeriodSeconds must be an integer, got ${JSON.stringify(grace)}`);
  const preconditions = isObject(body.preconditions) ? (body.preconditions as DeleteOptions['preconditions']) : undefined;
  const policy = q.get('propagationPolicy') ?? (typeof body.propagationPolicy === 'string' ? body.propagationPolicy : undefined);
  const bodyDryRun = Array.isArray(body.dryRun) && body.dryRun.includes('All');
  return { dryRun: dryRun || bodyDryRun || queryBool(q, 'dryRun'), user: ctx.user, preconditions, gracePeriodSeconds: grace === undefined ? undefined : Number(grace), propagationPolicy: policy };
}

function successStatus(served: ServedResource, obj: ApiObject): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: obj.metadata.name ?? '', ...(served.group ? { group: served.group } : {}), kind: served.resource, uid: obj.metadata.uid ?? '' },
  };
}

/** An object without apiVersion and kind, as list items are written. */
function withoutTypeMeta(obj: ApiObject): Omit<ApiObject, 'apiVersion' | 'kind'> {
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

export type { GenericStore };

/** A path no route matches at all: Kubernetes answers these with a plain-text 404. */
export class PageNotFound extends Error {
  override readonly name = 'PageNotFound';
}
