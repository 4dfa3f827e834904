// autoscaling parity with the official documents (src/api/parity). Both
// versions are the same in the v1.26.1 and v1.28.0 documents. Scale, the body
// of every scale subresource, is published in its parents' documents (the
// suite compares it in core/v1's).
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';
import { kinds as v2 } from './v2/index.js';

parityTests({
  group: 'autoscaling',
  versions: {
    v2: { package: 'io.k8s.api.autoscaling.v2', kinds: v2 },
    v1: { package: 'io.k8s.api.autoscaling.v1', kinds: v1 },
  },
  intended: {},
});
