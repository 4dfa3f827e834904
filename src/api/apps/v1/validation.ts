// Per-kind validation of apps/v1 (Deployment, ReplicaSet, StatefulSet,
// DaemonSet) with kube-apiserver v1.27's paths and messages
// (pkg/apis/apps/validation, plus the apps/v1 strategies' selector
// immutability). Pod templates are validated by core/v1's validatePodSpec.
import { type FieldError, type FieldPath, fieldPath, forbidden, invalid, notSupported, required } from '../../meta/field.js';
import { validateAnnotations, validateLabels } from '../../meta/validation.js';
import { type Obj, IS_NEGATIVE, arr, immutable, isObj, nonNegative, num, obj, regexError, selectorIsEmpty, selectorMatches, semanticEqual, str, strMap, validateLabelSelector } from '../../meta/checks.js';
import { GoValue, goIntOrString, goLabelSelector, goStringMap } from '../../meta/govalue.js';
import { type KindValidator, validatePodSpec, validatePodTemplateSpec } from '../../core/v1/validation.js';

const SPEC = fieldPath('spec');
const templateLabels = (spec: Obj) => strMap(obj(obj(spec.template).metadata).labels);
const templateSpec = (spec: Obj) => obj(obj(spec.template).spec);
const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

/** Selector: required, valid, not empty (`empty selector is invalid for <kind>`). */
function validateSelector(spec: Obj, kind: string, requireIt = true): FieldError[] {
  const p = SPEC.child('selector');
  if (!isObj(spec.selector)) return requireIt ? [required(p)] : [];
  const errs = validateLabelSelector(spec.selector, p);
  if (selectorIsEmpty(spec.selector)) errs.push(invalid(p, goLabelSelector(spec.selector), `empty selector is invalid for ${kind}`));
  return errs;
}

/** A missing selector selects nothing, so it never matches the template either (labels.Nothing()). */
function selectorMismatch(spec: Obj): FieldError[] {
  const labels = templateLabels(spec);
  if (isObj(spec.selector) && selectorIsEmpty(spec.selector)) return [];
  if (isObj(spec.selector) && selectorMatches(spec.selector, labels)) return [];
  return [invalid(SPEC.child('template').child('metadata').child('labels'), goStringMap(obj(obj(spec.template).metadata).labels as Obj | undefined), SELECTOR_MISMATCH)];
}

function restartAlways(spec: Obj, kind: string, adsAs: 'invalid' | 'forbidden'): FieldError[] {
  const ts = templateSpec(spec);
  const errs: FieldError[] = [];
  const rp = str(ts.restartPolicy);
  if (rp !== 'Always') errs.push(notSupported(SPEC.child('template').child('spec').child('restartPolicy'), rp, ['Always']));
  if (num(ts.activeDeadlineSeconds) !== undefined) {
    const p = SPEC.child('template').child('spec').child('activeDeadlineSeconds');
    const msg = `activeDeadlineSeconds in ${kind} is not Supported`;
    errs.push(adsAs === 'invalid' ? invalid(p, ts.activeDeadlineSeconds, msg) : forbidden(p, msg));
  }
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet (Deployment and ReplicaSet). */
function replicaSetTemplate(spec: Obj, kind: string): FieldError[] {
  if (!isObj(spec.template)) return [required(SPEC.child('template'))];
  return [...selectorMismatch(spec), ...validatePodTemplateSpec(spec.template, SPEC.child('template')), ...restartAlways(spec, kind, 'invalid')];
}

const PERCENT = '[0-9]+%';

function intOrPercent(v: unknown, path: FieldPath): FieldError[] {
  if (typeof v === 'string') return new RegExp(`^${PERCENT}$`).test(v) ? [] : [invalid(path, goIntOrString(v), regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT, '1%', '93%'))];
  if (typeof v === 'number') return v < 0 ? [invalid(path, v, IS_NEGATIVE)] : [];
  return [];
}

const intOrPercentValue = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]+%$/.test(v) ? Number(v.slice(0, -1)) : 0);
const notOver100 = (v: unknown, path: FieldPath): FieldError[] =>
  typeof v === 'string' && /^[0-9]+%$/.test(v) && Number(v.slice(0, -1)) > 100 ? [invalid(path, goIntOrString(v), 'must not be greater than 100%')] : [];

function goStrategy(typeName: string, s: Obj, rollingType: string): GoValue {
  const ru = isObj(s.rollingUpdate) ? '&{…}' : `(*${rollingType})(nil)`;
  return new GoValue(s, `${typeName}{Type:${JSON.stringify(str(s.type))}, RollingUpdate:${ru}}`);
}

