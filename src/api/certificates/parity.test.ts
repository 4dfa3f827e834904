// certificates parity with the official documents (src/api/parity).
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';
import { kinds as v1alpha1 } from './v1alpha1/index.js';

parityTests({
  group: 'certificates.svc.io',
  versions: {
    v1: { package: 'io.k8s.api.certificates.v1', kinds: v1 },
    v1alpha1: { package: 'io.k8s.api.certificates.v1alpha1', kinds: v1alpha1 },
  },
  intended: {
    'v1.26.1 v1alpha1: no document': 'certificates v1alpha1 (ClusterTrustBundle) is new in v1.27',
  },
});
