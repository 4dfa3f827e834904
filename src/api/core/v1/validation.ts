// Per-kind validation of core/v1 beyond the schema, with kube-apiserver
// v1.27's field paths and messages (pkg/apis/core/validation). Objects arrive
// decoded and defaulted; ObjectMeta basics are the store's (api/meta). Every
// function is pure and returns the causes in Kubernetes' order; Go map
// iteration is replaced by sorted keys so the order is stable.
//
//   pod spec ── volumes → containers → initContainers → restartPolicy → dnsPolicy
//            → nodeSelector → dnsConfig → serviceAccountName → nodeName
//            → activeDeadlineSeconds → hostname/subdomain → tolerations
//   used by Pod, PodTemplate and every workload template (apps, batch).
import { type FieldError, FieldPath, fieldPath, duplicate, forbidden, invalid, notSupported, required, tooLong } from '../../meta/field.js';
import { dns1123LabelErrors, dns1123SubdomainErrors, isEnvVarName, isPortName, labelValueErrors, qualifiedNameErrors, validateLabels, validateAnnotations } from '../../meta/validation.js';
import {
  type Obj,
  arr,
  cidrFamily,
  configMapKeyErrors,
  dns1123Label,
  dns1123Subdomain,
  envVarNameErrors,
  immutable,
  inclusiveRange,
  ipErrors,
  isObj,
  notFound,
  num,
  obj,
  portNameErrors,
  portNumErrors,
  qualifiedName,
  semanticEqual,
  str,
  strMap,
} from '../../meta/checks.js';
import { compareQuantities, formatQuantity, quantityOf } from '../../meta/quantity.js';
import { GoValue } from '../../meta/govalue.js';
import { resourceQuotaValidator } from './resourcequota.js';
import { validateLimitRange } from './limitrange.js';

const MAX_INT32 = 2147483647;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const has = (o: Obj, k: string) => o[k] !== undefined && o[k] !== null;
/** Object.keys(o).sort(), with the usual two or three keys of a resource list sorted in place by hand. */
function sortedKeys(o: Obj): string[] {
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

// ---------------------------------------------------------------- pod spec
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

function validateChoice(value: string, path: () => FieldPath, allowed: string[], errs: FieldError[], requiredDetail = ''): void {
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

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

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

// ---------------------------------------------------------------- Pod

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

// ---------------------------------------------------------------- ConfigMap, Secret

export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

/** Bytes of a base64 value once decoded. */
function decodedLength(v: unknown): number {
  return typeof v === 'string' ? Buffer.from(v, 'base64').length : 0;
}

export function validateConfigMap(cm: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data = obj(cm.data);
  const binary = obj(cm.binaryData);
  let size = 0;
  const dp = fieldPath('data');
  const bp = fieldPath('binaryData');
  for (const key of sortedKeys(data)) {
    for (const m of configMapKeyErrors(key)) errs.push(invalid(dp.key(key), key, m));
    if (has(binary, key)) errs.push(invalid(dp.key(key), key, 'duplicate of key present in binaryData'));
    size += Buffer.byteLength(str(data[key]));
  }
  for (const key of sortedKeys(binary)) {
    for (const m of configMapKeyErrors(key)) errs.push(invalid(bp.key(key), key, m));
    size += decodedLength(binary[key]);
  }
  if (size > MAX_SECRET_SIZE) errs.push(tooLong('', MAX_SECRET_SIZE));
  return errs;
}

function immutableData(o: Obj, old: Obj, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (o.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_SET));
  for (const f of fields) if (!semanticEqual(o[f], old[f])) errs.push(forbidden(f, IMMUTABLE_SET));
  return errs;
}

export function validateConfigMapUpdate(cm: Obj, old: Obj): FieldError[] {
  return [...immutableData(cm, old, ['data', 'binaryData']), ...validateConfigMap(cm)];
}

/** Secret data as the internal type sees it: data with stringData merged in (values as bytes). */
function secretData(s: Obj): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(obj(s.data))) out.set(k, Buffer.from(str(v), 'base64'));
  for (const [k, v] of Object.entries(obj(s.stringData))) out.set(k, Buffer.from(str(v), 'utf8'));
  return out;
}

