// The Service spec as the allocators read it: loose field accessors (a
// malformed field reads as empty or NaN and is left to validation), what a
// Service type needs allocated, the values an object names, and
// ValidateServiceClusterIPsRelatedFields, the pre-check Kubernetes runs
// before allocating.
import { fieldPath, invalid, required, notSupported, duplicate, type FieldError } from '../../api/meta/index.js';
import { ipErrors, ipFamily } from '../../api/meta/checks.js';
import { parseIPv4 } from './ranges.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
export const ports = (spec: Obj): Obj[] => (Array.isArray(spec.ports) ? spec.ports.filter(isObj) : []);
/** A node port field: 0 when unset; NaN when it holds something that is not a port number (validation's job). */
export function portNum(v: unknown): number {
  if (v === undefined || v === null) return 0;
  return typeof v === 'number' && Number.isInteger(v) ? v : NaN;
}
export const setPort = (p: Obj, k: string, v: number) => {
  if (v === 0) delete p[k];
  else p[k] = v;
};

export const needsClusterIP = (spec: Obj) => str(spec.type) !== 'ExternalName';
export const needsNodePort = (spec: Obj) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
export const needsHCNodePort = (spec: Obj) => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
export const isHeadless = (spec: Obj) => strs(spec.clusterIPs)[0] === 'None';
export const shouldAllocateNodePorts = (spec: Obj) => spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
export const sameListLoose = (a: unknown, b: unknown) => {
  const x = strs(a);
  const y = strs(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

export function nodePortsOf(spec: Obj): number[] {
  return ports(spec).map((p) => portNum(p.nodePort)).filter((n) => Number.isInteger(n) && n > 0);
}

/** Cluster IPs a Service object names (IPv4 ones; "None" and anything unparsable are skipped). */
export function clusterIPsOf(spec: Obj): number[] {
  const out = new Set<number>();
  for (const s of [str(spec.clusterIP), ...strs(spec.clusterIPs)]) {
    const n = parseIPv4(s);
    if (n !== undefined) out.add(n);
  }
  return [...out];
}

/**
 * ValidateServiceClusterIPsRelatedFields, the loose pre-check Kubernetes runs
 * before allocating (its errors answer the request; allocation never sees
 * malformed input).
 */
export function clusterIPFieldErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const sp = fieldPath('spec');
  const ipsPath = sp.child('clusterIPs');
  const clusterIP = str(spec.clusterIP);
  const clusterIPs = strs(spec.clusterIPs);
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(required(ipsPath));
    else if (clusterIPs[0] !== clusterIP) errs.push(invalid(ipsPath, clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(invalid(ipsPath, clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  strs(spec.ipFamilies).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(sp.child('ipFamilies').index(i), f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(duplicate(sp.child('ipFamilies').index(i), f));
    seen.add(f);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(str(policy))) {
    errs.push(notSupported(sp.child('ipFamilyPolicy'), policy, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
  }
  let badIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        badIPs = true;
        errs.push(invalid(ipsPath, clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    for (const m of ipErrors(ip)) {
      badIPs = true;
      errs.push(invalid(ipsPath.index(i), ip, m));
    }
  });
  if (clusterIPs.length > 2) errs.push(invalid(ipsPath, clusterIPs, 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (clusterIPs.length > 1) {
    const fams = clusterIPs.map(ipFamily);
    if (fams.length !== 2 || fams[0] === fams[1]) errs.push(invalid(ipsPath, clusterIPs, 'may specify no more than one IP for each IP family'));
  }
  const families = strs(spec.ipFamilies);
  if (!(clusterIPs.length === 1 && clusterIPs[0] === 'None') && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i >= families.length) return;
      const fam = ipFamily(ip);
      if (families[i] === 'IPv4' && fam === 'IPv6') errs.push(invalid(ipsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && fam !== 'IPv6') errs.push(invalid(ipsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** Whether a cluster IP field holds something that is not an address (left to validation). */
export function malformedIPs(spec: Obj): boolean {
  return strs(spec.clusterIPs).some((ip, i) => !(i === 0 && ip === 'None') && ipFamily(ip) === undefined);
}
