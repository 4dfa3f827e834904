// The checks every custom-resource conversion passes first (kube's
// crConverter.ConvertToVersion): the target and each object must name a
// version of the CRD's group; and the group-version-kind texts the errors
// print, as apimachinery's schema package writes them. A failure is the Status
// kube-apiserver answers for an error that is no API status: 500, no reason,
// the error's text (responsewriters.ErrorToAPIStatus).
import { StatusError } from '../../api/meta/status.js';

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** A conversion that failed: 500 with kube's text and no reason, as kube-apiserver answers a plain error. */
export class CrConversionError extends StatusError {
  constructor(message: string) {
    super({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
  }
}

/** schema.ParseGroupVersion; an apiVersion it refuses (more than one '/') reads as the empty group-version, as Unstructured does. */
export function parseGroupVersion(apiVersion: unknown): GroupVersion {
  if (typeof apiVersion !== 'string' || apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

/** GroupVersion.String(): "group/version", or "version" for the core group. */
export function gvString(gv: GroupVersion): string {
  if (gv.group === '' && gv.version === '') return '';
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** GroupVersionKind.String(): "group/version, Kind=kind". */
export function gvkString(gv: GroupVersion, kind: string): string {
  return `${gv.group}/${gv.version}, Kind=${kind}`;
}

/** A string field of an object, "" when absent or not a string (unstructured's NestedString). */
export function stringField(obj: unknown, ...path: string[]): string {
  let v: unknown = obj;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return '';
    v = (v as Record<string, unknown>)[k];
  }
  return typeof v === 'string' ? v : '';
}

/** The group and versions of a CRD, and kube's refusals of conversions outside them. */
export class VersionSet {
  private readonly versions: ReadonlySet<string>;

  constructor(readonly group: string, versions: readonly string[]) {
    this.versions = new Set(versions);
  }

  has(gv: GroupVersion): boolean {
    return gv.group === this.group && this.versions.has(gv.version);
  }

  /**
   * The target group-version, once the target and every object are versions of
   * the CRD; otherwise the error kube answers. `from` is the converted object's
   * group-version-kind (a list's for a list).
   */
  check(from: { gv: GroupVersion; kind: string }, toApiVersion: string, items: readonly object[] | undefined): GroupVersion {
    const target = parseGroupVersion(toApiVersion);
    // KindForGroupVersionKinds: the target must be of the object's group.
    if (target.group !== from.gv.group) {
      throw new CrConversionError(`${gvkString(from.gv, from.kind)} is unstructured and is not suitable for converting to ${JSON.stringify(gvString(target))}`);
    }
    if (!this.has(target)) throw new CrConversionError(`request to convert CR to an invalid group/version: ${gvString(target)}`);
    if (!this.has(from.gv)) throw new CrConversionError(`request to convert CR from an invalid group/version: ${gvString(from.gv)}`);
    if (items) {
      items.forEach((item, i) => {
        const gv = parseGroupVersion((item as { apiVersion?: unknown }).apiVersion);
        if (!this.has(gv)) throw new CrConversionError(`request to convert CR list failed, list index ${i} has invalid group/version: ${gvString(gv)}`);
      });
    }
    return target;
  }
}
