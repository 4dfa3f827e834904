// Write bodies as kube's create and update handlers read them: decoded as the
// endpoint's kind (bodykind.ts), typed and field-validated, defaulted, with
// Go's always-written values; PUT's namespace and name checks.
import { newBadRequest } from '../api/meta/index.js';
import { type RequestContext } from '../server/context.js';
import { addWarning } from '../server/respond.js';
import type { ServedResource } from '../registry/registry.js';
import { type ApiObject, isObject } from '../registry/object.js';
import { type ResourceRequestInfo } from './requestinfo.js';
import { readObjectBody, type ObjectBody } from './body.js';
import { apiVersionMismatch, decodeBodyKind, type DecodedKind, type EndpointKind } from './bodykind.js';
import { decodeTyped, fieldValidationOf, type FieldValidation } from './fieldvalidation.js';
import { kindSchema, type KindRef } from './kindschema.js';
import { finishGoDecode } from '../schema/gozero.js';
import { defaulterFor } from '../api/defaults.js';
import { type FeatureGates } from '../features/gates.js';

/** The body of a create or update, which must be of the endpoint's kind (src/endpoints/bodykind.ts); an empty body is none. */
export async function readKindedBody(ctx: RequestContext, endpoint: EndpointKind): Promise<{ body: ObjectBody; decoded: DecodedKind }> {
  const body = (await readObjectBody(ctx.req, endpoint.kind, endpoint.custom)) ?? emptyBody(ctx, endpoint);
  return { body, decoded: decodeBodyKind(body.value, body.raw, endpoint) };
}

/**
 * An empty body: YAML decodes it as an empty object (the endpoint's kind by
 * default); anything else cannot say what it is.
 */
function emptyBody(ctx: RequestContext, endpoint: EndpointKind): ObjectBody {
  if (/^\s*(application\/(x-)?yaml|text\/yaml)\s*(;|$)/i.test(ctx.req.headers['content-type'] ?? '')) return { value: {}, duplicates: [], raw: Buffer.alloc(0) };
  throw newBadRequest(`the object provided is unrecognized (must be of type ${endpoint.kind}): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`);
}

/** A body of the endpoint's kind, taken as sent (reviews, Scale). */
export async function kindedBody(ctx: RequestContext, endpoint: EndpointKind): Promise<Record<string, unknown>> {
  const { body, decoded } = await readKindedBody(ctx, endpoint);
  if (!decoded.sameVersion) throw apiVersionMismatch(decoded, endpoint);
  return body.value;
}

/**
 * A write body decoded as its kind (types checked, unknown and duplicate
 * fields per fieldValidation, pruned, defaulted). A body of the kind in
 * another version of its group is decoded as that version, then refused.
 */
export async function typedBody(ctx: RequestContext, served: ServedResource, endpoint: EndpointKind, optionsKind: string, gates: FeatureGates): Promise<Record<string, unknown>> {
  const mode = fieldValidationOf(ctx.url.searchParams, optionsKind);
  const { body, decoded } = await readKindedBody(ctx, endpoint);
  const as: KindRef = decoded.sameVersion ? served : { group: decoded.canonicalGroup, version: decoded.version, kind: decoded.kind };
  for (const w of decodeAsKind(as, body.value, body.duplicates, mode, gates)) addWarning(ctx, w);
  if (!decoded.sameVersion) throw apiVersionMismatch(decoded, endpoint);
  return body.value;
}

export type { KindRef };

/** How a patch's decoding problems are reported, and the strict problems of its body (see decodeTyped). */
export type PatchDecoding = Pick<Parameters<typeof decodeTyped>[0], 'strictError' | 'typeError' | 'leading'>;

/** Decodes `value` in place as the kind, as Kubernetes decodes a body; returns the field-validation warnings. */
export function decodeAsKind(served: KindRef, value: Record<string, unknown>, duplicates: readonly string[], mode: FieldValidation, gates: FeatureGates, patch: PatchDecoding = {}): string[] {
  const custom = served.custom;
  if (custom) {
    // A custom resource decodes as unstructured JSON: no Go types; unknown fields are those pruning removes, after defaulting.
    return decodeTyped({ body: value, duplicates, schema: undefined, prune: (body) => custom.decode(body), kind: served.kind, version: served.version, mode, ...patch });
  }
  const schema = kindSchema(served);
  const warnings = decodeTyped({ body: value, duplicates, schema, kind: served.kind, version: served.version, mode, ...patch });
  defaulterFor(served.group, served.version, served.kind, gates)?.(value); // as Kubernetes defaults on decode
  if (schema) finishGoDecode(schema, value); // Go's omitempty drop, then its always-written zero values, in one walk
  return warnings;
}

/**
 * PUT: as Kubernetes' update handler, the body's namespace must be the
 * request's (filled in when absent, dropped for cluster-scoped kinds), then
 * its name must be the URL's.
 */
export function checkPutTarget(body: Record<string, unknown>, info: ResourceRequestInfo, served: ServedResource): void {
  if (body.metadata !== undefined && body.metadata !== null && !isObject(body.metadata)) return; // typed decoding reports it
  const meta = (isObject(body.metadata) ? body.metadata : {}) as { name?: unknown; namespace?: unknown };
  const expected = served.namespaced ? info.namespace : '';
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (namespace !== '' && expected !== '' && namespace !== expected) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (name !== info.name) throw newBadRequest(`the name of the object (${name}) does not match the name on the URL (${info.name})`);
}

/** The body as an object to store (apiVersion and kind are the store's to set). */
export function bodyObject(body: Record<string, unknown>): ApiObject {
  if (body.metadata !== undefined && !isObject(body.metadata)) throw newBadRequest('metadata must be an object');
  return { ...body, metadata: { ...((body.metadata as object) ?? {}) } } as ApiObject;
}
