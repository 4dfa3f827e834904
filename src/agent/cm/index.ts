// The node agent's cgroups (cgroup v1, cgroupfs driver), kube's container manager:
//   cgroupfs.ts   cgroups as folders in every mounted v1 hierarchy; their resource files
//   resources.ts  a pod's cgroup values (shares, quota, memory limit) by QoS class
//   manager.ts    kubepods, the QoS cgroups, pod cgroups (the sandbox's cgroupParent), cleanup
export { CgroupFs, CgroupError, type ResourceConfig } from './cgroupfs.js';
export { podResourceConfig, qosClassOf, milliCPUToShares, milliCPUToQuota, type QOSClass } from './resources.js';
export { ContainerManager, CgroupConfigError, KUBEPODS, type ContainerManagerOptions } from './manager.js';
