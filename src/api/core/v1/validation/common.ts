// Small pieces every core/v1 validator uses: limits, protocol names, sorted keys.
import { type Obj } from '../../../meta/checks.js';

export const MAX_INT32 = 2147483647;
export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
export const has = (o: Obj, k: string) => o[k] !== undefined && o[k] !== null;
/** Object.keys(o).sort(), with the usual two or three keys of a resource list sorted in place by hand. */
export function sortedKeys(o: Obj): string[] {
  const keys = Object.keys(o);
  if (keys.length > 8) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > k; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = k;
  }
  return keys;
}
