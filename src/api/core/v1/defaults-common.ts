// Shared helpers of server-side defaulting: Go's notions of unset (nil
// pointer, "" string, 0 number) on decoded JSON, and small setters. Imported
// by every group-version's defaulters (through defaults.ts).

export type Json = Record<string, unknown>;
/** The feature-gate question defaulting asks; `FeatureGates` answers it. */
export interface Gates { enabled(name: string): boolean }

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Go's nil pointer / unset member. */
export const unset = (o: Json, k: string): boolean => o[k] === undefined || o[k] === null;
/** Go's "" string (absent, null or ""). */
export const emptyStr = (o: Json, k: string): boolean => unset(o, k) || o[k] === '';
/** Go's 0 number (absent, null or 0). */
export const zeroNum = (o: Json, k: string): boolean => unset(o, k) || o[k] === 0;

/** Sets o[k] when it is unset (Go nil pointer). */
export function orSet(o: Json, k: string, v: unknown): void {
  if (unset(o, k)) o[k] = v;
}
/** Sets o[k] when it is "" (Go string zero value). */
export function orStr(o: Json, k: string, v: string): void {
  if (emptyStr(o, k)) o[k] = v;
}
/** Sets o[k] when it is 0 (Go integer zero value). */
export function orNum(o: Json, k: string, v: number): void {
  if (zeroNum(o, k)) o[k] = v;
}
/** o[k] when it is an object. */
export function at(o: Json, k: string): Json | undefined {
  const v = o[k];
  return isObj(v) ? v : undefined;
}
/** o[k] as an object, created when unset (a Go non-pointer struct); undefined when it holds another type. */
export function struct(o: Json, k: string): Json | undefined {
  if (unset(o, k)) o[k] = {};
  return at(o, k);
}
/** The objects in the list o[k]. */
export function each(o: Json | undefined, k: string): Json[] {
  const v = o?.[k];
  return Array.isArray(v) ? v.filter(isObj) : [];
}
/** A non-empty object o[k] (a Go map with entries). */
export function filledMap(o: Json, k: string): Json | undefined {
  const m = at(o, k);
  return m && Object.keys(m).length > 0 ? m : undefined;
}

/** Keeps a deprecated singular field and its plural successor in step, the singular one winning when they differ. */
export function mirrorFirst(o: Json, single: string, plural: string, wrap: (s: string) => unknown, unwrap: (x: unknown) => unknown): void {
  const one = o[single];
  const many = Array.isArray(o[plural]) ? (o[plural] as unknown[]) : [];
  if (typeof one === 'string' && one !== '' && (many.length === 0 || unwrap(many[0]) !== one)) o[plural] = [wrap(one)];
  const now = o[plural];
  if (Array.isArray(now) && now.length > 0) o[single] = unwrap(now[0]);
}
