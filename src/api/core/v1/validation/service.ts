// Service validation: ports, types, cluster IPs, node ports in range, and
// the fields an update may not change.
import { type FieldError, FieldPath, fieldPath, duplicate, forbidden, invalid, notSupported, required } from '../../../meta/field.js';
import { validateLabels } from '../../../meta/validation.js';
import { type Obj, arr, dns1123Label, dns1123Subdomain, ipErrors, isObj, num, obj, portNameErrors, portNumErrors, qualifiedName, str } from '../../../meta/checks.js';
import { GoValue } from '../../../meta/govalue.js';
import { PROTOCOLS, has } from './common.js';
import { validateChoice } from './podspec.js';

export interface ServiceValidationOptions {
  /** --service-node-port-range; Kubernetes' default is 30000-32767. */
  readonly nodePortRange: { readonly min: number; readonly max: number };
}

export const DEFAULT_NODE_PORT_RANGE = { min: 30000, max: 32767 } as const;

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const isHeadless = (spec: Obj) => arr(spec.clusterIPs)[0] === 'None' || spec.clusterIP === 'None';

function goServicePortKey(protocol: string, port: number): GoValue {
  return new GoValue(
    { protocol, port },
    `core.ServicePort{Name:"", Protocol:${JSON.stringify(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  );
}

function validateServicePort(sp: Obj, requireName: boolean, names: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sp.name);
  if (requireName && !name) errs.push(required(path.child('name')));
  else if (name) {
    errs.push(...dns1123Label(name, path.child('name')));
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else names.add(name);
  }
  const port = num(sp.port) ?? 0;
  for (const m of portNumErrors(port)) errs.push(invalid(path.child('port'), port, m));
  const proto = str(sp.protocol);
  if (!proto) errs.push(required(path.child('protocol')));
  else if (!PROTOCOLS.includes(proto)) errs.push(notSupported(path.child('protocol'), proto, PROTOCOLS));
  const tp = sp.targetPort;
  if (typeof tp === 'number') for (const m of portNumErrors(tp)) errs.push(invalid(path.child('targetPort'), tp, m));
  else if (typeof tp === 'string') for (const m of portNameErrors(tp)) errs.push(invalid(path.child('targetPort'), tp, m));
  if (typeof sp.appProtocol === 'string') errs.push(...qualifiedName(sp.appProtocol, path.child('appProtocol')));
  return errs;
}

export function validateService(svc: Obj, opts: ServiceValidationOptions = { nodePortRange: DEFAULT_NODE_PORT_RANGE }): FieldError[] {
  return [...serviceErrors(svc), ...nodePortRangeErrors(svc, opts, new Set())];
}

function serviceErrors(svc: Obj): FieldError[] {
  const spec = obj(svc.spec);
  const sp = fieldPath('spec');
  const errs: FieldError[] = [];
  const type = str(spec.type);
  const ports = arr(spec.ports).map(obj);
  const headless = isHeadless(spec);
  const clusterIPs = arr(spec.clusterIPs).map(str);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required(sp.child('ports')));
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errs.push(invalid(sp.child('clusterIPs').index(0), clusterIPs[0] ?? 'None', `may not be set to 'None' for ${type} services`));
  }
  if (type === 'ExternalName') {
    if (clusterIPs.length > 0) errs.push(forbidden(sp.child('clusterIPs'), 'may not be set for ExternalName services'));
    if (arr(spec.ipFamilies).length > 0) errs.push(forbidden(sp.child('ipFamilies'), 'may not be set for ExternalName services'));
    if (has(spec, 'ipFamilyPolicy')) errs.push(forbidden(sp.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
    const cname = str(spec.externalName).replace(/\.$/, '');
    if (cname) errs.push(...dns1123Subdomain(cname, sp.child('externalName')));
    else errs.push(required(sp.child('externalName')));
  }
  const names = new Set<string>();
  ports.forEach((port, i) => errs.push(...validateServicePort(port, ports.length > 1, names, sp.child('ports').index(i))));
  if (isObj(spec.selector)) errs.push(...validateLabels(spec.selector, sp.child('selector')));
  const affinity = str(spec.sessionAffinity);
  validateChoice(affinity, () => sp.child('sessionAffinity'), ['ClientIP', 'None'], errs);
  if (affinity === 'None' && has(spec, 'sessionAffinityConfig')) errs.push(forbidden(sp.child('sessionAffinityConfig'), 'must not be set when session affinity is None'));
  if (type !== 'ExternalName') {
    clusterIPs.forEach((ip, i) => {
      if (i === 0 && ip === 'None') {
        if (clusterIPs.length > 1) errs.push(invalid(sp.child('clusterIPs'), clusterIPs, "'None' must be the first and only value"));
        return;
      }
      for (const m of ipErrors(ip)) errs.push(invalid(sp.child('clusterIPs').index(i), ip, m));
    });
    if (clusterIPs.length > 2) errs.push(invalid(sp.child('clusterIPs'), clusterIPs, 'may only hold up to 2 values'));
    if (has(spec, 'ipFamilyPolicy')) {
      const pol = str(spec.ipFamilyPolicy);
      if (!['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(pol)) errs.push(notSupported(sp.child('ipFamilyPolicy'), pol, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
    }
    arr(spec.ipFamilies).forEach((f, i) => {
      if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(sp.child('ipFamilies').index(i), f, ['IPv4', 'IPv6']));
    });
  }
  arr(spec.externalIPs).forEach((ip, i) => {
    for (const m of ipErrors(str(ip))) errs.push(invalid(sp.child('externalIPs').index(i), ip, m));
  });
  if (!type) errs.push(required(sp.child('type')));
  else if (!SERVICE_TYPES.includes(type)) errs.push(notSupported(sp.child('type'), type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((port, i) => {
      if ((num(port.nodePort) ?? 0) !== 0) errs.push(forbidden(sp.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const np = num(port.nodePort) ?? 0;
    if (np === 0) return;
    const key = `${str(port.protocol)}/${np}`;
    if (nodePorts.has(key)) errs.push(duplicate(sp.child('ports').index(i).child('nodePort'), np));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    const key = `${str(port.protocol)}/${num(port.port) ?? 0}`;
    if (seen.has(key)) errs.push(duplicate(sp.child('ports').index(i), goServicePortKey(str(port.protocol), num(port.port) ?? 0)));
    seen.add(key);
  });
  return errs;
}

/**
 * Node ports outside --service-node-port-range. Kubernetes checks this when it
 * allocates a port, so a port the Service already held (`held`; from before a
 * restart with another range) is not checked again on update.
 */
function nodePortRangeErrors(svc: Obj, opts: ServiceValidationOptions, held: ReadonlySet<number>): FieldError[] {
  const spec = obj(svc.spec);
  const type = str(spec.type);
  if (type !== 'NodePort' && type !== 'LoadBalancer') return [];
  const { min, max } = opts.nodePortRange;
  const errs: FieldError[] = [];
  arr(spec.ports).map(obj).forEach((port, i) => {
    const np = num(port.nodePort) ?? 0;
    if (np !== 0 && !held.has(np) && (np < min || np > max)) {
      errs.push(invalid(fieldPath('spec').child('ports').index(i).child('nodePort'), np, `provided port is not in the valid range. The range of valid ports is ${min}-${max}`));
    }
  });
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary cluster IP never changes once set. */
function clusterIPChanges(spec: Obj, oldSpec: Obj): FieldError[] {
  if (str(spec.type) === 'ExternalName' || str(oldSpec.type) === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const ips = arr(spec.clusterIPs).map(str);
  const oldIPs = arr(oldSpec.clusterIPs).map(str);
  const p = fieldPath('spec').child('clusterIPs');
  const errs: FieldError[] = [];
  if (ips.length === oldIPs.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalid(p.index(i), ips, 'may not change once set'));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalid(p.index(0), ips, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(invalid(p.index(0), ips, 'may not change once set'));
    if (ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid(fieldPath('spec').child('ipFamilyPolicy'), spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(invalid(p.index(0), ips, 'may not change once set'));
  }
  return errs;
}

export function validateServiceUpdate(svc: Obj, old: Obj, opts: ServiceValidationOptions = { nodePortRange: DEFAULT_NODE_PORT_RANGE }): FieldError[] {
  const held = new Set(arr(obj(old.spec).ports).map((p) => num(obj(p).nodePort) ?? 0));
  return [...clusterIPChanges(obj(svc.spec), obj(old.spec)), ...serviceErrors(svc), ...nodePortRangeErrors(svc, opts, held)];
}
