// flowcontrol.apiserver parity with the official documents (src/api/parity).
// Both releases publish both versions; v1.28 added the exempt priority level
// settings (spec.exempt), which v1.27 does not have.
import { parityTests } from '../parity/index.js';
import { kinds as v1beta2 } from './v1beta2/index.js';
import { kinds as v1beta3 } from './v1beta3/index.js';

const EXEMPT = 'ExemptPriorityLevelConfiguration (spec.exempt) is new in v1.28';

parityTests({
  group: 'flowcontrol.apiserver.svc.io',
  versions: {
    v1beta3: { package: 'io.k8s.api.flowcontrol.v1beta3', kinds: v1beta3 },
    v1beta2: { package: 'io.k8s.api.flowcontrol.v1beta2', kinds: v1beta2 },
  },
  intended: {
    'v1.28.0 v1beta3 PriorityLevelConfigurationSpec exempt: missing: ours none, reference none': EXEMPT,
    'v1.28.0 v1beta2 PriorityLevelConfigurationSpec exempt: missing: ours none, reference none': EXEMPT,
  },
});
