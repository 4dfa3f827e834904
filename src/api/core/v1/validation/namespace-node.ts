// Namespace and Node validation (finalizers, taints, podCIDRs).
import { type FieldError, FieldPath, fieldPath, duplicate, forbidden, invalid, required } from '../../../meta/field.js';
import { labelValueErrors } from '../../../meta/validation.js';
import { type Obj, arr, cidrFamily, obj, qualifiedName, str } from '../../../meta/checks.js';
import { GoValue } from '../../../meta/govalue.js';
import { TAINT_EFFECTS, validateChoice } from './podspec.js';
import { has } from './common.js';

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

export function validateNamespace(ns: Obj): FieldError[] {
  const p = fieldPath('spec').child('finalizers');
  const errs: FieldError[] = [];
  for (const f of arr(obj(ns.spec).finalizers).map(str)) {
    errs.push(...qualifiedName(f, p));
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) errs.push(invalid(p, f, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

function goTaint(t: Obj): GoValue {
  const q = (v: unknown) => JSON.stringify(str(v));
  return new GoValue(t, `core.Taint{Key:${q(t.key)}, Value:${q(t.value)}, Effect:${q(t.effect)}, TimeAdded:<nil>}`);
}

/** Taints: key, value, effect (required here), and unique by key and effect. */
export function validateTaints(taints: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((raw, i) => {
    const t = obj(raw);
    const p = path.index(i);
    errs.push(...qualifiedName(str(t.key), p.child('key')));
    const vm = labelValueErrors(str(t.value));
    if (vm.length) errs.push(invalid(p.child('value'), str(t.value), vm.join(';')));
    validateChoice(str(t.effect), () => p.child('effect'), TAINT_EFFECTS, errs);
    const key = `${str(t.effect)}\u0000${str(t.key)}`;
    if (seen.has(key)) {
      errs.push({ ...duplicate(p, goTaint(t)), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(key);
  });
  return errs;
}

const podCIDRsOf = (spec: Obj): string[] => {
  const list = arr(spec.podCIDRs).map(str);
  return list.length ? list : str(spec.podCIDR) ? [str(spec.podCIDR)] : [];
};

export function validateNode(node: Obj): FieldError[] {
  const spec = obj(node.spec);
  const errs = validateTaints(arr(spec.taints), fieldPath('spec').child('taints'));
  const cidrs = podCIDRsOf(spec);
  const p = fieldPath('spec').child('podCIDRs');
  cidrs.forEach((c, i) => {
    if (!cidrFamily(c)) errs.push(invalid(p.index(i), cidrs, 'must be valid CIDR'));
  });
  if (cidrs.length > 1) {
    const fams = cidrs.map(cidrFamily);
    const dual = cidrs.length === 2 && fams[0] !== undefined && fams[1] !== undefined && fams[0] !== fams[1];
    if (!dual) errs.push(invalid(p, cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  const seen = new Set<string>();
  cidrs.forEach((c, i) => {
    if (seen.has(c)) errs.push(duplicate(p.index(i), c));
    seen.add(c);
  });
  return errs;
}

export function validateNodeUpdate(node: Obj, old: Obj): FieldError[] {
  const spec = obj(node.spec);
  const oldSpec = obj(old.spec);
  const errs = validateNode(node);
  const cidrs = podCIDRsOf(spec);
  const oldCidrs = podCIDRsOf(oldSpec);
  const msg = (f: string) => `node updates may not change ${f} except from "" to valid`;
  if (oldCidrs.length > 0) {
    if (oldCidrs.length !== cidrs.length) errs.push(forbidden(fieldPath('spec').child('podCIDRs'), msg('podCIDR')));
    else oldCidrs.forEach((c, i) => {
      if (c !== cidrs[i]) errs.push(forbidden(fieldPath('spec').child('podCIDRs'), msg('podCIDR')));
    });
  }
  if (str(oldSpec.providerID) && str(oldSpec.providerID) !== str(spec.providerID)) errs.push(forbidden(fieldPath('spec').child('providerID'), msg('providerID')));
  return errs;
}
