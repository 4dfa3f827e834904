// POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token: the TokenRequest
// subresource (kube's pkg/registry/core/serviceaccount/storage/token.go).
// The body is an authentication.k8s.io/v1 TokenRequest (or the svc.io
// spelling, which the answer then uses); it is decoded and defaulted
// (expirationSeconds 3600) and gets a managedFields entry for the token
// subresource, then:
//   name/namespace in the body must match the URL (422) → the service account
//   must exist (404) → audiences default to --api-audiences → validation
//   (expirationSeconds ≥ 600 and ≤ 2^32: 422) → admission (a CREATE of
//   serviceaccounts/token: NodeRestriction keeps a node to its own pods) →
//   boundObjectRef: a Pod running as this account or a Secret (404 when missing;
//   another kind 400; another uid 409) → capped at
//   --service-account-max-token-expiration (with a warning) → a pod-bound
//   token asking for 3607 s for the API audiences lives a year (warnafter at 3607 s)
//   when --service-account-extend-token-expiration → signed by the first issuer.
// Nothing is stored.
import { fieldPath, invalid, newBadRequest, newConflict, newInvalid, type FieldError } from '../api/meta/index.js';
import { schemaFor } from '../api/schemas.js';
import { finishGoDecode } from '../schema/gozero.js';
import type { Registry } from '../registry/registry.js';
import { isObject, type ApiObject } from '../registry/object.js';
import { userOf, type RequestContext } from '../server/context.js';
import { addWarning, writeObject } from '../server/respond.js';
import { boundClaims, EXPIRATION_EXTENSION_SECONDS, WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, type ServiceAccountTokens } from '../authn/serviceaccount/index.js';
import { readObjectBody } from './body.js';
import { decodeTyped, fieldValidationOf } from './fieldvalidation.js';
import { fieldManagerOf, trackWrite } from './fieldmanager.js';
import type { ResourceRequestInfo } from './requestinfo.js';
import type { SubresourceCreate } from '../registry/subresources.js';
import type { WriteContext } from '../registry/store.js';
import { rfc3339 } from '../api/meta/time.js';

export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

export type SubresourceHandler = (ctx: RequestContext, info: ResourceRequestInfo) => Promise<void>;

/** The handler of serviceaccounts/<name>/token. */
export function tokenRequestHandler(registry: Registry, tokens: ServiceAccountTokens, clock: () => number = Date.now): SubresourceHandler {
  return async (ctx, info) => {
    const schema = schemaFor('authentication.svc.io', 'v1', 'TokenRequest');
    const body = await readObjectBody(ctx.req, 'TokenRequest');
    if (!body) throw newBadRequest('the body of the request was empty');
    const req = body.value;
    const bodyVersion = typeof req.apiVersion === 'string' ? req.apiVersion : '';
    const group = bodyVersion.startsWith('authentication.svc.io/') ? 'authentication.svc.io' : 'authentication.k8s.io';
    const apiVersion = `${group}/v1`;
    if ((req.kind !== undefined && req.kind !== 'TokenRequest') || (bodyVersion !== '' && bodyVersion !== apiVersion)) {
      throw newBadRequest(`the API version in the data (${bodyVersion}) does not match the expected API version (${apiVersion}) or kind (TokenRequest)`);
    }
    const q = ctx.url.searchParams;
    const manager = fieldManagerOf(q, ctx.req.headers['user-agent'], 'CreateOptions');
    for (const w of decodeTyped({ body: req, duplicates: body.duplicates, schema, kind: 'TokenRequest', version: 'v1', mode: fieldValidationOf(q, 'CreateOptions') })) addWarning(ctx, w);
    const spec: Record<string, unknown> = isObject(req.spec) ? { ...req.spec } : {};
    if (spec.expirationSeconds === undefined) spec.expirationSeconds = DEFAULT_TOKEN_EXPIRATION_SECONDS;
    let tr: ApiObject = { apiVersion, kind: 'TokenRequest', ...req, metadata: isObject(req.metadata) ? { ...req.metadata } : {}, spec };
    if (schema) finishGoDecode(schema, tr);
    tr = trackWrite({ manager, apiVersion, kind: 'TokenRequest', schema, subresource: 'token' }, undefined, tr);

    const write: WriteContext = { dryRun: false, user: userOf(ctx), requestInfo: info, warn: (w) => addWarning(ctx, w) };
    const { object, warnings } = await issueTokenRequest(registry, tokens, clock, info, tr, group, write);
    for (const w of warnings) addWarning(ctx, w);
    return writeObject(ctx, 201, object);
  };
}

/**
 * The answer to a decoded, defaulted TokenRequest for serviceaccounts/<name> in
 * <namespace> (kube's TokenREST.Create after decoding), with its warnings.
 */
