// The pod spec's validation (kube's ValidatePodSpec and its parts), shared by
// Pod, PodTemplate and every workload template (apps, batch):
//
//   volumes → containers → initContainers → restartPolicy → dnsPolicy
//   → nodeSelector → dnsConfig → serviceAccountName → nodeName
//   → activeDeadlineSeconds → hostname/subdomain → tolerations
import { type FieldError, FieldPath, fieldPath, duplicate, forbidden, invalid, notSupported, required } from '../../../meta/field.js';
import { dns1123LabelErrors, dns1123SubdomainErrors, isEnvVarName, isPortName, labelValueErrors, qualifiedNameErrors, validateLabels, validateAnnotations } from '../../../meta/validation.js';
import { type Obj, arr, configMapKeyErrors, envVarNameErrors, inclusiveRange, isObj, notFound, num, obj, portNameErrors, portNumErrors, str } from '../../../meta/checks.js';
import { compareQuantities, formatQuantity, quantityOf } from '../../../meta/quantity.js';
import { GoValue } from '../../../meta/govalue.js';
import { MAX_INT32, PROTOCOLS, has, sortedKeys } from './common.js';

//
// The pod spec is validated on every pod and template write, so this part
// is written for speed: causes are pushed into one list, child paths are
// built only for a cause, and common valid values are recognised by small
// scanners (each accepts exactly what the message function accepts) before
// the message functions run.

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'quobyte', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'flexVolume', 'configMap',
  'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'csi', 'projected', 'scaleIO', 'storageos', 'ephemeral',
];
const VOLUME_SOURCE_ORDER = new Map(VOLUME_SOURCES.map((s, i) => [s, i]));

/** The volume sources `v` sets (not null), in VOLUME_SOURCES order. */
function volumeSourcesOf(v: Obj): string[] {
  const found: string[] = [];
  for (const k in v) if (VOLUME_SOURCE_ORDER.has(k) && has(v, k)) found.push(k);
  if (found.length > 1) found.sort((a, b) => VOLUME_SOURCE_ORDER.get(a)! - VOLUME_SOURCE_ORDER.get(b)!);
  return found;
}

function validateVolumeSource(v: Obj, path: FieldPath, errs: FieldError[]): void {
  const sources = volumeSourcesOf(v);
  if (sources.length === 0) {
    errs.push(required(path, 'must specify a volume type'));
    return;
  }
  const src = sources[0]!;
  const s = obj(v[src]);
  if (src === 'hostPath' && !str(s.path)) errs.push(required(path.child(src).child('path')));
  if (src === 'persistentVolumeClaim' && !str(s.claimName)) errs.push(required(path.child(src).child('claimName')));
  if (src === 'secret' && !str(s.secretName)) errs.push(required(path.child(src).child('secretName')));
  if (src === 'configMap' && !str(s.name)) errs.push(required(path.child(src).child('name')));
  for (let i = 1; i < sources.length; i++) errs.push(forbidden(path.child(sources[i]!), 'may not specify more than 1 volume type'));
}

/** ValidateVolumes: the errors, and the names of the volumes that passed (mounts may only name those). */
function validateVolumes(volumes: unknown[], path: FieldPath): { errs: FieldError[]; names: Set<string> } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (let i = 0; i < volumes.length; i++) {
    const v = obj(volumes[i]);
    const p = path.index(i);
    const name = str(v.name);
    const el: FieldError[] = [];
    validateVolumeSource(v, p, el);
    if (!name) el.push(required(p.child('name')));
    else for (const m of dns1123LabelErrors(name)) el.push(invalid(p.child('name'), name, m));
    if (names.has(name)) el.push(duplicate(p.child('name'), name));
    if (el.length === 0) names.add(name);
    else for (const e of el) errs.push(e);
  }
  return { errs, names };
}

const isPortNum = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535;

