// The Pod Security Standards checks of v1.27 (pod-security-admission
// policy/check_*.go): each returns allowed or a reason and a detail, in the
// words Kubernetes uses. A check has versions (the first policy version each
// revision applies to); a restricted check may override a baseline one, which
// then is not run at the restricted level. Baseline checks run first, then
// restricted ones, each group in Kubernetes' order (by check id).
import { effectiveMinor, type LevelVersion } from './levels.js';

type Rec = Record<string, unknown>;
export interface PodMeta {
  readonly annotations?: Readonly<Record<string, string>>;
}
/** The pod spec as stored JSON. */
export type PodSpec = Rec;

export type CheckResult = { readonly allowed: true } | { readonly allowed: false; readonly reason: string; readonly detail: string };
type CheckFn = (meta: PodMeta, spec: PodSpec) => CheckResult;

interface VersionedCheck {
  readonly minVersion: number;
  readonly check: CheckFn;
  /** Baseline check ids this revision replaces at the restricted level. */
  readonly overrides?: readonly string[];
}
export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  readonly versions: readonly VersionedCheck[];
}

const OK: CheckResult = { allowed: true };
const deny = (reason: string, detail: string): CheckResult => ({ allowed: false, reason, detail });

// ---- helpers over JSON ----
const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined);
const arr = (v: unknown): Rec[] => (Array.isArray(v) ? v.map(rec).filter((x): x is Rec => x !== undefined) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);

/** Init containers, then containers, then ephemeral containers, as Kubernetes visits them. */
function containers(spec: PodSpec): readonly Rec[] {
  if (evaluating?.spec === spec) return evaluating.list;
  return [...arr(spec.initContainers), ...arr(spec.containers), ...arr(spec.ephemeralContainers)];
}
/** The pod spec evaluatePod is checking and its containers, listed once for all the checks it runs. */
let evaluating: { readonly spec: PodSpec; readonly list: readonly Rec[] } | undefined;
const sc = (c: Rec): Rec | undefined => rec(c.securityContext);
const podSC = (spec: PodSpec): Rec | undefined => rec(spec.securityContext);
const name = (c: Rec): string => str(c.name);

const joinQuote = (items: readonly string[]): string => (items.length ? items.map((s) => JSON.stringify(s)).join(', ') : '');
const plural = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const sortedUnique = (items: Iterable<string>): string[] => [...new Set(items)].sort();
const containersPhrase = (names: readonly string[]): string => `${plural('container', 'containers', names.length)} ${joinQuote(names)}`;
const isWindows = (spec: PodSpec): boolean => str(rec(spec.os)?.name) === 'windows';

// ---- baseline ----

const BASELINE_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

