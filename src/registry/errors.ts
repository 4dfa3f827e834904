// API errors the registry raises, and the one conversion of StorageErrors
// into API errors (NotFound, AlreadyExists, Conflict, Gone, Timeout, ...).
import {
  newAlreadyExists, newBadRequest, newConflict, newInternalError, newInvalid, newNotFound, newGone, newServiceUnavailable,
  isStatusError, fieldPath, notSupported, type FieldError,
} from '../api/meta/index.js';
import { isStorageError } from '../storage/errors.js';

type QR = { group: string; resource: string };

export const notFound = (qr: QR, name: string) => newNotFound(qr, name);
export const alreadyExists = (qr: QR, name: string) => newAlreadyExists(qr, name);
export const conflict = (qr: QR, name: string, msg: string) => newConflict(qr, name, msg);
export const badRequest = (msg: string) => newBadRequest(msg);
export const invalid = (qk: { group: string; kind: string }, name: string, errors: FieldError[]) => newInvalid(qk, name, errors);
export const unsupported = (field: string, value: string, supported: string[]): FieldError => notSupported(fieldPath(field), value, supported);

export function isNotFound(err: unknown): boolean {
  return isStatusError(err) && err.status.code === 404;
}

export function isAlreadyExists(err: unknown): boolean {
  return isStatusError(err) && err.status.reason === 'AlreadyExists';
}

/** Storage errors become API errors here, and only here. */
export function fromStorage(err: unknown, qr: QR, name: string): Error {
  if (isStatusError(err)) return err;
  if (!isStorageError(err)) return newInternalError(err instanceof Error ? err : new Error(String(err)));
  switch (err.code) {
    case 'KeyNotFound':
      return newNotFound(qr, name);
    case 'KeyExists':
      return newAlreadyExists(qr, name);
    case 'Conflict':
      return newConflict(qr, name, 'the object has been modified; please apply your changes to the latest version and try again');
    case 'Compacted':
      return newGone(`too old resource version: ${err.message}`);
    case 'FutureRevision':
      return newBadRequest(err.message);
    case 'ValueTooLarge':
      return newBadRequest(`object is too large to store: ${err.message}`);
    case 'Unavailable':
      return newServiceUnavailable(err.message);
  }
}