function validatePorts(ports: unknown[], container: FieldPath, errs: FieldError[]): void {
  const names = new Set<string>();
  const at = (i: number) => container.child('ports').index(i);
  for (let i = 0; i < ports.length; i++) {
    const port = obj(ports[i]);
    const name = str(port.name);
    if (name) {
      const msgs = isPortName(name) ? [] : portNameErrors(name);
      if (msgs.length) for (const m of msgs) errs.push(invalid(at(i).child('name'), name, m));
      else if (names.has(name)) errs.push(duplicate(at(i).child('name'), name));
      else names.add(name);
    }
    const cp = num(port.containerPort) ?? 0;
    if (cp === 0) errs.push(required(at(i).child('containerPort')));
    else if (!isPortNum(cp)) for (const m of portNumErrors(cp)) errs.push(invalid(at(i).child('containerPort'), cp, m));
    const hp = num(port.hostPort) ?? 0;
    if (hp !== 0 && !isPortNum(hp)) for (const m of portNumErrors(hp)) errs.push(invalid(at(i).child('hostPort'), hp, m));
    const proto = str(port.protocol);
    if (!proto) errs.push(required(at(i).child('protocol')));
    else if (proto !== 'TCP' && proto !== 'UDP' && proto !== 'SCTP') errs.push(notSupported(at(i).child('protocol'), proto, PROTOCOLS));
  }
}

function validateKeySelector(sel: Obj, path: FieldPath, errs: FieldError[]): void {
  for (const m of dns1123SubdomainErrors(str(sel.name))) errs.push(invalid(path.child('name'), str(sel.name), m));
  const key = str(sel.key);
  if (!key) errs.push(required(path.child('key')));
  else for (const m of configMapKeyErrors(key)) errs.push(invalid(path.child('key'), key, m));
}