export async function issueTokenRequest(
  registry: Registry, tokens: ServiceAccountTokens, clock: () => number, info: Pick<ResourceRequestInfo, 'namespace' | 'name'>, tr: ApiObject, group: string, write: WriteContext,
): Promise<{ object: ApiObject; warnings: string[] }> {
  const warnings: string[] = [];
  const apiVersion = `${group}/v1`;
  const spec = tr.spec as Record<string, unknown>;
  const gk = { group, kind: 'TokenRequest' };
  const meta = tr.metadata;
  if (meta.name && meta.name !== info.name) throw newInvalid(gk, info.name, [invalid(fieldPath('metadata.name'), meta.name, 'must match the service account name if specified')]);
  if (meta.namespace && meta.namespace !== info.namespace) throw newInvalid(gk, info.name, [invalid(fieldPath('metadata.namespace'), meta.namespace, 'must match the service account namespace if specified')]);

  const sa = await registry.store('', 'serviceaccounts').get(info.namespace, info.name);
  const audiences = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? (spec.audiences as string[]) : [...tokens.config.apiAudiences];
  spec.audiences = audiences;
  const nowMs = clock();
  let expirationSeconds = spec.expirationSeconds as number;
  const errs: FieldError[] = [];
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) errs.push(invalid(fieldPath('spec.expirationSeconds'), expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) errs.push(invalid(fieldPath('spec.expirationSeconds'), expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  if (errs.length > 0) throw newInvalid(gk, '', errs);
  // admission after validation, as kube's createValidation (NodeRestriction: a node's tokens are for its own pods)
  await registry.store('', 'serviceaccounts').admitSubresourceCreate(info.namespace, info.name, 'token', 'TokenRequest', tr, write);

  const bound = await boundObject(registry, info, isObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined);
  const max = tokens.config.maxExpirationSeconds;
  if (max > 0 && expirationSeconds > max) {
    warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`);
    expirationSeconds = max;
    spec.expirationSeconds = max;
  }
  let exp = expirationSeconds;
  let warnAfter = 0;
  const apiAudiences = tokens.config.apiAudiences;
  if (tokens.config.extendExpiration && bound.pod && expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && audiences.every((a) => apiAudiences.includes(a))) {
    warnAfter = exp;
    exp = EXPIRATION_EXTENSION_SECONDS;
  }
  const now = Math.floor(nowMs / 1000);
  const token = await tokens.issuer.generate(boundClaims({ serviceAccount: sa, ...bound, expirationSeconds: exp, warnAfterSeconds: warnAfter, audiences, now }));
  const { managedFields } = tr.metadata;
  const object: ApiObject = {
    kind: 'TokenRequest',
    apiVersion,
    metadata: { name: sa.metadata.name, namespace: sa.metadata.namespace, creationTimestamp: rfc3339(now * 1000), ...(managedFields ? { managedFields } : {}) },
    spec: { audiences, expirationSeconds, boundObjectRef: isObject(spec.boundObjectRef) ? boundRefOut(spec.boundObjectRef) : null },
    status: { token, expirationTimestamp: rfc3339((now + expirationSeconds) * 1000) },
  };
  return { object, warnings };
}

/**
 * serviceaccounts/token for in-process clients (the agent of `svc server
 * --agent`): the same checks and token as the HTTP handler, from a
 * TokenRequest object; warnings are dropped.
 */
export function tokenRequestCreator(tokens: ServiceAccountTokens, clock: () => number = Date.now): SubresourceCreate {
  return async (registry, namespace, name, req, write) => {
    const bodyVersion = typeof req.apiVersion === 'string' ? req.apiVersion : '';
    const group = bodyVersion.startsWith('authentication.svc.io/') ? 'authentication.svc.io' : 'authentication.k8s.io';
    const apiVersion = `${group}/v1`;
    if ((req.kind !== undefined && req.kind !== 'TokenRequest') || (bodyVersion !== '' && bodyVersion !== apiVersion)) {
      throw newBadRequest(`the API version in the data (${bodyVersion}) does not match the expected API version (${apiVersion}) or kind (TokenRequest)`);
    }
    const spec: Record<string, unknown> = isObject(req.spec) ? { ...req.spec } : {};
    if (spec.expirationSeconds === undefined) spec.expirationSeconds = DEFAULT_TOKEN_EXPIRATION_SECONDS;
    const tr: ApiObject = { ...req, apiVersion, kind: 'TokenRequest', metadata: isObject(req.metadata) ? { ...req.metadata } : {}, spec };
    const schema = schemaFor('authentication.svc.io', 'v1', 'TokenRequest');
    if (schema) finishGoDecode(schema, tr);
    return (await issueTokenRequest(registry, tokens, clock, { namespace, name }, tr, group, write)).object;
  };
}

/** The Pod or Secret a token is bound to, checked as kube checks it. */
async function boundObject(registry: Registry, info: Pick<ResourceRequestInfo, 'namespace' | 'name'>, ref: Record<string, unknown> | undefined): Promise<{ pod?: ApiObject; secret?: ApiObject }> {
  if (!ref) return {};
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  const kind = typeof ref.kind === 'string' ? ref.kind : '';
  const name = typeof ref.name === 'string' ? ref.name : '';
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  let out: { pod?: ApiObject; secret?: ApiObject };
  let uid: string;
  if (group === '' && kind === 'Pod') {
    const pod = await registry.store('', 'pods').get(info.namespace, name);
    const podSA = isObject(pod.spec) && typeof pod.spec.serviceAccountName === 'string' ? pod.spec.serviceAccountName : '';
    if (podSA !== info.name) throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(info.name)} to pod running with different serviceaccount name.`);
    out = { pod };
    uid = pod.metadata.uid ?? '';
  } else if (group === '' && kind === 'Secret') {
    const secret = await registry.store('', 'secrets').get(info.namespace, name);
    out = { secret };
    uid = secret.metadata.uid ?? '';
  } else {
    throw newBadRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const want = typeof ref.uid === 'string' ? ref.uid : '';
  if (want !== '' && want !== uid) {
    throw newConflict({ group, resource: kind }, name, `the UID in the bound object reference (${want}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return out;
}

/** BoundObjectReference as Go writes it: kind, apiVersion, name, uid, empty ones left out. */
function boundRefOut(ref: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['kind', 'apiVersion', 'name', 'uid']) if (typeof ref[k] === 'string' && ref[k] !== '') out[k] = ref[k];
  return out;
}
