// base64 as cel-go's encoders extension: encode with standard padding;
// decode standard (padded) base64, falling back to unpadded on a corrupt
// input, with Go's `illegal base64 data at input byte N`.

import { CelError } from '../values.js';

export const base64Encode = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString('base64');

const isB64 = (c: number): boolean =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;

/** The position of the first error decoding s, or -1 when s is valid. Go's
 * decoder skips CR and LF. */
function corruptAt(s: string, padded: boolean): number {
  let n = 0; // significant characters seen
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || c === 13) continue;
    if (c === 61) break; // '='
    if (!isB64(c)) return i;
    n++;
  }
  const rem = n % 4;
  if (i === s.length) {
    if (padded) return rem === 0 ? -1 : s.length;
    return rem === 1 ? s.length - 1 : -1;
  }
  // Padding found at i.
  if (!padded || rem < 2) return i;
  let pads = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || c === 13) continue;
    if (c !== 61 || pads === 4 - rem) return i;
    pads++;
  }
  return pads === 4 - rem ? -1 : s.length;
}

export function base64Decode(s: string): Uint8Array {
  if (corruptAt(s, true) !== -1) {
    const at = corruptAt(s, false);
    if (at !== -1) throw new CelError(`illegal base64 data at input byte ${at}`);
  }
  return new Uint8Array(Buffer.from(s, 'base64'));
}
