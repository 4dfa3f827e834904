// internal.apiserver parity with the official documents (src/api/parity).
import { parityTests } from '../parity/index.js';
import { kinds as v1alpha1 } from './v1alpha1/index.js';

parityTests({
  group: 'internal.apiserver.svc.io',
  versions: { v1alpha1: { package: 'io.k8s.api.apiserverinternal.v1alpha1', kinds: v1alpha1 } },
  intended: {
    'v1.28.0 v1alpha1 ServerStorageVersion servedVersions: missing: ours none, reference none':
      'new in v1.28 (for the mixed-version proxy); not in v1.27',
  },
});