function appArmorProfile(meta: PodMeta): CheckResult {
  const bad: string[] = [];
  for (const [k, v] of Object.entries(meta.annotations ?? {})) {
    if (!k.startsWith('container.apparmor.security.beta.kubernetes.io/')) continue;
    if (v === '' || v === 'runtime/default' || v.startsWith('localhost/')) continue;
    bad.push(`${k}=${JSON.stringify(v)}`);
  }
  if (!bad.length) return OK;
  bad.sort();
  return deny(plural('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length), bad.join(', '));
}

function capabilitiesBaseline(_m: PodMeta, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const caps = new Set<string>();
  for (const c of containers(spec)) {
    let ok = true;
    for (const cap of strs(rec(sc(c)?.capabilities)?.add)) {
      if (!BASELINE_CAPABILITIES.has(cap)) {
        ok = false;
        caps.add(cap);
      }
    }
    if (!ok) bad.push(name(c));
  }
  if (!bad.length) return OK;
  return deny('non-default capabilities', `${containersPhrase(bad)} must not include ${joinQuote(sortedUnique(caps))} in securityContext.capabilities.add`);
}

function hostNamespaces(_m: PodMeta, spec: PodSpec): CheckResult {
  const set = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((k) => spec[k] === true);
  return set.length ? deny('host namespaces', set.map((k) => `${k}=true`).sort().join(', ')) : OK;
}

function hostPathVolumes(_m: PodMeta, spec: PodSpec): CheckResult {
  const vols = arr(spec.volumes).filter((v) => v.hostPath !== undefined && v.hostPath !== null).map(name);
  return vols.length ? deny('hostPath volumes', `${plural('volume', 'volumes', vols.length)} ${joinQuote(vols)}`) : OK;
}

function hostPorts(_m: PodMeta, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const ports = new Set<string>();
  for (const c of containers(spec)) {
    let ok = true;
    for (const p of arr(c.ports)) {
      if (typeof p.hostPort === 'number' && p.hostPort !== 0) {
        ok = false;
        ports.add(String(p.hostPort));
      }
    }
    if (!ok) bad.push(name(c));
  }
  if (!bad.length) return OK;
  const list = sortedUnique(ports);
  return deny('hostPort', `${containersPhrase(bad)} ${plural('uses', 'use', bad.length)} ${plural('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`);
}

function privileged(_m: PodMeta, spec: PodSpec): CheckResult {
  const bad = containers(spec).filter((c) => sc(c)?.privileged === true).map(name);
  return bad.length ? deny('privileged', `${containersPhrase(bad)} must not set securityContext.privileged=true`) : OK;
}

function procMount(_m: PodMeta, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const c of containers(spec)) {
    const pm = sc(c)?.procMount;
    if (pm === undefined || pm === null) continue;
    if (pm !== 'Default') {
      bad.push(name(c));
      types.add(str(pm));
    }
  }
  return bad.length ? deny('procMount', `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedUnique(types))}`) : OK;
}

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

function seLinuxOptions(_m: PodMeta, spec: PodSpec): CheckResult {
  const setters: string[] = [];
  const badTypes = new Set<string>();
  let setUser = false;
  let setRole = false;
  const valid = (o: Rec): boolean => {
    let ok = true;
    const t = str(o.type);
    if (!SELINUX_TYPES.has(t)) {
      ok = false;
      badTypes.add(t);
    }
    if (str(o.user) !== '') {
      ok = false;
      setUser = true;
    }
    if (str(o.role) !== '') {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const podOpts = rec(podSC(spec)?.seLinuxOptions);
  if (podOpts && !valid(podOpts)) setters.push('pod');
  const bad: string[] = [];
  for (const c of containers(spec)) {
    const o = rec(sc(c)?.seLinuxOptions);
    if (o && !valid(o)) bad.push(name(c));
  }
  if (bad.length) setters.push(containersPhrase(bad));
  if (!setters.length) return OK;
  // As Kubernetes words it, user and role are only mentioned alongside a bad type.
  const data: string[] = [];
  if (badTypes.size) {
    const types = sortedUnique(badTypes);
    data.push(`${plural('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
  }
  return deny('seLinuxOptions', `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`);
}

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const validSeccompAnnotation = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
const validSeccompType = (t: unknown) => t === 'RuntimeDefault' || t === 'Localhost';

/** Before v1.19 seccomp was set with annotations. */
function seccompBaselineAnnotations(meta: PodMeta, spec: PodSpec): CheckResult {
  const ann = meta.annotations ?? {};
  const bad = new Set<string>();
  const checkKey = (k: string) => {
    if (Object.prototype.hasOwnProperty.call(ann, k) && !validSeccompAnnotation(ann[k]!)) bad.add(`${k}=${JSON.stringify(ann[k])}`);
  };
  checkKey(SECCOMP_POD_ANNOTATION);
  for (const c of containers(spec)) checkKey(SECCOMP_CONTAINER_PREFIX + name(c));
  if (!bad.size) return OK;
  return deny('seccompProfile', `forbidden ${plural('annotation', 'annotations', bad.size)} ${sortedUnique(bad).join(', ')}`);
}

/** Pod and containers that set a seccomp type other than RuntimeDefault/Localhost; `unset` collects containers without one. */
function seccompSetters(spec: PodSpec): { setters: string[]; values: string[]; podValid: boolean; unset: string[] } {
  const setters: string[] = [];
  const values = new Set<string>();
  let podValid = false;
  const podProfile = rec(podSC(spec)?.seccompProfile);
  if (podProfile) {
    if (!validSeccompType(podProfile.type)) {
      setters.push('pod');
      values.add(str(podProfile.type));
    } else podValid = true;
  }
  const bad: string[] = [];
  const unset: string[] = [];
  for (const c of containers(spec)) {
    const p = rec(sc(c)?.seccompProfile);
    if (p) {
      if (!validSeccompType(p.type)) {
        bad.push(name(c));
        values.add(str(p.type));
      }
    } else unset.push(name(c));
  }
  if (bad.length) setters.push(containersPhrase(bad));
  return { setters, values: sortedUnique(values), podValid, unset };
}

function seccompBaseline(_m: PodMeta, spec: PodSpec): CheckResult {
  const { setters, values } = seccompSetters(spec);
  return setters.length ? deny('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`) : OK;
}

/** Only the "safe" set; v1.27 added net.ipv4.ip_local_reserved_ports. */
const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];

function sysctls(allowed: readonly string[]): CheckFn {
  const set = new Set(allowed);
  return (_m, spec) => {
    const bad = arr(podSC(spec)?.sysctls).map(name).filter((n) => !set.has(n));
    return bad.length ? deny('forbidden sysctls', bad.join(', ')) : OK;
  };
}

function windowsHostProcess(_m: PodMeta, spec: PodSpec): CheckResult {
  const hostProcess = (o: Rec | undefined) => rec(o?.windowsOptions)?.hostProcess === true;
  const setters: string[] = [];
  if (hostProcess(podSC(spec))) setters.push('pod');
  const bad = containers(spec).filter((c) => hostProcess(sc(c))).map(name);
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? deny('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`) : OK;
}

// ---- restricted ----

/** From v1.25 some restricted checks do not apply to pods that declare spec.os.name=windows. */
const linuxOnly =
  (fn: CheckFn): CheckFn =>
  (m, spec) =>
    isWindows(spec) ? OK : fn(m, spec);

function allowPrivilegeEscalation(_m: PodMeta, spec: PodSpec): CheckResult {
  const bad = containers(spec).filter((c) => sc(c)?.allowPrivilegeEscalation !== false).map(name);
  return bad.length ? deny('allowPrivilegeEscalation != false', `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`) : OK;
}

function capabilitiesRestricted(_m: PodMeta, spec: PodSpec): CheckResult {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const caps = new Set<string>();
  for (const c of containers(spec)) {
    const capsObj = rec(sc(c)?.capabilities);
    if (!capsObj) {
      missingDrop.push(name(c));
      continue;
    }
    if (!strs(capsObj.drop).includes('ALL')) missingDrop.push(name(c));
    let addsForbidden = false;
    for (const cap of strs(capsObj.add)) {
      if (cap !== 'NET_BIND_SERVICE') {
        addsForbidden = true;
        caps.add(cap);
      }
    }
    if (addsForbidden) adding.push(name(c));
  }
  const details: string[] = [];
  if (missingDrop.length) details.push(`${containersPhrase(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length) details.push(`${containersPhrase(adding)} must not include ${joinQuote(sortedUnique(caps))} in securityContext.capabilities.add`);
  return details.length ? deny('unrestricted capabilities', details.join('; ')) : OK;
}

const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

/** The other volume sources by their JSON names (the type Kubernetes names), in its order; "unknown" when none is set. */
const RESTRICTED_VOLUME_TYPES = ['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos'];
const present = (v: Rec, k: string) => v[k] !== undefined && v[k] !== null;

function restrictedVolumes(_m: PodMeta, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const v of arr(spec.volumes)) {
    if (ALLOWED_VOLUME_SOURCES.some((k) => present(v, k))) continue;
    bad.push(name(v));
    types.add(RESTRICTED_VOLUME_TYPES.find((field) => present(v, field)) ?? 'unknown');
  }
  if (!bad.length) return OK;
  const list = sortedUnique(types);
  return deny(
    'restricted volume types',
    `${plural('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${plural('uses', 'use', bad.length)} ${plural('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}`,
  );
}

function runAsNonRoot(_m: PodMeta, spec: PodSpec): CheckResult {
  const setters: string[] = [];
  let podTrue = false;
  const podValue = podSC(spec)?.runAsNonRoot;
  if (typeof podValue === 'boolean') {
    if (!podValue) setters.push('pod');
    else podTrue = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const v = sc(c)?.runAsNonRoot;
    if (typeof v === 'boolean') {
      if (!v) explicit.push(name(c));
    } else if (!podTrue) implicit.push(name(c));
  }
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) return deny('runAsNonRoot != true', `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicit.length) return deny('runAsNonRoot != true', `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`);
  return OK;
}

function runAsUser(_m: PodMeta, spec: PodSpec): CheckResult {
  const setters: string[] = [];
  if (podSC(spec)?.runAsUser === 0) setters.push('pod');
  const bad = containers(spec).filter((c) => sc(c)?.runAsUser === 0).map(name);
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? deny('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`) : OK;
}

function seccompRestricted(_m: PodMeta, spec: PodSpec): CheckResult {
  const { setters, values, podValid, unset } = seccompSetters(spec);
  if (setters.length) return deny('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`);
  if (!podValid && unset.length) return deny('seccompProfile', `pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  return OK;
}

// ---- the registry ----

/** Every check of v1.27, in Kubernetes' order. */
export const CHECKS: readonly Check[] = [
  { id: 'allowPrivilegeEscalation', level: 'restricted', versions: [{ minVersion: 8, check: allowPrivilegeEscalation }, { minVersion: 25, check: linuxOnly(allowPrivilegeEscalation) }] },
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minVersion: 0, check: appArmorProfile }] },
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minVersion: 0, check: capabilitiesBaseline }] },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [
      { minVersion: 22, check: capabilitiesRestricted, overrides: ['capabilities_baseline'] },
      { minVersion: 25, check: linuxOnly(capabilitiesRestricted), overrides: ['capabilities_baseline'] },
    ],
  },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minVersion: 0, check: hostNamespaces }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minVersion: 0, check: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minVersion: 0, check: hostPorts }] },
  { id: 'privileged', level: 'baseline', versions: [{ minVersion: 0, check: privileged }] },
  { id: 'procMount', level: 'baseline', versions: [{ minVersion: 0, check: procMount }] },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minVersion: 0, check: restrictedVolumes }] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minVersion: 0, check: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minVersion: 23, check: runAsUser }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [{ minVersion: 0, check: seLinuxOptions }] },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    versions: [
      { minVersion: 0, check: seccompBaselineAnnotations },
      { minVersion: 19, check: seccompBaseline },
    ],
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [
      { minVersion: 19, check: seccompRestricted, overrides: ['seccompProfile_baseline'] },
      { minVersion: 25, check: linuxOnly(seccompRestricted), overrides: ['seccompProfile_baseline'] },
    ],
  },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [
      { minVersion: 0, check: sysctls(SYSCTLS_1_0) },
      { minVersion: 27, check: sysctls(SYSCTLS_1_27) },
    ],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minVersion: 0, check: windowsHostProcess }] },
];

/** The revision of a check that applies at a minor version, if any. */
function revision(c: Check, minor: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const v of c.versions) if (v.minVersion <= minor) found = v;
  return found;
}

/** The checks that apply at a level and version, in evaluation order. */
export function checksFor(lv: LevelVersion): readonly CheckFn[] {
  if (lv.level === 'privileged') return [];
  const minor = effectiveMinor(lv.version);
  const key = `${lv.level}/${minor}`;
  let found = checksByLevel.get(key);
  if (!found) checksByLevel.set(key, (found = Object.freeze(selectChecks(lv.level, minor))));
  return found;
}

/** The checks per level and minor version, selected once. */
const checksByLevel = new Map<string, readonly CheckFn[]>();

function selectChecks(level: LevelVersion['level'], minor: number): CheckFn[] {
  const restricted = level === 'restricted' ? CHECKS.filter((c) => c.level === 'restricted').map((c) => revision(c, minor)).filter((r): r is VersionedCheck => r !== undefined) : [];
  const overridden = new Set(restricted.flatMap((r) => r.overrides ?? []));
  const baseline = CHECKS.filter((c) => c.level === 'baseline' && !overridden.has(c.id))
    .map((c) => revision(c, minor))
    .filter((r): r is VersionedCheck => r !== undefined);
  return [...baseline, ...restricted].map((r) => r.check);
}

export interface Aggregate {
  readonly allowed: boolean;
  readonly reasons: string[];
  readonly details: string[];
}

/** Runs the checks of a level and version against a pod (or template) and gathers the failures. */
export function evaluatePod(lv: LevelVersion, meta: PodMeta, spec: PodSpec): Aggregate {
  const reasons: string[] = [];
  const details: string[] = [];
  const checks = checksFor(lv);
  if (checks.length === 0) return { allowed: true, reasons, details };
  const outer = evaluating;
  evaluating = { spec, list: containers(spec) };
  try {
    for (const check of checks) {
      const r = check(meta, spec);
      if (!r.allowed) {
        reasons.push(r.reason || 'unknown forbidden reason');
        details.push(r.detail);
      }
    }
  } finally {
    evaluating = outer;
  }
  return { allowed: reasons.length === 0, reasons, details };
}

/** "reason (detail), reason, …" as in the 403 and the warnings. */
export const forbiddenDetail = (a: Aggregate): string => a.reasons.map((r, i) => (a.details[i] ? `${r} (${a.details[i]})` : r)).join(', ');
/** "reason, reason, …" as in the namespace-label warnings. */
export const forbiddenReason = (a: Aggregate): string => a.reasons.join(', ');
