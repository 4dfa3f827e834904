// Toleration helpers shared by RuntimeClass and PodTolerationRestriction, as
// kube's pkg/util/tolerations: whether one toleration covers another, merging
// two lists keeping only the broadest, and checking a list against a whitelist.
import type { Json } from './common.js';

const str = (t: Json, k: string): string => (typeof t[k] === 'string' ? (t[k] as string) : '');
const seconds = (t: Json): number | undefined => (typeof t.tolerationSeconds === 'number' ? t.tolerationSeconds : undefined);

export function sameToleration(a: Json, b: Json): boolean {
  return ['key', 'operator', 'value', 'effect'].every((k) => str(a, k) === str(b, k)) && seconds(a) === seconds(b);
}

/** Whether `ss` tolerates everything `t` tolerates. */
export function isSuperset(ss: Json, t: Json): boolean {
  if (sameToleration(ss, t)) return true;
  // An empty key with Exists matches every key.
  if (str(t, 'key') !== str(ss, 'key') && (str(ss, 'key') !== '' || str(ss, 'operator') !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (str(t, 'effect') !== str(ss, 'effect') && str(ss, 'effect') !== '') return false;
  if (str(ss, 'effect') === 'NoExecute' && seconds(ss) !== undefined) {
    const ts = seconds(t);
    if (ts === undefined || ts > seconds(ss)!) return false;
  }
  switch (str(ss, 'operator')) {
    case 'Equal':
    case '':
      // As kube: only an explicit Equal on t is covered (t's empty operator is not).
      return str(t, 'operator') === 'Equal' && str(t, 'value') === str(ss, 'value');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Both lists, dropping any toleration another one (a later distinct one, or one kept already) covers. */
export function mergeTolerations(first: readonly Json[], second: readonly Json[]): Json[] {
  const all = [...first, ...second];
  const merged: Json[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((t2) => !sameToleration(t, t2) && isSuperset(t2, t))) return;
    merged.push(t);
  });
  return merged;
}

/** Whether every toleration is covered by one of the whitelist (an empty whitelist allows all). */
export function verifyAgainstWhitelist(tolerations: readonly Json[], whitelist: readonly Json[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}
