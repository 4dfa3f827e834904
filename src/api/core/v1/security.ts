// Security settings of containers (SecurityContext) and pods
// (PodSecurityContext), with their parts: capabilities, SELinux, seccomp,
// Windows options and sysctls.
import { bool, int64, list, obj, ref, str } from '../../../schema/dsl.js';
import { core } from './names.js';

export const Capabilities = obj({
  add: list(str()).proto(1).desc('Capabilities to add.'),
  drop: list(str()).proto(2).desc('Capabilities to drop.'),
})
  .id(core('Capabilities'))
  .desc('POSIX capabilities to add to or drop from a container.');

export const SELinuxOptions = obj({
  user: str().proto(1).desc('The SELinux user label.'),
  role: str().proto(2).desc('The SELinux role label.'),
  type: str().proto(3).desc('The SELinux type label.'),
  level: str().proto(4).desc('The SELinux level label.'),
})
  .id(core('SELinuxOptions'))
  .desc('SELinux labels for a container.');

export const WindowsSecurityContextOptions = obj({
  gmsaCredentialSpecName: str().proto(1, { keepZero: true }).desc('The name of the GMSA credential spec to use.'),
  gmsaCredentialSpec: str().proto(2, { keepZero: true }).desc('The GMSA credential spec, filled in by the GMSA webhook.'),
  runAsUserName: str().proto(3, { keepZero: true }).desc('The Windows user to run the process as.'),
  hostProcess: bool().proto(4, { keepZero: true }).desc('Whether to run as a Windows host process container.'),
})
  .id(core('WindowsSecurityContextOptions'))
  .desc('Windows-specific security settings.');

export const SeccompProfile = obj({
  type: str().required().proto(1, { keepZero: true }).desc('Localhost, RuntimeDefault or Unconfined.'),
  localhostProfile: str().proto(2, { keepZero: true }).desc("The profile file on the node, relative to the kubelet's seccomp directory; only for Localhost."),
})
  .id(core('SeccompProfile'))
  .desc('A seccomp profile.');

export const SecurityContext = obj({
  capabilities: ref(Capabilities).proto(1).desc('Capabilities to add and drop.'),
  privileged: bool().proto(2, { keepZero: true }).desc('Whether to run privileged, like root on the host.'),
  seLinuxOptions: ref(SELinuxOptions).proto(3).desc('The SELinux context of the container.'),
  windowsOptions: ref(WindowsSecurityContextOptions).proto(10).desc('Windows-specific settings.'),
  runAsUser: int64().proto(4, { keepZero: true }).desc('The UID to run the process as.'),
  runAsGroup: int64().proto(8, { keepZero: true }).desc('The GID to run the process as.'),
  runAsNonRoot: bool().proto(5, { keepZero: true }).desc('Whether the container must run as a user other than root.'),
  readOnlyRootFilesystem: bool().proto(6, { keepZero: true }).desc('Whether the root filesystem is read-only.'),
  allowPrivilegeEscalation: bool().proto(7, { keepZero: true }).desc('Whether a process may gain more privileges than its parent.'),
  procMount: str().proto(9, { keepZero: true }).desc('Default or Unmasked: the kind of /proc mount.'),
  seccompProfile: ref(SeccompProfile).proto(11).desc('The seccomp profile of the container.'),
})
  .id(core('SecurityContext'))
  .desc('Security settings of a container.');

export const Sysctl = obj({
  name: str().required().proto(1, { keepZero: true }).desc("The parameter's name."),
  value: str().required().proto(2, { keepZero: true }).desc("The parameter's value."),
})
  .id(core('Sysctl'))
  .desc('A kernel parameter to set.');

export const PodSecurityContext = obj({
  seLinuxOptions: ref(SELinuxOptions).proto(1).desc('The SELinux context for all containers.'),
  windowsOptions: ref(WindowsSecurityContextOptions).proto(8).desc('Windows-specific settings for all containers.'),
  runAsUser: int64().proto(2, { keepZero: true }).desc('The UID to run container processes as.'),
  runAsGroup: int64().proto(6, { keepZero: true }).desc('The GID to run container processes as.'),
  runAsNonRoot: bool().proto(3, { keepZero: true }).desc('Whether containers must run as a user other than root.'),
  supplementalGroups: list(int64()).proto(4).desc('Extra groups for the first process of each container.'),
  fsGroup: int64().proto(5, { keepZero: true }).desc("A group that owns supported volumes and joins every container's groups."),
  sysctls: list(ref(Sysctl)).proto(7).desc('Namespaced kernel parameters to set.'),
  fsGroupChangePolicy: str().proto(9, { keepZero: true }).desc('OnRootMismatch or Always: when to change volume ownership to fsGroup.'),
  seccompProfile: ref(SeccompProfile).proto(10).desc('The seccomp profile for all containers.'),
})
  .id(core('PodSecurityContext'))
  .desc('Security settings of a pod, and defaults for its containers.');
