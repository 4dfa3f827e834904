// authentication parity with the official documents (src/api/parity).
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';
import { kinds as v1alpha1 } from './v1alpha1/index.js';
import { kinds as v1beta1 } from './v1beta1/index.js';

parityTests({
  group: 'authentication.svc.io',
  versions: {
    v1: { package: 'io.k8s.api.authentication.v1', kinds: v1 },
    v1beta1: { package: 'io.k8s.api.authentication.v1beta1', kinds: v1beta1 },
    v1alpha1: { package: 'io.k8s.api.authentication.v1alpha1', kinds: v1alpha1 },
  },
  intended: {
    'v1.26.1 v1beta1: no document': 'SelfSubjectReview reached beta (v1beta1) in v1.27',
  },
});
