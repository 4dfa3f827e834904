// Resource requests: one handler per verb over the registry's generic store.
// Route (routes.ts: 404/405) → negotiate (406) → decode (JSON/YAML/protobuf)
// as the endpoint's kind (bodykind.ts) → fill namespace from the URL → store
// (strategy, validation, admission, storage) → encode in the request's group
// spelling.
import { fieldPath, newBadRequest, newInvalid, newMethodNotAllowed, newMethodNotSupported, newNotAcceptable, newNotFound, newRouteNotAcceptable, notSupported, type Status } from '../api/meta/index.js';
import { resourceInfoOf, type RequestContext } from '../server/context.js';
import { addWarning, writeJSONText, writeObject, writeProtobufList } from '../server/respond.js';
import { auditRequestObject } from '../audit/record.js';
import { addAuditAnnotation } from '../server/auditannotations.js';
import type { CustomKind, Registry, ServedResource } from '../registry/registry.js';
import type { DeleteOptions, GenericStore, TrackFields } from '../registry/store.js';
import { type ApiObject, isObject, withTypeMeta } from '../registry/object.js';
import { applyFinalize } from '../registry/strategies/namespaces.js';
import { collectionCreator, subresourceCreator } from '../registry/subresources.js';
import { groupSpelling, spellApiVersion, spellGroup, type ResourceRequestInfo } from './requestinfo.js';
import { readObjectBody } from './body.js';
import { isConnecter, matchRoute, routeSegments } from './routes.js';
import { checkDeleteOptionsKind, type EndpointKind } from './bodykind.js';
import { schemaFor } from '../api/schemas.js';
import { kindSchema } from './kindschema.js';
import { DEFAULT_GATES, type FeatureGates } from '../features/gates.js';
import { acceptsAny, BODY_TYPES, contentTypeOf, negotiate, negotiateTarget, protobufMediaType, TEXT_BODY_TYPES, type Capabilities } from './negotiate.js';
import { watchContentType } from '../protobuf/index.js';
import { convertList, convertObject, includeObjectOf, watchConverter } from './convert.js';
import { listPredicate } from './selectors.js';
import { serveScale } from './scaleverb.js';
import { serveProxy } from './proxies.js';
import { connectOptions } from './connectoptions.js';
import { POD_STREAM_SUBRESOURCES, servePodStream } from './podstreams.js';
import type { KubeletClient } from './kubeletclient.js';
import { review, type ReviewDeps } from './reviews.js';
import type { SubresourceHandler } from './tokenrequest.js';
import { planGet, planList, type ListPlan } from '../registry/listoptions.js';
import { DEFAULT_WATCH_SETTINGS, serveWatch, type WatchSettings } from './watch.js';
import { serveListJSON } from './liststream.js';
import { timed } from '../metrics/latencytrackers.js';
import { fieldManagerOf, trackWrite, type FieldTracking } from './fieldmanager.js';
import { deleteOptionsObject, writeOptions } from './writeoptions.js';
import { resetFields } from './resetfields.js';
import { managedFieldsConverter, versionerFor } from './versioning.js';
import { kindedBody, typedBody, checkPutTarget, bodyObject } from './writebody.js';
import { servePatch } from './patchverb.js';
import { deprecatedEndpoint, signalDeprecated } from '../deprecation/signal.js';

/** An unpaged list's objects in small chunks (decoded once each; a filter's decoding is reused). */
async function* decodedChunks(store: GenericStore, namespace: string, plan: ListPlan, predicate: ((obj: ApiObject) => boolean) | undefined): AsyncGenerator<{ revision: number; items: ApiObject[] }> {
  for await (const c of store.scan(namespace, plan.mode, predicate, { chunk: PROTOBUF_LIST_CHUNK })) {
    yield { revision: c.revision, items: c.entries.map((e) => e.obj ?? store.decode(e.kv)) };
  }
}

/** Objects decoded and encoded between two turns of a protobuf list (src/server/bulklane.ts). */
const PROTOBUF_LIST_CHUNK = 100;

