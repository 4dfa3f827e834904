// networking parity with the official documents (src/api/parity).
// NetworkPolicy's status (with its conditions) exists in v1.26 and v1.27 and
// was removed in v1.28; IPAddress is new in v1.27.
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';
import { kinds as v1alpha1 } from './v1alpha1/index.js';

const STATUS_GONE = 'v1.28 removed the never-implemented NetworkPolicy status; v1.27 still serves it';
const IPADDRESS_NEW = 'IPAddress is new in v1.27 (MultiCIDRServiceAllocator)';

parityTests({
  group: 'networking.svc.io',
  versions: {
    v1: { package: 'io.k8s.api.networking.v1', kinds: v1 },
    v1alpha1: { package: 'io.k8s.api.networking.v1alpha1', kinds: v1alpha1 },
  },
  intended: {
    'v1.28.0 v1 NetworkPolicy status: extra: ours none, reference none': STATUS_GONE,
    'v1.28.0 v1 NetworkPolicyStatus: absent': STATUS_GONE,
    'v1.28.0 v1 meta.v1.Condition: absent': 'used only by the NetworkPolicy status in this group',
    'v1.26.1 v1alpha1 IPAddress: absent': IPADDRESS_NEW,
    'v1.26.1 v1alpha1 IPAddressSpec: absent': IPADDRESS_NEW,
    'v1.26.1 v1alpha1 ParentReference: absent': IPADDRESS_NEW,
  },
});
