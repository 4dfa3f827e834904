// Bytes ⇄ strings: UTF-8 encoding, and strict decoding as Go's utf8.Valid.

import { CelError } from '../values.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export const utf8Encode = (s: string): Uint8Array => encoder.encode(s);

/** string(bytes): `invalid UTF-8 in bytes, cannot convert to string` when
 * the bytes are not valid UTF-8. */
export function utf8Decode(b: Uint8Array): string {
  // ASCII fast path.
  let ascii = true;
  for (let i = 0; i < b.length; i++) {
    if (b[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return b.length < 4096 ? String.fromCharCode.apply(null, b as unknown as number[]) : decoder.decode(b);
  try {
    return decoder.decode(b);
  } catch {
    throw new CelError('invalid UTF-8 in bytes, cannot convert to string');
  }
}
