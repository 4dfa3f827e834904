// The node agent's Node: registration, status (capacity, allocatable,
// conditions, addresses, nodeInfo, images) and the Lease heartbeat, as the
// kubelet v1.27 writes them.
//   machine.ts       figures from /proc, /sys, statfs (a seam for tests)
//   capacity.ts      capacity and allocatable
//   eviction.ts      --eviction-hard thresholds: reservation and pressure
//   runtimestate.ts  CRI Status() → the Ready condition's errors
//   conditions.ts    MemoryPressure, DiskPressure, PIDPressure, Ready
//   labels.ts        the kubelet's labels and annotations (shared with simnodes)
//   status.ts        the Node created and its status (pure)
//   lease.ts         the Lease heartbeat
//   manager.ts       registration, status loop
export { NodeManager, NODES, nodeHostname, type NodeManagerOptions } from './manager.js';
export { hostMachine, type MachineReader, type FsFigures } from './machine.js';
export { parseEvictionThresholds, DEFAULT_EVICTION_HARD, EvictionThresholdError, type EvictionThreshold } from './eviction.js';
export { KUBELET_VERSION } from './version.js';