function validateEnv(env: unknown[], container: FieldPath, errs: FieldError[]): void {
  const at = (i: number) => container.child('env').index(i);
  for (let i = 0; i < env.length; i++) {
    const ev = obj(env[i]);
    const name = str(ev.name);
    if (!name) errs.push(required(at(i).child('name')));
    else if (!isEnvVarName(name)) for (const m of envVarNameErrors(name)) errs.push(invalid(at(i).child('name'), name, m));
    const vf = ev.valueFrom;
    if (!isObj(vf)) continue;
    const vp = () => at(i).child('valueFrom');
    let sources = 0;
    if (isObj(vf.fieldRef)) {
      sources++;
      if (!str(vf.fieldRef.fieldPath)) errs.push(required(vp().child('fieldRef').child('fieldPath')));
    }
    if (isObj(vf.resourceFieldRef)) {
      sources++;
      if (!str(vf.resourceFieldRef.resource)) errs.push(required(vp().child('resourceFieldRef').child('resource')));
    }
    if (isObj(vf.configMapKeyRef)) {
      sources++;
      validateKeySelector(vf.configMapKeyRef, vp().child('configMapKeyRef'), errs);
    }
    if (isObj(vf.secretKeyRef)) {
      sources++;
      validateKeySelector(vf.secretKeyRef, vp().child('secretKeyRef'), errs);
    }
    if (sources === 0) errs.push(invalid(vp(), '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (str(ev.value)) errs.push(invalid(vp(), '', 'may not be specified when `value` is not empty'));
    else if (sources > 1) errs.push(invalid(vp(), '', 'may not have more than one field specified at a time'));
  }
}

function validateVolumeMounts(mounts: unknown[], volumes: Set<string>, container: FieldPath, errs: FieldError[]): void {
  const seen = new Set<string>();
  const at = (i: number) => container.child('volumeMounts').index(i);
  for (let i = 0; i < mounts.length; i++) {
    const m = obj(mounts[i]);
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (!name) errs.push(required(at(i).child('name')));
    if (!volumes.has(name)) errs.push(notFound(at(i).child('name'), name));
    if (!mountPath) errs.push(required(at(i).child('mountPath')));
    if (seen.has(mountPath)) errs.push(invalid(at(i).child('mountPath'), mountPath, 'must be unique'));
    seen.add(mountPath);
  }
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const isHugePages = (n: string) => n.startsWith('hugepages-') || n.startsWith('requests.hugepages-');
const isNative = (n: string) => !n.includes('/') || n.includes('kubernetes.io/');
const overcommitAllowed = (n: string) => isNative(n) && !isHugePages(n);

function validateResourceEntry(name: string, value: unknown, path: () => FieldPath, errs: FieldError[]): void {
  for (const m of qualifiedNameErrors(name)) errs.push(invalid(path(), name, m));
  if (!name.includes('/') && !STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) {
    errs.push(invalid(path(), name, 'must be a standard resource for containers'));
    return;
  }
  const q = quantityOf(value);
  if (q && q.nanos < 0n) errs.push(invalid(path(), formatQuantity(q), 'must be greater than or equal to 0'));
}

/** ValidateResourceRequirements: names, non-negative values, requests ≤ limits (the cause is on `requests`, unkeyed). */
export function validateResources(resources: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  resourceErrors(resources, () => path, errs);
  return errs;
}

function resourceErrors(resources: unknown, path: () => FieldPath, errs: FieldError[]): void {
  const r = obj(resources);
  const limits = obj(r.limits);
  const requests = obj(r.requests);
  const limPath = () => path().child('limits');
  const reqPath = () => path().child('requests');
  for (const name of sortedKeys(limits)) validateResourceEntry(name, limits[name], () => limPath().key(name), errs);
  for (const name of sortedKeys(requests)) {
    validateResourceEntry(name, requests[name], () => reqPath().key(name), errs);
    const req = quantityOf(requests[name]);
    if (!req) continue;
    if (has(limits, name)) {
      const lim = quantityOf(limits[name]);
      if (!lim) continue;
      const c = compareQuantities(req, lim);
      if (c !== 0 && !overcommitAllowed(name)) errs.push(invalid(reqPath(), formatQuantity(req), `must be equal to ${name} limit`));
      else if (c > 0) errs.push(invalid(reqPath(), formatQuantity(req), `must be less than or equal to ${name} limit`));
    } else if (!overcommitAllowed(name)) {
      errs.push(required(limPath(), 'Limit must be set for non overcommitable resources'));
    }
  }
}

const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

export function validateChoice(value: string, path: () => FieldPath, allowed: string[], errs: FieldError[], requiredDetail = ''): void {
  if (value === '') errs.push(required(path(), requiredDetail));
  else if (!allowed.includes(value)) errs.push(notSupported(path(), value, allowed));
}

function validateContainerCommon(c: Obj, volumes: Set<string>, path: FieldPath, errs: FieldError[]): void {
  const name = str(c.name);
  if (!name) errs.push(required(path.child('name')));
  else for (const m of dns1123LabelErrors(name)) errs.push(invalid(path.child('name'), name, m));
  if (!str(c.image)) errs.push(required(path.child('image')));
  validateChoice(str(c.terminationMessagePolicy), () => path.child('terminationMessagePolicy'), TERMINATION_MESSAGE_POLICIES, errs, "must be 'File' or 'FallbackToLogsOnError'");
  validatePorts(arr(c.ports), path, errs);
  validateEnv(arr(c.env), path, errs);
  validateVolumeMounts(arr(c.volumeMounts), volumes, path, errs);
  validateChoice(str(c.imagePullPolicy), () => path.child('imagePullPolicy'), PULL_POLICIES, errs);
  resourceErrors(c.resources, () => path.child('resources'), errs);
}

function validateContainers(containers: unknown[], volumes: Set<string>, path: FieldPath, errs: FieldError[]): void {
  if (containers.length === 0) {
    errs.push(required(path));
    return;
  }
  const names = new Set<string>();
  for (let i = 0; i < containers.length; i++) {
    const c = obj(containers[i]);
    const p = path.index(i);
    validateContainerCommon(c, volumes, p, errs);
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
  }
}

const INIT_FORBIDDEN = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'];

function validateInitContainers(inits: unknown[], containers: unknown[], volumes: Set<string>, path: FieldPath, errs: FieldError[]): void {
  if (inits.length === 0) return;
  const names = new Set(containers.map((c) => str(obj(c).name)));
  for (let i = 0; i < inits.length; i++) {
    const c = obj(inits[i]);
    const p = path.index(i);
    validateContainerCommon(c, volumes, p, errs);
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name) names.add(name);
    for (const f of INIT_FORBIDDEN) {
      if (has(c, f)) errs.push(forbidden(p.child(f), 'may not be set for init containers'));
    }
  }
}

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function goToleration(t: Obj): GoValue {
  const q = (v: unknown) => JSON.stringify(str(v));
  const secs = num(t.tolerationSeconds);
  return new GoValue(t, `core.Toleration{Key:${q(t.key)}, Operator:${q(t.operator)}, Value:${q(t.value)}, Effect:${q(t.effect)}, TolerationSeconds:${secs === undefined ? '(*int64)(nil)' : `&${secs}`}}`);
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  tolerationErrors(tolerations, path, errs);
  return errs;
}

function tolerationErrors(tolerations: unknown[], path: FieldPath, errs: FieldError[]): void {
  for (let i = 0; i < tolerations.length; i++) {
    const t = obj(tolerations[i]);
    const p = () => path.index(i);
    const key = str(t.key);
    const op = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key) for (const m of qualifiedNameErrors(key)) errs.push(invalid(p().child('key'), key, m));
    if (!key && op !== 'Exists') errs.push(invalid(p().child('operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (has(t, 'tolerationSeconds') && effect !== 'NoExecute') errs.push(invalid(p().child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    switch (op) {
      case 'Equal':
      case '': {
        const vm = labelValueErrors(value);
        if (vm.length) errs.push(invalid(p().child('operator'), goToleration(t), vm.join(';')));
        break;
      }
      case 'Exists':
        if (value) errs.push(invalid(p().child('operator'), goToleration(t), "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(notSupported(p().child('operator'), op, ['Equal', 'Exists']));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(p().child('effect'), effect, TAINT_EFFECTS));
  }
}

/** ValidatePodSpec (the parts that users hit; see the module comment for the order). */
export function validatePodSpec(spec: unknown, path: FieldPath): FieldError[] {
  const s = obj(spec);
  const { errs, names } = validateVolumes(arr(s.volumes), path.child('volumes'));
  validateContainers(arr(s.containers), names, path.child('containers'), errs);
  validateInitContainers(arr(s.initContainers), arr(s.containers), names, path.child('initContainers'), errs);
  validateChoice(str(s.restartPolicy), () => path.child('restartPolicy'), RESTART_POLICIES, errs);
  const dnsPolicy = str(s.dnsPolicy);
  validateChoice(dnsPolicy, () => path.child('dnsPolicy'), DNS_POLICIES, errs);
  for (const e of validateLabels(obj(s.nodeSelector), path.child('nodeSelector'))) errs.push(e);
  if (dnsPolicy === 'None' && !isObj(s.dnsConfig)) errs.push(required(path.child('dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None'));
  const gates = arr(s.schedulingGates);
  const gateNames = new Set<string>();
  for (let i = 0; i < gates.length; i++) {
    const name = str(obj(gates[i]).name);
    for (const m of qualifiedNameErrors(name)) errs.push(invalid(path.child('schedulingGates').index(i).child('name'), name, m));
    if (gateNames.has(name)) errs.push(duplicate(path.child('schedulingGates').index(i).child('name'), name));
    gateNames.add(name);
  }
  const sa = str(s.serviceAccountName);
  if (sa) for (const m of dns1123SubdomainErrors(sa)) errs.push(invalid(path.child('serviceAccountName'), sa, m));
  const node = str(s.nodeName);
  if (node) for (const m of dns1123SubdomainErrors(node)) errs.push(invalid(path.child('nodeName'), node, m));
  const ads = num(s.activeDeadlineSeconds);
  if (ads !== undefined && (ads < 1 || ads > MAX_INT32)) errs.push(invalid(path.child('activeDeadlineSeconds'), ads, inclusiveRange(1, MAX_INT32)));
  const hostname = str(s.hostname);
  if (hostname) for (const m of dns1123LabelErrors(hostname)) errs.push(invalid(path.child('hostname'), hostname, m));
  const subdomain = str(s.subdomain);
  if (subdomain) for (const m of dns1123LabelErrors(subdomain)) errs.push(invalid(path.child('subdomain'), subdomain, m));
  tolerationErrors(arr(s.tolerations), path.child('tolerations'), errs);
  return errs;
}

/** ValidatePodTemplateSpec: template labels and annotations (under `<path>.labels`, as Kubernetes names them) and the spec. */
export function validatePodTemplateSpec(template: unknown, path: FieldPath): FieldError[] {
  const t = obj(template);
  const meta = obj(t.metadata);
  const errs = validateLabels(obj(meta.labels), path.child('labels'));
  errs.push(...validateAnnotations(obj(meta.annotations), path.child('annotations')));
  const spec = obj(t.spec);
  errs.push(...validatePodSpec(spec, path.child('spec')));
  if (arr(spec.ephemeralContainers).length > 0) errs.push(forbidden(path.child('spec').child('ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}
