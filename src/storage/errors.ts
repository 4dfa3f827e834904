// Typed storage errors. Backends throw only these; the registry layer turns
// them into API errors (NotFound, AlreadyExists, Conflict, Gone, ...).
import type { KeyValue } from './interface.js';

export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'Conflict'
  | 'Compacted'
  | 'FutureRevision'
  | 'ValueTooLarge'
  | 'Unavailable';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly code: StorageErrorCode;
  readonly key: string | undefined;
  /** Conflict: the key's current version. */
  readonly current: KeyValue | undefined;
  /** Compacted: the compacted revision; FutureRevision: the current revision. */
  readonly revision: number | undefined;

  private constructor(code: StorageErrorCode, message: string, extra: { key?: string; current?: KeyValue; revision?: number; cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    this.key = extra.key;
    this.current = extra.current;
    this.revision = extra.revision;
  }

  static keyNotFound(key: string): StorageError {
    return new StorageError('KeyNotFound', `key not found: ${key}`, { key });
  }
  static keyExists(key: string): StorageError {
    return new StorageError('KeyExists', `key exists: ${key}`, { key });
  }
  static conflict(key: string, current: KeyValue, expected: number): StorageError {
    return new StorageError('Conflict', `conflict on ${key}: expected modRevision ${expected}, found ${current.modRevision}`, { key, current });
  }
  static compacted(requested: number, compacted: number): StorageError {
    return new StorageError('Compacted', `revision ${requested} has been compacted (compacted revision ${compacted})`, { revision: compacted });
  }
  static futureRevision(requested: number, current: number): StorageError {
    return new StorageError('FutureRevision', `revision ${requested} is newer than the current revision ${current}`, { revision: current });
  }
  static valueTooLarge(key: string, size: number, limit: number): StorageError {
    return new StorageError('ValueTooLarge', `value of ${key} is ${size} bytes, over the limit of ${limit} bytes`, { key });
  }
  static unavailable(message: string, cause?: unknown): StorageError {
    return new StorageError('Unavailable', `storage unavailable: ${message}`, { cause });
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
