// Service cluster IP and node port allocation (issue 5): flag parsing for
// --service-cluster-ip-range and --service-node-port-range, and the Service
// write hooks that allocate and release from them. See service.ts for the
// behaviour and claims.ts for how allocation state lives in storage.
export {
  parseClusterIPRange, parseNodePortRange, nodePortRangeText, nodePortBounds, parseIPv4, formatIPv4,
  SERVICE_IP_PREFIX, NODE_PORT_PREFIX,
  type ClusterIPRange, type NodePortRange,
} from './ranges.js';
export { serviceHooks, type ServiceHooks, type ServiceHooksOptions } from './service.js';
