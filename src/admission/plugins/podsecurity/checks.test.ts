// The Pod Security Standards checks: each allowed/forbidden with Kubernetes' exact reason and detail, per version.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHECKS, checksFor, evaluatePod, forbiddenDetail, forbiddenReason, type CheckResult, type PodMeta, type PodSpec } from './checks.js';
import { LATEST, v1, type LevelVersion } from './levels.js';

/** Runs one check at a policy minor version (the revision that applies there). */
function runCheck(id: string, minor: number, spec: PodSpec, meta: PodMeta = {}): CheckResult | 'absent' {
  const check = CHECKS.find((c) => c.id === id)!;
  let rev;
  for (const v of check.versions) if (v.minVersion <= minor) rev = v;
  return rev ? rev.check(meta, spec) : 'absent';
}
const c = (name: string, securityContext?: object, extra: object = {}) => ({ name, image: 'img', ...(securityContext ? { securityContext } : {}), ...extra });
const ok: CheckResult = { allowed: true };
const no = (reason: string, detail: string): CheckResult => ({ allowed: false, reason, detail });

type Row = [what: string, id: string, minor: number, spec: PodSpec, meta: PodMeta, want: CheckResult | 'absent'];
const rows: Row[] = [
  // hostNamespaces
  ['no host namespaces', 'hostNamespaces', 27, { containers: [c('a')] }, {}, ok],
  ['hostNetwork and hostPID', 'hostNamespaces', 27, { hostNetwork: true, hostPID: true, containers: [c('a')] }, {}, no('host namespaces', 'hostNetwork=true, hostPID=true')],
  ['hostIPC, sorted', 'hostNamespaces', 27, { hostIPC: true, hostNetwork: true, containers: [] }, {}, no('host namespaces', 'hostIPC=true, hostNetwork=true')],
  // privileged
  ['privileged false', 'privileged', 27, { containers: [c('a', { privileged: false })] }, {}, ok],
  ['privileged container', 'privileged', 27, { containers: [c('a', { privileged: true })] }, {}, no('privileged', 'container "a" must not set securityContext.privileged=true')],
  ['privileged init and regular, init first', 'privileged', 27, { initContainers: [c('i', { privileged: true })], containers: [c('a', { privileged: true })] }, {}, no('privileged', 'containers "i", "a" must not set securityContext.privileged=true')],
  ['privileged ephemeral container', 'privileged', 27, { containers: [c('a')], ephemeralContainers: [c('e', { privileged: true })] }, {}, no('privileged', 'container "e" must not set securityContext.privileged=true')],
  // capabilities_baseline
  ['default capabilities added', 'capabilities_baseline', 27, { containers: [c('a', { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] } })] }, {}, ok],
  ['non-default capabilities, sorted and unique', 'capabilities_baseline', 27, { containers: [c('a', { capabilities: { add: ['SYS_TIME', 'NET_ADMIN'] } }), c('b', { capabilities: { add: ['NET_ADMIN'] } })] }, {}, no('non-default capabilities', 'containers "a", "b" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add')],
  // hostPathVolumes
  ['emptyDir volume', 'hostPathVolumes', 27, { volumes: [{ name: 'v', emptyDir: {} }] }, {}, ok],
  ['hostPath volume', 'hostPathVolumes', 27, { volumes: [{ name: 'root', hostPath: { path: '/' } }] }, {}, no('hostPath volumes', 'volume "root"')],
  ['two hostPath volumes', 'hostPathVolumes', 27, { volumes: [{ name: 'b', hostPath: { path: '/b' } }, { name: 'a', hostPath: { path: '/a' } }] }, {}, no('hostPath volumes', 'volumes "b", "a"')],
  // hostPorts
  ['containerPort only', 'hostPorts', 27, { containers: [c('a', undefined, { ports: [{ containerPort: 80 }] })] }, {}, ok],
  ['one hostPort', 'hostPorts', 27, { containers: [c('app', undefined, { ports: [{ containerPort: 80, hostPort: 80 }] })] }, {}, no('hostPort', 'container "app" uses hostPort 80')],
  ['hostPorts in two containers (string-sorted)', 'hostPorts', 27, { containers: [c('a', undefined, { ports: [{ containerPort: 80, hostPort: 9090 }] }), c('b', undefined, { ports: [{ containerPort: 1, hostPort: 8080 }] })] }, {}, no('hostPort', 'containers "a", "b" use hostPorts 8080, 9090')],
  // appArmorProfile
  ['apparmor runtime/default and localhost', 'appArmorProfile', 27, { containers: [c('a')] }, { annotations: { 'container.apparmor.security.beta.kubernetes.io/a': 'runtime/default', 'container.apparmor.security.beta.kubernetes.io/b': 'localhost/p' } }, ok],
  ['apparmor unconfined', 'appArmorProfile', 27, { containers: [c('a')] }, { annotations: { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' } }, no('forbidden AppArmor profile', 'container.apparmor.security.beta.kubernetes.io/a="unconfined"')],
  ['apparmor two bad', 'appArmorProfile', 27, { containers: [c('a')] }, { annotations: { 'container.apparmor.security.beta.kubernetes.io/b': 'x', 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' } }, no('forbidden AppArmor profiles', 'container.apparmor.security.beta.kubernetes.io/a="unconfined", container.apparmor.security.beta.kubernetes.io/b="x"')],
  // seLinuxOptions
  ['selinux container_t and level', 'seLinuxOptions', 27, { securityContext: { seLinuxOptions: { type: 'container_t', level: 's0:c1' } }, containers: [c('a')] }, {}, ok],
  ['selinux bad type on pod and container with user', 'seLinuxOptions', 27, { securityContext: { seLinuxOptions: { type: 'spc_t' } }, containers: [c('a', { seLinuxOptions: { type: 'foo_t', user: 'u' } })] }, {}, no('seLinuxOptions', 'pod and container "a" set forbidden securityContext.seLinuxOptions: types "foo_t", "spc_t"; user may not be set')],
  ['selinux role only (Kubernetes names no data)', 'seLinuxOptions', 27, { containers: [c('a', { seLinuxOptions: { role: 'r' } })] }, {}, no('seLinuxOptions', 'container "a" set forbidden securityContext.seLinuxOptions: ')],
  // procMount
  ['procMount Default', 'procMount', 27, { containers: [c('a', { procMount: 'Default' })] }, {}, ok],
  ['procMount Unmasked', 'procMount', 27, { containers: [c('a', { procMount: 'Unmasked' })] }, {}, no('procMount', 'container "a" must not set securityContext.procMount to "Unmasked"')],
  // seccompProfile_baseline
  ['seccomp unset (baseline)', 'seccompProfile_baseline', 27, { containers: [c('a')] }, {}, ok],
  ['seccomp Unconfined pod and container', 'seccompProfile_baseline', 27, { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } })] }, {}, no('seccompProfile', 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"')],
  ['seccomp annotation at v1.18', 'seccompProfile_baseline', 18, { containers: [c('a')] }, { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }, no('seccompProfile', 'forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined"')],
  ['seccomp annotation ignored from v1.19', 'seccompProfile_baseline', 19, { containers: [c('a')] }, { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }, ok],
  ['seccomp docker/default annotation at v1.0', 'seccompProfile_baseline', 0, { containers: [c('a')] }, { annotations: { 'container.seccomp.security.alpha.kubernetes.io/a': 'docker/default' } }, ok],
  // sysctls
  ['safe sysctl', 'sysctls', 27, { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }] } }, {}, ok],
  ['unsafe sysctls', 'sysctls', 27, { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }, { name: 'vm.swappiness', value: '1' }] } }, {}, no('forbidden sysctls', 'kernel.msgmax, vm.swappiness')],
  ['ip_local_reserved_ports allowed at v1.27', 'sysctls', 27, { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] } }, {}, ok],
  ['ip_local_reserved_ports forbidden at v1.26', 'sysctls', 26, { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] } }, {}, no('forbidden sysctls', 'net.ipv4.ip_local_reserved_ports')],
  // windowsHostProcess
  ['hostProcess', 'windowsHostProcess', 27, { securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('a', { windowsOptions: { hostProcess: true } })] }, {}, no('hostProcess', 'pod and container "a" must not set securityContext.windowsOptions.hostProcess=true')],
  // restrictedVolumes
  ['allowed volume types', 'restrictedVolumes', 27, { volumes: [{ name: 'a', configMap: {} }, { name: 'b', secret: {} }, { name: 'c', projected: {} }, { name: 'd', persistentVolumeClaim: { claimName: 'x' } }, { name: 'e', csi: { driver: 'd' } }, { name: 'f', ephemeral: {} }, { name: 'g', downwardAPI: {} }, { name: 'h', emptyDir: {} }] }, {}, ok],
  ['hostPath volume (restricted)', 'restrictedVolumes', 27, { volumes: [{ name: 'root', hostPath: { path: '/' } }] }, {}, no('restricted volume types', 'volume "root" uses restricted volume type "hostPath"')],
  ['two restricted types and an unknown', 'restrictedVolumes', 27, { volumes: [{ name: 'n', nfs: {} }, { name: 'g', gitRepo: {} }, { name: 'u' }] }, {}, no('restricted volume types', 'volumes "n", "g", "u" use restricted volume types "gitRepo", "nfs", "unknown"')],
  // allowPrivilegeEscalation
  ['allowPrivilegeEscalation false', 'allowPrivilegeEscalation', 27, { containers: [c('a', { allowPrivilegeEscalation: false })] }, {}, ok],
  ['allowPrivilegeEscalation unset and true', 'allowPrivilegeEscalation', 27, { containers: [c('a'), c('b', { allowPrivilegeEscalation: true })] }, {}, no('allowPrivilegeEscalation != false', 'containers "a", "b" must set securityContext.allowPrivilegeEscalation=false')],
  ['allowPrivilegeEscalation does not exist before v1.8', 'allowPrivilegeEscalation', 7, { containers: [c('a')] }, {}, 'absent'],
  ['windows pods exempt from allowPrivilegeEscalation at v1.25', 'allowPrivilegeEscalation', 25, { os: { name: 'windows' }, containers: [c('a')] }, {}, ok],
  ['windows pods not exempt at v1.24', 'allowPrivilegeEscalation', 24, { os: { name: 'windows' }, containers: [c('a')] }, {}, no('allowPrivilegeEscalation != false', 'container "a" must set securityContext.allowPrivilegeEscalation=false')],
  // runAsNonRoot
  ['runAsNonRoot on the pod', 'runAsNonRoot', 27, { securityContext: { runAsNonRoot: true }, containers: [c('a')] }, {}, ok],
  ['runAsNonRoot unset', 'runAsNonRoot', 27, { containers: [c('app')] }, {}, no('runAsNonRoot != true', 'pod or container "app" must set securityContext.runAsNonRoot=true')],
  ['runAsNonRoot false on pod and a container', 'runAsNonRoot', 27, { securityContext: { runAsNonRoot: false }, containers: [c('a', { runAsNonRoot: false }), c('b', { runAsNonRoot: true })] }, {}, no('runAsNonRoot != true', 'pod and container "a" must not set securityContext.runAsNonRoot=false')],
  ['runAsNonRoot container overrides a false pod', 'runAsNonRoot', 27, { securityContext: { runAsNonRoot: false }, containers: [c('a', { runAsNonRoot: true })] }, {}, no('runAsNonRoot != true', 'pod must not set securityContext.runAsNonRoot=false')],
  // runAsUser
  ['runAsUser 1000', 'runAsUser', 27, { securityContext: { runAsUser: 1000 }, containers: [c('a')] }, {}, ok],
  ['runAsUser 0', 'runAsUser', 27, { securityContext: { runAsUser: 0 }, containers: [c('a', { runAsUser: 0 })] }, {}, no('runAsUser=0', 'pod and container "a" must not set runAsUser=0')],
  ['runAsUser not checked before v1.23', 'runAsUser', 22, { securityContext: { runAsUser: 0 } }, {}, 'absent'],
  // seccompProfile_restricted
  ['seccomp RuntimeDefault on the pod', 'seccompProfile_restricted', 27, { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a')] }, {}, ok],
  ['seccomp Localhost on each container', 'seccompProfile_restricted', 27, { containers: [c('a', { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } })] }, {}, ok],
  ['seccomp unset (restricted)', 'seccompProfile_restricted', 27, { containers: [c('app')] }, {}, no('seccompProfile', 'pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"')],
  ['seccomp Unconfined container', 'seccompProfile_restricted', 27, { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } })] }, {}, no('seccompProfile', 'container "a" must not set securityContext.seccompProfile.type to "Unconfined"')],
  ['seccomp restricted from v1.19 only', 'seccompProfile_restricted', 18, { containers: [c('a')] }, {}, 'absent'],
  // capabilities_restricted
  ['drop ALL, add NET_BIND_SERVICE', 'capabilities_restricted', 27, { containers: [c('a', { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })] }, {}, ok],
  ['no drop ALL', 'capabilities_restricted', 27, { containers: [c('app')] }, {}, no('unrestricted capabilities', 'container "app" must set securityContext.capabilities.drop=["ALL"]')],
  ['drop ALL but add CHOWN; another without drop', 'capabilities_restricted', 27, { containers: [c('a', { capabilities: { drop: ['ALL'], add: ['CHOWN'] } }), c('b', { capabilities: {} })] }, {}, no('unrestricted capabilities', 'container "b" must set securityContext.capabilities.drop=["ALL"]; container "a" must not include "CHOWN" in securityContext.capabilities.add')],
  ['restricted capabilities from v1.22', 'capabilities_restricted', 21, { containers: [c('a')] }, {}, 'absent'],
];