/** `tokenRequest`: serviceaccounts/<name>/token (src/endpoints/tokenrequest.ts); without it the subresource answers 405. */
export function resourceHandler(registry: Registry, reviews: ReviewDeps, watchSettings: WatchSettings = DEFAULT_WATCH_SETTINGS, gates: FeatureGates = DEFAULT_GATES, tokenRequest?: SubresourceHandler, kubelet?: KubeletClient) {
  return async (ctx: RequestContext): Promise<void> => {
    const info = resourceInfoOf(ctx);
    // Routes first (404, then 405), as go-restful matches them; then what the request accepts (406).
    const match = matchRoute(ctx.req.method ?? 'GET', routeSegments(info), (resource) => registry.lookup(info.apiGroup, info.apiVersion, resource));
    if (!match.route) {
      if (match.status === 405) throw newMethodNotAllowed();
      if (!registry.servesGroup(info.apiGroup)) throw new PageNotFound();
      throw newNotFound({ group: '', resource: '' }, '', 'the server could not find the requested resource');
    }
    const served = match.route.resource;
    const sub = match.route.subresource;
    const caps = { protobuf: !served.custom }; // custom resources: JSON and YAML only, as kube serves them
    checkAcceptable(ctx, info, caps);
    const deprecated = deprecatedEndpoint(served, sub, info.apiGroup);
    if (deprecated) signalDeprecated(ctx, deprecated);
    if (served.custom) checkCustom(ctx, info, served.custom);
    // A list route with ?watch on a kind that cannot be watched.
    if (info.verb === 'watch' && !served.verbs.includes('watch')) throw newMethodNotSupported({ group: served.group, resource: served.resource }, 'watch');
    const spelling = groupSpelling(info.apiGroup);
    /** What write bodies decode as: the resource's kind, or the subresource's (autoscaling/v1 Scale). */
    const endpoint: EndpointKind = sub?.group !== undefined
      ? { group: sub.group, version: sub.version ?? served.version, kind: sub.kind, spelledGroup: spellGroup(sub.group, spelling) }
      : { group: served.group, version: served.version, kind: sub?.kind ?? served.kind, spelledGroup: info.apiGroup, ...(served.custom ? { custom: true } : {}) };
    if (served.virtual) {
      const apiVersion = spellApiVersion(served.group === '' ? served.version : `${served.group}/${served.version}`, spelling);
      const body = info.verb === 'create' ? await kindedBody(ctx, endpoint) : undefined;
      if (body) auditRequestObject(ctx, body);
      const writes = body && collectionCreator(served.group, served.resource);
      if (writes) {
        const dryRun = parseDryRun(ctx.url.searchParams, 'CreateOptions');
        return writeObject(ctx, 201, await writes(registry, info.namespace, body as ApiObject, { dryRun, user: ctx.user, requestInfo: info, options: writeOptions('CreateOptions', ctx.url.searchParams), warn: (w) => addWarning(ctx, w), annotate: (k, v) => addAuditAnnotation(ctx, k, v), latency: ctx }));
      }
      const answer = body && (await review(reviews, { kind: served.kind, group: served.group, namespace: info.namespace, user: ctx.user!, body }));
      if (!answer) throw newMethodNotSupported({ group: served.group, resource: served.resource }, info.verb);
      const managedFields = reviewManagedFields(ctx, served, body);
      if (managedFields) answer.metadata = { ...(answer.metadata as object), managedFields };
      return writeObject(ctx, 201, { kind: served.kind, apiVersion, ...answer });
    }
    const store = registry.store(served.group, served.resource);
    const versions = versionerFor(served, gates);
    const view = versions.toRequest;
    const apiVersion = spellApiVersion(served.group === '' ? served.version : `${served.group}/${served.version}`, groupSpelling(info.apiGroup));
    const lens = versions.lens;
    /** Objects read from the store in the request's version (a conversion webhook's call when it converts). */
    const shown = async (obj: ApiObject): Promise<ApiObject> => (lens ? (await lens.toRequestMany([obj], false))[0]! : timed(ctx, 'transformMs', () => view(obj)));
    const shownList = async (objs: ApiObject[]): Promise<ApiObject[]> => (lens ? lens.toRequestMany(objs, true) : timed(ctx, 'transformMs', () => objs.map(view)));
    const out = (code: number, obj: ApiObject) => {
      // An object the store just wrote (or kept): its stored JSON with the resourceVersion spliced in.
      const stored = !versions.converts && (negotiate(ctx.req.headers.accept, caps) ?? 'json') === 'json' ? store.writtenJSON(obj, apiVersion) : null;
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
      schema: kindSchema(served),
      ...(info.subresource ? { subresource: info.subresource } : {}),
      ignored: resetFields(served.group, served.resource, store.strategy.hasStatus, info.subresource || undefined),
      converter: managedFieldsConverter(served),
      ...(served.custom ? { unstructured: true } : {}),
    });
    /**
     * managedFields kept in the request's version; what the store gets is in the storage version. As kube's
     * field manager sees a built-in kind's object after its decoding into the internal version, the object is
     * tracked as it comes back from the storage version when the two differ: what converting adds (an
     * autoscaling/v1 HPA's CPU target of 80) belongs to the writer as much as what it sent.
     */
    const roundTrip = versions.converts && !served.custom ? (o: ApiObject) => view(versions.toStorage(o)) : (o: ApiObject) => o;
    const track = (t: FieldTracking): TrackFields => (live, next) => versions.toStorage(trackWrite(t, live && view(live), roundTrip(next)));
    /** What every write of this request tells the store. */
    const writeCtx = { dryRun, user, requestInfo: info, warn: (w: string) => addWarning(ctx, w), annotate: (k: string, v: string) => addAuditAnnotation(ctx, k, v), latency: ctx, ...(lens ? { lens } : {}) };

    const connecting = served.group === '' ? connectOptions(served.resource, info, q) : undefined;
    if (connecting) await store.admitConnect(info.namespace, info.name, info.subresource, connecting, user);
    if (served.group === '' && served.resource === 'pods' && POD_STREAM_SUBRESOURCES.has(info.subresource)) return servePodStream(ctx, info, { pod: (ns, n) => store.get(ns, n), node: (n) => registry.store('', 'nodes').get('', n), ...(kubelet ? { kubelet } : {}) });
    if (sub && isConnecter(sub)) {
      // The proxies: answered here, never by the parent's verbs below (a DELETE …/proxy would delete the parent).
      return serveProxy(served.resource, info, { parent: (ns, n) => store.get(ns, n), endpoints: (ns, n) => registry.store('', 'endpoints').get(ns, n) });
    }
    if (served.group === '' && served.resource === 'serviceaccounts' && info.subresource === 'token') {
      if (tokenRequest && info.verb === 'create') return tokenRequest(ctx, info);
      throw newMethodNotSupported({ group: served.group, resource: 'serviceaccounts/token' }, info.verb);
    }
    if (info.subresource === 'scale') return serveScale(ctx, { store, served, info, endpoint, dryRun, user, ...(versions.lens ? { lens: versions.lens } : {}) });

    switch (info.verb) {
      case 'get': {
        const target = negotiateTarget(ctx.req.headers.accept, false, caps)!;
        if (target.as === 'object' && target.encoding === 'json' && !info.subresource && !lens) {
          return writeJSONText(ctx, 200, await store.getJSON(info.namespace, info.name, planGet(q), apiVersion, view, ctx));
        }
        const obj = await shown(await store.get(info.namespace, info.name, planGet(q), ctx));
        if (target.as === 'object') return out(200, obj);
        const converted = timed(ctx, 'transformMs', () => convertObject(target, withTypeMeta(obj, apiVersion, served.kind), { group: served.group, resource: served.resource, includeObject: includeObjectOf(q), printer: served.custom?.printer }));
        return writeObject(ctx, 200, converted, target.encoding, contentTypeOf(target));
      }
      case 'list': {
        const target = negotiateTarget(ctx.req.headers.accept, true, caps)!;
        const plan = planList(q, store.collectionPrefix(info.namespace));
        const predicate = listPredicate(served, q);
        if (target.as === 'object' && target.encoding === 'json' && !lens) {
          return serveListJSON(ctx, { store, namespace: info.namespace, plan, predicate, kind: `${served.kind}List`, apiVersion, ...(versions.converts ? { convert: view } : {}), ...(served.custom ? { unstructured: { kind: served.kind } } : {}) });
        }
        if (target.as === 'object' && target.encoding === 'protobuf' && !lens && plan.limit === 0) {
          // unpaged protobuf lists are encoded chunk by chunk, taking turns with other requests
          return writeProtobufList(ctx, decodedChunks(store, info.namespace, plan, predicate), `${served.kind}List`, apiVersion, view);
        }
        const r = await store.list(info.namespace, { predicate, plan, latency: ctx });
        const metadata = { resourceVersion: r.resourceVersion, ...(r.continue ? { continue: r.continue } : {}), ...(r.remainingItemCount ? { remainingItemCount: r.remainingItemCount } : {}) };
        const converted = await shownList(r.items);
        if (target.as !== 'object') {
          const items = converted.map((o) => withTypeMeta(o, apiVersion, served.kind));
          const table = timed(ctx, 'transformMs', () => convertList(target, items, metadata, { group: served.group, resource: served.resource, includeObject: includeObjectOf(q), printer: served.custom?.printer }));
          return writeObject(ctx, 200, table, target.encoding, contentTypeOf(target));
        }
        // Custom resources list as unstructured lists: items keep their kind and apiVersion.
        const items = served.custom ? converted.map((o) => withTypeMeta(o, apiVersion, served.kind)) : converted.map((o) => withoutTypeMeta(o));
        return writeObject(ctx, 200, { kind: `${served.kind}List`, apiVersion, metadata: served.custom ? { continue: '', ...metadata } : metadata, items });
      }
      case 'create': {
        const creator = info.subresource ? subresourceCreator(served.group, served.resource, info.subresource) : undefined;
        if (creator) {
          const body = (await kindedBody(ctx, endpoint)) as ApiObject;
          auditRequestObject(ctx, body);
          return writeObject(ctx, 201, await creator(registry, info.namespace, info.name, body, { ...writeCtx, options: writeOptions('CreateOptions', q) }));
        }
        if (info.subresource) throw newMethodNotSupported({ group: served.group, resource: `${served.resource}/${info.subresource}` }, 'create');
        const t = tracking('CreateOptions');
        const obj = bodyObject(await typedBody(ctx, served, endpoint, 'CreateOptions', gates));
        auditRequestObject(ctx, obj, { apiVersion, kind: served.kind });
        // A custom resource's body is plain decoded JSON (defaults deep-copied in): the store may change it in place.
        return out(201, await store.create(info.namespace, obj, { ...writeCtx, options: writeOptions('CreateOptions', q), track: track(t), ...(served.custom ? { ownsInput: true } : {}) }));
      }
      case 'update': {
        const t = tracking('UpdateOptions');
        const obj = bodyObject(await typedBody(ctx, served, endpoint, 'UpdateOptions', gates));
        auditRequestObject(ctx, obj, { apiVersion, kind: served.kind });
        checkPutTarget(obj, info, served);
        if (info.subresource === 'finalize') {
          // As kube-apiserver, /finalize keeps no managedFields of its own.
          const r = await store.guaranteedUpdate(info.namespace, info.name, (cur) => applyFinalize(cur, obj), { dryRun, user, subresource: 'finalize' });
          return out(200, r);
        }
        const r = await store.update(info.namespace, info.name, obj, { ...writeCtx, options: writeOptions('UpdateOptions', q), subresource: info.subresource || undefined, track: track(t) });
        return out(r.created ? 201 : 200, r.object);
      }
      case 'delete': {
        const opts = await deleteOptions(ctx, dryRun, spelling, info);
        const r = await store.delete(info.namespace, info.name, lens ? { ...opts, lens } : opts);
        if (r.deleted && !store.strategy.returnDeletedObject) return writeObject(ctx, 200, successStatus(served, r.object));
        return out(200, lens ? await shown(r.object) : r.object);
      }
      case 'deletecollection': {
        const opts = await deleteOptions(ctx, dryRun, spelling, info);
        const { items, resourceVersion } = await store.deleteCollection(info.namespace, { predicate: listPredicate(served, q) }, opts);
        return writeObject(ctx, 200, { kind: `${served.kind}List`, apiVersion, metadata: { resourceVersion }, items: (await shownList(items)).map((o) => withoutTypeMeta(o)) });
      }
      case 'patch': {
        const r = await servePatch(ctx, { store, served, endpoint, info, apiVersion, dryRun, gates, tracking, track, versions });
        return out(r.created ? 201 : 200, r.object);
      }
      case 'watch': {
        const selected = listPredicate(served, q);
        const byName = info.name ? (o: ApiObject) => o.metadata.name === info.name : undefined;
        const predicate = selected && byName ? (o: ApiObject) => byName(o) && selected(o) : (selected ?? byName);
        const target = negotiateTarget(ctx.req.headers.accept, true, caps)!;
        const render = target.as === 'object' ? undefined : watchConverter(target, { group: served.group, resource: served.resource, includeObject: includeObjectOf(q), printer: served.custom?.printer });
        const protobuf = target.encoding === 'protobuf';
        const contentType = protobuf ? watchContentType(protobufMediaType(ctx.req.headers.accept)) : contentTypeOf({ ...target, encoding: 'json' });
        return serveWatch(ctx, { store, namespace: info.namespace, apiVersion, kind: served.kind, predicate, settings: watchSettings, render, contentType, protobuf, ...(lens ? { convertMany: (objs: ApiObject[]) => lens.toRequestMany(objs, false) } : versions.converts ? { convert: view } : {}) });
      }
      default:
        throw newMethodNotSupported({ group: served.group, resource: served.resource }, info.verb);
    }
  };
}

