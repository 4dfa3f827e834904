// resource parity with the official documents (src/api/parity).
import { parityTests } from '../parity/index.js';
import { kinds as v1alpha2 } from './v1alpha2/index.js';

parityTests({
  group: 'resource.svc.io',
  versions: { v1alpha2: { package: 'io.k8s.api.resource.v1alpha2', kinds: v1alpha2 } },
  intended: {
    'v1.26.1 v1alpha2: no document': 'v1.27 replaced resource v1alpha1 with v1alpha2; v1.26 publishes only v1alpha1',
  },
});
