// Status: the body of every API error, and StatusError, the one error type
// the edge turns into a response. Constructors carry Kubernetes' reasons,
// codes and message wording (apimachinery pkg/api/errors).
import type { FieldError } from './field.js';
import { errorBody, reasonOf as fieldReason } from './field.js';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

export class StatusError extends Error {
  override readonly name = 'StatusError';
  constructor(readonly status: Status) {
    super(status.message ?? status.reason ?? 'error');
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

export interface QualifiedResource {
  readonly group: string;
  readonly resource: string;
}

export interface QualifiedKind {
  readonly group: string;
  readonly kind: string;
}

function qr(r: QualifiedResource): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

function failure(code: number, reason: string, message: string, details?: StatusDetails): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
}

function resourceDetails(r: QualifiedResource, name: string): StatusDetails {
  return { ...(name ? { name } : {}), ...(r.group ? { group: r.group } : {}), ...(r.resource ? { kind: r.resource } : {}) };
}

/** 404; without a resource ("the server could not find the requested resource") when `r.resource` is empty. */
export function newNotFound(r: QualifiedResource, name: string, message?: string): StatusError {
  if (!r.resource) return failure(404, 'NotFound', message ?? 'the server could not find the requested resource', {});
  return failure(404, 'NotFound', message ?? `${qr(r)} "${name}" not found`, resourceDetails(r, name));
}

export function newAlreadyExists(r: QualifiedResource, name: string): StatusError {
  return failure(409, 'AlreadyExists', `${qr(r)} "${name}" already exists`, resourceDetails(r, name));
}

export function newConflict(r: QualifiedResource, name: string, message: string): StatusError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${qr(r)} "${name}": ${message}`, resourceDetails(r, name));
}

/** 422 with one cause per field error; the message lists them as Kubernetes aggregates them. */
export function newInvalid(k: QualifiedKind, name: string, errors: readonly FieldError[]): StatusError {
  const kind = k.group ? `${k.kind}.${k.group}` : k.kind;
  const list = errors.map((e) => `${e.field}: ${errorBody(e)}`);
  const agg = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  return failure(422, 'Invalid', `${kind} "${name}" is invalid: ${agg}`, {
    ...(name ? { name } : {}),
    ...(k.group ? { group: k.group } : {}),
    ...(k.kind ? { kind: k.kind } : {}),
    causes: errors.map((e) => ({ reason: fieldReason(e), message: errorBody(e), field: e.field })),
  });
}

export function newBadRequest(message: string): StatusError {
  return failure(400, 'BadRequest', message);
}

/** 405 for a verb the resource does not support. */
export function newMethodNotSupported(r: QualifiedResource, verb: string): StatusError {
  return failure(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qr(r)}"`, { ...(r.group ? { group: r.group } : {}), kind: r.resource });
}

/** 405 for an HTTP method no route serves. */
export function newMethodNotAllowed(): StatusError {
  return failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function newNotAcceptable(types: readonly string[]): StatusError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${types.join(', ')}`);
}

/** go-restful's 406 for a route's Produces list, as the API server's service error handler writes it. */
export function newRouteNotAcceptable(produces: readonly string[]): StatusError {
  return failure(406, 'NotAcceptable', `406: Not Acceptable\n\nAvailable representations: ${produces.join(', ')}`, {});
}

export function newUnsupportedMediaType(types: readonly string[]): StatusError {
  return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${types.join(', ')}`);
}

export function newForbidden(r: QualifiedResource, name: string, message: string): StatusError {
  const subject = r.resource ? (name ? `${qr(r)} "${name}"` : qr(r)) : 'forbidden';
  const msg = r.resource ? `${subject} is forbidden: ${message}` : `forbidden: ${message}`;
  return failure(403, 'Forbidden', msg, resourceDetails(r, name));
}

export function newUnauthorized(message: string): StatusError {
  return failure(401, 'Unauthorized', message || 'Unauthorized');
}

export function newRequestEntityTooLarge(message: string): StatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return failure(429, 'TooManyRequests', message, { retryAfterSeconds });
}

/** apimachinery's NewTooManyRequestsError: 429 without a retry-after (the admission plugins' refusal). */
export function newTooManyRequestsError(message: string): StatusError {
  return failure(429, 'TooManyRequests', `Too many requests: ${message}`);
}

export function newGone(message: string): StatusError {
  return failure(410, 'Gone', message);
}

export function newResourceExpired(message: string): StatusError {
  return failure(410, 'Expired', message);
}

export function newTimeout(message: string, retryAfterSeconds: number): StatusError {
  return failure(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds });
}

/** 504 for a resourceVersion newer than the server has seen, after waiting for it. */
export function newTooLargeResourceVersion(requested: number, current: number, retryAfterSeconds?: number): StatusError {
  return failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}

export function newServiceUnavailable(message: string): StatusError {
  return failure(503, 'ServiceUnavailable', message);
}

export function newInternalError(err: Error): StatusError {
  return failure(500, 'InternalError', `Internal error occurred: ${err.message}`, { causes: [{ message: err.message }] });
}

/** The one conversion of any thrown value into a Status (the edge calls it once). */
export function statusFromUnknown(err: unknown): Status {
  if (err instanceof StatusError) return err.status;
  return newInternalError(err instanceof Error ? err : new Error(String(err))).status;
}