/** Whether the request accepts something the verb can answer in; 406 otherwise. */
/** kube's CRD handler: a terminating CRD takes no creates (its deprecated versions warn through src/deprecation/). */
function checkCustom(ctx: RequestContext, info: ResourceRequestInfo, custom: CustomKind): void {
  if (custom.terminating && info.verb === 'create') {
    const err = newMethodNotSupported({ group: info.apiGroup, resource: info.resource }, info.verb);
    err.status.message = `${info.verb} not allowed while custom resource definition is terminating`;
    throw err;
  }
}

function checkAcceptable(ctx: RequestContext, info: ResourceRequestInfo, caps: Capabilities): void {
  const read = info.verb === 'get' || info.verb === 'list' || info.verb === 'watch';
  // go-restful first matches the Accept's bare types against the route's Produces (406 in its
  // words), then the handler negotiates the parameters (as=Table…) and answers its own 406.
  const types = caps.protobuf === false ? TEXT_BODY_TYPES : BODY_TYPES;
  if (!acceptsAny(ctx.req.headers.accept, types)) throw newRouteNotAcceptable(types);
  const acceptable = read ? negotiateTarget(ctx.req.headers.accept, info.verb !== 'get', caps) !== null : negotiate(ctx.req.headers.accept, caps) !== null;
  if (!acceptable) throw newNotAcceptable(types);
}