describe('PodSecurity checks', () => {
  for (const [what, id, minor, spec, meta, want] of rows) {
    it(`${id}: ${what}`, () => assert.deepEqual(runCheck(id, minor, spec, meta), want));
  }
});

const lv = (level: LevelVersion['level'], minor?: number): LevelVersion => ({ level, version: minor === undefined ? LATEST : v1(minor) });
const restrictedPod: PodSpec = {
  securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [c('app', { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })],
};

describe('PodSecurity evaluation by level and version', () => {
  it('privileged runs no check', () => assert.equal(checksFor(lv('privileged')).length, 0));
  it('baseline runs the 11 baseline checks; restricted adds 6 and replaces 2', () => {
    assert.equal(checksFor(lv('baseline')).length, 11);
    assert.equal(checksFor(lv('restricted')).length, 15);
    // before 1.8 only restrictedVolumes and runAsNonRoot are restricted checks, and nothing is replaced
    assert.equal(checksFor(lv('restricted', 7)).length, 13);
  });
  it('a restricted-compliant pod passes restricted:latest', () => assert.equal(evaluatePod(lv('restricted'), {}, restrictedPod).allowed, true));
  it('the golden aggregate for a bare pod at restricted:latest', () => {
    const r = evaluatePod(lv('restricted'), {}, { containers: [c('app')] });
    assert.equal(
      forbiddenDetail(r),
      'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    assert.equal(forbiddenReason(r), 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile');
  });
  it('baseline checks come first, in id order (golden: host namespaces, hostPath volumes, hostPort)', () => {
    const r = evaluatePod(lv('baseline'), {}, { hostNetwork: true, hostPID: true, volumes: [{ name: 'root', hostPath: { path: '/' } }], containers: [c('app', undefined, { ports: [{ containerPort: 80, hostPort: 80 }] })] });
    assert.equal(forbiddenDetail(r), 'host namespaces (hostNetwork=true, hostPID=true), hostPath volumes (volume "root"), hostPort (container "app" uses hostPort 80)');
  });
  it('privileged is reported before the restricted checks (golden deployment warning)', () => {
    const r = evaluatePod(lv('restricted'), {}, { containers: [c('app', { privileged: true })] });
    assert.deepEqual(r.reasons, ['privileged', 'allowPrivilegeEscalation != false', 'unrestricted capabilities', 'runAsNonRoot != true', 'seccompProfile']);
  });
  it('at restricted, the restricted capability check replaces the baseline one (from v1.22)', () => {
    const spec = { ...restrictedPod, containers: [c('app', { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } })] };
    assert.deepEqual(evaluatePod(lv('restricted'), {}, spec).reasons, ['unrestricted capabilities']);
    assert.deepEqual(evaluatePod(lv('restricted', 21), {}, spec).reasons, ['non-default capabilities']);
    assert.deepEqual(evaluatePod(lv('baseline'), {}, spec).reasons, ['non-default capabilities']);
  });
  it('at restricted, an Unconfined seccomp profile is reported once', () => {
    const spec = { ...restrictedPod, securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Unconfined' } } };
    assert.equal(forbiddenDetail(evaluatePod(lv('restricted'), {}, spec)), 'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")');
  });
  it('versions newer than v1.27 evaluate as v1.27', () => {
    const spec = { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] } };
    assert.equal(evaluatePod(lv('baseline', 40), {}, spec).allowed, true);
    assert.equal(evaluatePod(lv('baseline', 26), {}, spec).allowed, false);
  });
  it('windows pods skip the OS-specific restricted checks from v1.25', () => {
    const spec = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [c('a')] };
    assert.equal(evaluatePod(lv('restricted'), {}, spec).allowed, true);
    assert.deepEqual(evaluatePod(lv('restricted', 24), {}, spec).reasons, ['allowPrivilegeEscalation != false', 'unrestricted capabilities', 'seccompProfile']);
  });
});