function deploymentStrategy(spec: Obj): FieldError[] {
  const s = obj(spec.strategy);
  const p = SPEC.child('strategy');
  switch (str(s.type)) {
    case 'Recreate':
      return isObj(s.rollingUpdate) ? [forbidden(p.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      if (!isObj(s.rollingUpdate)) return [required(p.child('rollingUpdate'), 'this should be defaulted and never be nil')];
      const ru = s.rollingUpdate;
      const rp = p.child('rollingUpdate');
      const errs = [...intOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')), ...intOrPercent(ru.maxSurge, rp.child('maxSurge'))];
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) errs.push(invalid(rp.child('maxUnavailable'), goIntOrString(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      errs.push(...notOver100(ru.maxUnavailable, rp.child('maxUnavailable')));
      return errs;
    }
    default:
      return [notSupported(p, goStrategy('apps.DeploymentStrategy', s, 'apps.RollingUpdateDeployment'), ['Recreate', 'RollingUpdate'])];
  }
}

export function validateDeployment(d: Obj): FieldError[] {
  const spec = obj(d.spec);
  const errs = nonNegative(num(spec.replicas) ?? 0, SPEC.child('replicas'));
  errs.push(...validateSelector(spec, 'deployment'));
  errs.push(...replicaSetTemplate(spec, 'ReplicaSet'));
  errs.push(...deploymentStrategy(spec));
  errs.push(...nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')));
  if (num(spec.revisionHistoryLimit) !== undefined) errs.push(...nonNegative(num(spec.revisionHistoryLimit)!, SPEC.child('revisionHistoryLimit')));
  const pds = num(spec.progressDeadlineSeconds);
  if (pds !== undefined) {
    errs.push(...nonNegative(pds, SPEC.child('progressDeadlineSeconds')));
    if (pds <= (num(spec.minReadySeconds) ?? 0)) errs.push(invalid(SPEC.child('progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

const selectorImmutable = (o: Obj, old: Obj) => (semanticEqual(obj(o.spec).selector, obj(old.spec).selector) ? [] : immutable(goLabelSelector(obj(o.spec).selector), null, SPEC.child('selector')));

export function validateDeploymentUpdate(d: Obj, old: Obj): FieldError[] {
  return [...validateDeployment(d), ...selectorImmutable(d, old)];
}

export function validateReplicaSet(rs: Obj): FieldError[] {
  const spec = obj(rs.spec);
  const errs = nonNegative(num(spec.replicas) ?? 0, SPEC.child('replicas'));
  errs.push(...nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')));
  errs.push(...validateSelector(spec, 'deployment'));
  errs.push(...replicaSetTemplate(spec, 'ReplicaSet'));
  return errs;
}

export function validateReplicaSetUpdate(rs: Obj, old: Obj): FieldError[] {
  return [...validateReplicaSet(rs), ...selectorImmutable(rs, old)];
}

export function validateStatefulSet(ss: Obj): FieldError[] {
  const spec = obj(ss.spec);
  const errs: FieldError[] = [];
  const pmp = str(spec.podManagementPolicy);
  if (!pmp) errs.push(required(SPEC.child('podManagementPolicy')));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(invalid(SPEC.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"));
  const us = obj(spec.updateStrategy);
  const up = SPEC.child('updateStrategy');
  switch (str(us.type)) {
    case '':
      errs.push(required(up));
      break;
    case 'OnDelete':
      if (isObj(us.rollingUpdate)) errs.push(invalid(up.child('rollingUpdate'), us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
      break;
    case 'RollingUpdate':
      if (isObj(us.rollingUpdate)) {
        const rp = up.child('rollingUpdate');
        const part = num(us.rollingUpdate.partition);
        if (part !== undefined) errs.push(...nonNegative(part, rp.child('partition')));
        if (us.rollingUpdate.maxUnavailable !== undefined) errs.push(...intOrPercent(us.rollingUpdate.maxUnavailable, rp.child('maxUnavailable')));
      }
      break;
    default:
      errs.push(invalid(up, goStrategy('apps.StatefulSetUpdateStrategy', us, 'apps.RollingUpdateStatefulSetStrategy'), "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const retention = obj(spec.persistentVolumeClaimRetentionPolicy);
  for (const f of ['whenDeleted', 'whenScaled']) {
    const v = str(retention[f]);
    if (isObj(spec.persistentVolumeClaimRetentionPolicy) && v !== 'Retain' && v !== 'Delete') {
      errs.push(notSupported(SPEC.child('persistentVolumeClaimRetentionPolicy').child(f), v, ['Retain', 'Delete']));
    }
  }
  errs.push(...nonNegative(num(spec.replicas) ?? 0, SPEC.child('replicas')));
  if (isObj(spec.ordinals)) errs.push(...nonNegative(num(spec.ordinals.start) ?? 0, SPEC.child('ordinals').child('start')));
  errs.push(...nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')));
  errs.push(...validateSelector(spec, 'statefulset'));
  if (isObj(spec.template)) {
    const tmeta = obj(spec.template.metadata);
    errs.push(...selectorMismatch(spec));
    errs.push(...validateLabels(obj(tmeta.labels), SPEC.child('template').child('labels')));
    errs.push(...validateAnnotations(obj(tmeta.annotations), SPEC.child('template').child('annotations')));
  } else errs.push(required(SPEC.child('template')));
  errs.push(...restartAlways(spec, 'StatefulSet', 'forbidden'));
  // The template's pod spec, with the claim templates standing in for volumes.
  const ts = templateSpec(spec);
  const claimVolumes = arr(spec.volumeClaimTemplates).map((c) => ({ name: str(obj(obj(c).metadata).name), persistentVolumeClaim: { claimName: 'template' } }));
  errs.push(...validatePodSpec({ ...ts, volumes: [...arr(ts.volumes), ...claimVolumes] }, SPEC.child('template').child('spec')));
  return errs;
}

export const STATEFULSET_SPEC_FORBIDDEN =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

export function validateStatefulSetUpdate(ss: Obj, old: Obj): FieldError[] {
  const errs = validateStatefulSet(ss);
  const spec = obj(ss.spec);
  const oldSpec = obj(old.spec);
  const clone: Obj = { ...spec };
  for (const f of ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy']) clone[f] = oldSpec[f];
  if (!semanticEqual(clone, oldSpec)) errs.push(forbidden(SPEC, STATEFULSET_SPEC_FORBIDDEN));
  return errs;
}

export function validateDaemonSet(ds: Obj): FieldError[] {
  const spec = obj(ds.spec);
  const errs = isObj(spec.selector) ? validateLabelSelector(spec.selector, SPEC.child('selector')) : [];
  if (!isObj(spec.selector) || !selectorMatches(spec.selector, templateLabels(spec))) {
    errs.push(invalid(SPEC.child('template').child('metadata').child('labels'), goStringMap(obj(obj(spec.template).metadata).labels as Obj | undefined), SELECTOR_MISMATCH));
  }
  if (isObj(spec.selector) && selectorIsEmpty(spec.selector)) errs.push(invalid(SPEC.child('selector'), goLabelSelector(spec.selector), 'empty selector is invalid for daemonset'));
  errs.push(...validatePodTemplateSpec(spec.template, SPEC.child('template')));
  errs.push(...restartAlways(spec, 'DaemonSet', 'invalid'));
  errs.push(...nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')));
  errs.push(...nonNegative(num(spec.templateGeneration) ?? 0, SPEC.child('templateGeneration')));
  const us = obj(spec.updateStrategy);
  const up = SPEC.child('updateStrategy');
  switch (str(us.type)) {
    case 'OnDelete':
      break;
    case 'RollingUpdate': {
      if (!isObj(us.rollingUpdate)) {
        errs.push(required(up.child('rollingUpdate')));
        break;
      }
      const ru = us.rollingUpdate;
      const rp = up.child('rollingUpdate');
      errs.push(...intOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')), ...intOrPercent(ru.maxSurge, rp.child('maxSurge')));
      errs.push(...notOver100(ru.maxUnavailable, rp.child('maxUnavailable')), ...notOver100(ru.maxSurge, rp.child('maxSurge')));
      const hasU = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasS = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasU && hasS) errs.push(invalid(rp.child('maxSurge'), goIntOrString(ru.maxSurge), 'may not be set when maxUnavailable is non-zero'));
      else if (!hasU && !hasS) errs.push(required(rp.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
      break;
    }
    default:
      errs.push(notSupported(up, goStrategy('apps.DaemonSetUpdateStrategy', us, 'apps.RollingUpdateDaemonSet'), ['RollingUpdate', 'OnDelete']));
  }
  if (num(spec.revisionHistoryLimit) !== undefined) errs.push(...nonNegative(num(spec.revisionHistoryLimit)!, SPEC.child('revisionHistoryLimit')));
  return errs;
}

export function validateDaemonSetUpdate(ds: Obj, old: Obj): FieldError[] {
  return [...validateDaemonSet(ds), ...selectorImmutable(ds, old)];
}

export function appsValidators(): Record<string, KindValidator> {
  return {
    Deployment: { validate: validateDeployment, validateUpdate: validateDeploymentUpdate },
    ReplicaSet: { validate: validateReplicaSet, validateUpdate: validateReplicaSetUpdate },
    StatefulSet: { validate: validateStatefulSet, validateUpdate: validateStatefulSetUpdate },
    DaemonSet: { validate: validateDaemonSet, validateUpdate: validateDaemonSetUpdate },
  };
}
