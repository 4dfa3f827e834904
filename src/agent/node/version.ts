// The kubelet version the node agent reports in nodeInfo (kube v1.27, the same as the simulated nodes).
import { DEFAULT_SETTINGS } from '../../simnodes/node.js';

export const KUBELET_VERSION = DEFAULT_SETTINGS.kubeletVersion;
