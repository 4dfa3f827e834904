// Storage limits and tunables, in one place so tests can shrink them.
import { StorageError } from './errors.js';

/** Largest value accepted, as etcd's default request limit (1.5 MiB). */
export const MAX_VALUE_BYTES = 1.5 * 1024 * 1024;

export function checkValueSize(key: string, value: Uint8Array): void {
  if (value.byteLength > MAX_VALUE_BYTES) throw StorageError.valueTooLarge(key, value.byteLength, MAX_VALUE_BYTES);
}

/** The end of the key range holding every key with `prefix` (exclusive), in byte order. */
export function prefixEnd(prefix: string): string {
  // Keys are compared as UTF-8 bytes (SQLite BINARY collation, etcd byte keys).
  // Appending U+10FFFF's encoding bound works for our ASCII key space; we
  // reject keys containing it instead of carrying bytes around.
  return prefix + '\u{10FFFF}';
}

export function checkKey(key: string): void {
  if (key.length === 0) throw new TypeError('storage key must not be empty');
  if (key.includes('\u{10FFFF}') || key.includes('\0')) throw new TypeError(`storage key ${JSON.stringify(key)} contains a reserved character`);
}
