// gRPC failures → CriError, once, at the client's edge; and the text Go's
// status errors print, which the kubelet puts in Events and statuses
// (`rpc error: code = NotFound desc = …`).
import { CriError } from './types.js';

/** gRPC status codes by number, spelled as Go's codes.Code.String(). */
const CODE_NAMES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists',
  'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented',
  'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated',
] as const;

export const UNKNOWN = 2;

export function codeName(code: number): string {
  return CODE_NAMES[code] ?? `Code(${code})`;
}

/** `rpc error: code = NotFound desc = …`, as the kubelet prints a failed CRI call. */
export function rpcErrorText(err: CriError): string {
  return `rpc error: code = ${codeName(err.code)} desc = ${err.message}`;
}

/** A grpc-js ServiceError (code + details) or anything else thrown during a call → CriError. */
export function toCriError(err: unknown, method: string): CriError {
  if (err instanceof CriError) return err;
  if (typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number') {
    const e = err as { code: number; details?: unknown; message?: unknown };
    const details = typeof e.details === 'string' ? e.details : String(e.message ?? '');
    return new CriError(e.code, details, method);
  }
  // Not a status (a local encoding failure, say): Go's status.Code gives Unknown for such errors.
  return new CriError(UNKNOWN, err instanceof Error ? err.message : String(err), method);
}