/** encoding/json's error for a document that does not decode into map[string]interface{}. */
function goJsonObjectError(b: Buffer): string | undefined {
  const text = b.toString('utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    const t = text.trim();
    if (t === '') return 'unexpected end of JSON input';
    return `invalid character '${t[0]}' looking for beginning of value`;
  }
  if (isObj(v) || v === null) return undefined;
  const kind = Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

export function validateSecret(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data = secretData(s);
  const dp = fieldPath('data');
  let size = 0;
  for (const key of [...data.keys()].sort()) {
    for (const m of configMapKeyErrors(key)) errs.push(invalid(dp.key(key), key, m));
    size += data.get(key)!.length;
  }
  if (size > MAX_SECRET_SIZE) errs.push(tooLong(dp, MAX_SECRET_SIZE));
  const needJson = (key: string) => {
    const b = data.get(key);
    if (b === undefined) return errs.push(required(dp.key(key)));
    const e = goJsonObjectError(b);
    if (e) errs.push(invalid(dp.key(key), '<secret contents redacted>', e));
  };
  switch (str(s.type)) {
    case 'kubernetes.io/service-account-token':
    case 'svc.io/service-account-token': {
      // the annotation in the type's own spelling (the token controller reads the same one)
      const key = `${str(s.type).split('/')[0]}/service-account.name`;
      if (!str(strMap(obj(s.metadata).annotations)[key])) errs.push(required(fieldPath('metadata').child('annotations').key(key)));
      break;
    }
    case 'kubernetes.io/dockercfg':
      needJson('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      needJson('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!data.has('username') && !data.has('password')) errs.push(required(dp.key('username')), required(dp.key('password')));
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data.get('ssh-privatekey')?.length) errs.push(required(dp.key('ssh-privatekey')));
      break;
    case 'kubernetes.io/tls':
      if (!data.has('tls.crt')) errs.push(required(dp.key('tls.crt')));
      if (!data.has('tls.key')) errs.push(required(dp.key('tls.key')));
      break;
  }
  return errs;
}

export function validateSecretUpdate(s: Obj, old: Obj): FieldError[] {
  const errs = immutable(str(s.type), str(old.type), fieldPath('type'));
  if (old.immutable === true) {
    if (s.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_SET));
    if (!semanticEqual(Object.fromEntries([...secretData(s)].map(([k, v]) => [k, v.toString('base64')])), obj(old.data))) errs.push(forbidden('data', IMMUTABLE_SET));
  }
  return [...errs, ...validateSecret(s)];
}

// ---------------------------------------------------------------- Service

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

// ---------------------------------------------------------------- Namespace, Node

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

// ---------------------------------------------------------------- Event (core/v1)

export const EVENT_LIMITS = { reportingInstance: 128, action: 128, reason: 128, note: 1024 } as const;

/** The internal Event fields both API versions map onto (events/v1 names in comments). */
export interface InternalEvent {
  namespace: string;
  involvedObject: Obj; // regarding
  reason: string;
  message: string; // note
  source: Obj; // deprecatedSource
  firstTimestamp: unknown; // deprecatedFirstTimestamp
  lastTimestamp: unknown; // deprecatedLastTimestamp
  count: number; // deprecatedCount
  type: string;
  eventTime: unknown;
  series: Obj | undefined;
  action: string;
  related: unknown;
  reportingController: string;
  reportingInstance: string;
}

export function coreEventToInternal(e: Obj): InternalEvent {
  const series = isObj(e.series) ? { count: e.series.count, lastObservedTime: e.series.lastObservedTime } : undefined;
  return {
    namespace: str(obj(e.metadata).namespace),
    involvedObject: obj(e.involvedObject),
    reason: str(e.reason),
    message: str(e.message),
    source: obj(e.source),
    firstTimestamp: e.firstTimestamp ?? null,
    lastTimestamp: e.lastTimestamp ?? null,
    count: num(e.count) ?? 0,
    type: str(e.type),
    eventTime: e.eventTime ?? null,
    series,
    action: str(e.action),
    related: e.related ?? null,
    reportingController: str(e.reportingComponent),
    reportingInstance: str(e.reportingInstance),
  };
}

