// Pod create and update validation: the spec's checks plus what only a Pod
// has (image whitespace, the fields an update may change).
import { type FieldError, FieldPath, fieldPath, forbidden, invalid, required } from '../../../meta/field.js';
import { type Obj, arr, inclusiveRange, isObj, num, obj, semanticEqual, str } from '../../../meta/checks.js';
import { MAX_INT32, has } from './common.js';
import { validatePodSpec, validatePodTemplateSpec, validateTolerations } from './podspec.js';

function imageWhitespace(containers: unknown[], path: FieldPath, errs: FieldError[]): void {
  for (let i = 0; i < containers.length; i++) {
    const image = str(obj(containers[i]).image);
    if (image !== image.trim()) errs.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  }
}

export function validatePod(pod: Obj): FieldError[] {
  const spec = obj(pod.spec);
  const p = fieldPath('spec');
  const errs = validatePodSpec(spec, p);
  if (arr(spec.ephemeralContainers).length > 0) errs.push(forbidden(p.child('ephemeralContainers'), 'cannot be set on create'));
  imageWhitespace(arr(spec.containers), p.child('containers'), errs);
  imageWhitespace(arr(spec.initContainers), p.child('initContainers'), errs);
  return errs;
}

/** The fields a pod update may change, in Kubernetes v1.27's wording and order. */
export const POD_UPDATABLE_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];
/** The first line of the Forbidden detail; Kubernetes follows it with a go-cmp diff of the internal PodSpec. */
export const POD_UPDATE_FORBIDDEN = `pod updates may not change fields other than ${POD_UPDATABLE_FIELDS.join(',')}`;

function containerUpdates(newer: unknown[], older: unknown[], path: FieldPath): { errs: FieldError[]; stop: boolean } {
  if (newer.length !== older.length) return { errs: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  newer.forEach((c, i) => {
    const image = str(obj(c).image);
    if (!image) errs.push(required(path.index(i).child('image')));
    if (image !== image.trim()) errs.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration must survive, up to its tolerationSeconds. */
function onlyAddedTolerations(newer: unknown[], older: unknown[], path: FieldPath): FieldError[] {
  for (const o of older) {
    const found = newer.some((n) => semanticEqual({ ...obj(o), tolerationSeconds: obj(n).tolerationSeconds }, n));
    if (!found) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(newer, path);
}

/** A plain-text account of what changed, after the first line (Kubernetes prints a go-cmp diff there). */
function describeChanges(before: unknown, after: unknown, path: string, out: string[]): void {
  if (semanticEqual(before, after)) return;
  if (isObj(before) && isObj(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) describeChanges(before[k], after[k], `${path}.${k}`, out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((b, i) => describeChanges(b, after[i], `${path}[${i}]`, out));
    return;
  }
  out.push(`- ${path}: ${JSON.stringify(before ?? null)}`, `+ ${path}: ${JSON.stringify(after ?? null)}`);
}

export function validatePodUpdate(pod: Obj, old: Obj): FieldError[] {
  const spec = obj(pod.spec);
  const oldSpec = obj(old.spec);
  const p = fieldPath('spec');
  const errs = validatePodSpec(spec, p);
  for (const [k, path] of [['containers', p.child('containers')], ['initContainers', p.child('initContainers')]] as const) {
    const r = containerUpdates(arr(spec[k]), arr(oldSpec[k]), path);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const ads = num(spec.activeDeadlineSeconds);
  const oldAds = num(oldSpec.activeDeadlineSeconds);
  if (ads !== undefined) {
    if (ads < 0 || ads > MAX_INT32) return [...errs, invalid(p.child('activeDeadlineSeconds'), ads, inclusiveRange(0, MAX_INT32))];
    if (oldAds !== undefined && oldAds < ads) return [...errs, invalid(p.child('activeDeadlineSeconds'), ads, 'must be less than or equal to previous value')];
  } else if (oldAds !== undefined) {
    errs.push(invalid(p.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...onlyAddedTolerations(arr(spec.tolerations), arr(oldSpec.tolerations), p.child('tolerations')));
  const oldGates = new Set(arr(oldSpec.schedulingGates).map((g) => str(obj(g).name)));
  arr(spec.schedulingGates).forEach((g, i) => {
    const name = str(obj(g).name);
    if (!oldGates.has(name)) errs.push(forbidden(p.child('schedulingGates').index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
  });
  if (semanticEqual(spec, oldSpec)) return errs;
  // Munge the updatable fields back to their old values, then anything left is forbidden.
  const munged: Obj = { ...spec };
  const withOldImages = (k: string) => arr(spec[k]).map((c, i) => ({ ...obj(c), image: obj(arr(oldSpec[k])[i]).image }));
  munged.containers = withOldImages('containers');
  if (has(spec, 'initContainers')) munged.initContainers = withOldImages('initContainers');
  munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  munged.schedulingGates = oldSpec.schedulingGates;
  munged.tolerations = oldSpec.tolerations;
  const oldTgps = num(oldSpec.terminationGracePeriodSeconds);
  if (oldTgps !== undefined && oldTgps < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldTgps;
  if (!semanticEqual(munged, oldSpec)) {
    const lines: string[] = [];
    describeChanges(oldSpec, munged, 'spec', lines);
    errs.push(forbidden(p, `${POD_UPDATE_FORBIDDEN}\n${lines.map((l) => `  ${l}`).join('\n')}\n`));
  }
  return errs;
}

export function validatePodTemplate(t: Obj): FieldError[] {
  return validatePodTemplateSpec(t.template, fieldPath('template'));
}