const OPTIONS_KIND: Record<string, string> = { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions', deletecollection: 'DeleteOptions' };

function parseDryRun(q: URLSearchParams, optionsKind: string): boolean {
  return checkDryRun(q.getAll('dryRun'), optionsKind);
}

/** dryRun values: none, or only `All` (422 on the options kind otherwise). */
function checkDryRun(values: readonly string[], optionsKind: string): boolean {
  if (values.some((v) => v !== 'All')) {
    throw newInvalid({ group: 'meta.svc.io', kind: optionsKind }, '', [notSupported(fieldPath('dryRun'), values, ['All'])]);
  }
  return values.length > 0;
}

/**
 * DeleteOptions of a DELETE, as Kubernetes reads them: from the body when
 * there is one (which must be DeleteOptions; see bodykind.ts), else from the
 * query — never both.
 */
async function deleteOptions(ctx: RequestContext, queryDryRun: boolean, spelling: ReturnType<typeof groupSpelling>, info?: ResourceRequestInfo): Promise<DeleteOptions> {
  const read = await readObjectBody(ctx.req);
  if (read) checkDeleteOptionsKind(read.value, read.raw, spellGroup('meta.svc.io', spelling));
  if (read) auditRequestObject(ctx, read.value);
  const body = read?.value;
  const q = ctx.url.searchParams;
  const grace = body ? (body.gracePeriodSeconds === undefined || body.gracePeriodSeconds === null ? undefined : String(body.gracePeriodSeconds)) : (q.get('gracePeriodSeconds') ?? undefined);
  if (grace !== undefined && !/^-?\d+$/.test(grace)) throw newBadRequest(`gracePeriodSeconds must be an integer, got ${JSON.stringify(grace)}`);
  const preconditions = body && isObject(body.preconditions) ? (body.preconditions as DeleteOptions['preconditions']) : undefined;
  const policy = body ? (typeof body.propagationPolicy === 'string' ? body.propagationPolicy : undefined) : (q.get('propagationPolicy') ?? undefined);
  const dryRun = body ? checkDryRun(Array.isArray(body.dryRun) ? body.dryRun.map(String) : [], 'DeleteOptions') : queryDryRun;
  const opts = { dryRun, user: ctx.user, preconditions, gracePeriodSeconds: grace === undefined ? undefined : Number(grace), propagationPolicy: policy };
  return {
    ...opts, options: deleteOptionsObject(opts), ...(info ? { requestInfo: info } : {}),
    warn: (w: string) => addWarning(ctx, w), annotate: (k: string, v: string) => addAuditAnnotation(ctx, k, v), latency: ctx,
  };
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

/**
 * The managedFields of a review's answer: kube's create handler records the request object's fields
 * for TokenReview and the access reviews; SelfSubjectReview and SelfSubjectRulesReview answer a
 * fresh object without them.
 */
function reviewManagedFields(ctx: RequestContext, served: ServedResource, body: Record<string, unknown>): unknown {
  if (served.kind === 'SelfSubjectReview' || served.kind === 'SelfSubjectRulesReview') return undefined;
  const schema = schemaFor(served.group, served.version, served.kind);
  if (!schema) return undefined;
  const apiVersion = served.group === '' ? served.version : `${served.group}/${served.version}`;
  const t: FieldTracking = { manager: fieldManagerOf(ctx.url.searchParams, ctx.req.headers['user-agent'], 'CreateOptions', false), apiVersion, kind: served.kind, schema };
  const metadata = isObject(body.metadata) ? { ...body.metadata } : {};
  return trackWrite(t, undefined, { ...body, apiVersion, kind: served.kind, metadata } as ApiObject).metadata.managedFields;
}