const isSet = (t: unknown) => typeof t === 'string' && t !== '';

/** legacyValidateEvent: what every Event must satisfy, whichever API wrote it. */
export function legacyValidateEvent(e: InternalEvent, coreV1: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ns = e.namespace;
  const ioNs = str(e.involvedObject.namespace);
  const mismatch = () => errs.push(invalid(fieldPath('involvedObject').child('namespace'), ioNs, 'does not match event.namespace'));
  if (!isSet(e.eventTime)) {
    if (!ioNs) {
      if (ns !== '' && ns !== 'default') mismatch();
    } else if (ns !== ioNs) mismatch();
  } else {
    if (!ioNs && ns !== 'default' && ns !== 'kube-system') mismatch();
    const rc = coreV1 ? 'source' : 'reportingController';
    if (!e.reportingController) errs.push(required(rc));
    errs.push(...qualifiedName(e.reportingController, fieldPath(rc)));
    if (!e.reportingInstance) errs.push(required('reportingInstance'));
    if (e.reportingInstance.length > EVENT_LIMITS.reportingInstance) errs.push(invalid('reportingInstance', '', `can have at most ${EVENT_LIMITS.reportingInstance} characters`));
    if (!e.action) errs.push(required('action'));
    if (e.action.length > EVENT_LIMITS.action) errs.push(invalid('action', '', `can have at most ${EVENT_LIMITS.action} characters`));
    if (!e.reason) errs.push(required('reason'));
    if (e.reason.length > EVENT_LIMITS.reason) errs.push(invalid('reason', '', `can have at most ${EVENT_LIMITS.reason} characters`));
    if (e.message.length > EVENT_LIMITS.note) errs.push(invalid('message', '', `can have at most ${EVENT_LIMITS.note} characters`));
  }
  for (const m of dns1123SubdomainErrors(ns)) errs.push(invalid('namespace', ns, m));
  return errs;
}

export function validateEvent(ev: Obj): FieldError[] {
  return legacyValidateEvent(coreEventToInternal(ev), true);
}

export function validateEventUpdate(ev: Obj): FieldError[] {
  return legacyValidateEvent(coreEventToInternal(ev), true);
}

// ---------------------------------------------------------------- registry entries

export interface KindValidator {
  validate(obj: Obj): FieldError[];
  /** `subresource`: the one the update came through ('status', 'approval' …), undefined for the main resource. */
  validateUpdate(obj: Obj, old: Obj, subresource?: string): FieldError[];
}

export interface CoreValidationOptions {
  readonly service?: ServiceValidationOptions;
}

export function coreValidators(opts: CoreValidationOptions = {}): Record<string, KindValidator> {
  const svc = opts.service ?? { nodePortRange: DEFAULT_NODE_PORT_RANGE };
  return {
    // pods/status: kube's ValidatePodStatusUpdate leaves the spec alone (the status strategy keeps the stored one)
    Pod: { validate: validatePod, validateUpdate: (o, old, subresource) => (subresource === 'status' ? [] : validatePodUpdate(o, old)) },
    PodTemplate: { validate: validatePodTemplate, validateUpdate: (o) => validatePodTemplate(o) },
    ConfigMap: { validate: validateConfigMap, validateUpdate: validateConfigMapUpdate },
    Secret: { validate: validateSecret, validateUpdate: validateSecretUpdate },
    Service: { validate: (o) => validateService(o, svc), validateUpdate: (o, old) => validateServiceUpdate(o, old, svc) },
    Namespace: { validate: validateNamespace, validateUpdate: () => [] },
    Node: { validate: validateNode, validateUpdate: validateNodeUpdate },
    Event: { validate: validateEvent, validateUpdate: (o) => validateEventUpdate(o) },
    ResourceQuota: resourceQuotaValidator,
    LimitRange: { validate: validateLimitRange, validateUpdate: (o) => validateLimitRange(o) },
  };
}

export { FieldPath };
