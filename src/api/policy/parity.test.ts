// policy parity with the official documents (src/api/parity). policy/v1 is
// the same in the v1.26.1 and v1.28.0 documents. Eviction, the body of the
// pods/eviction subresource, is published in core/v1's document.
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';

parityTests({
  group: 'policy',
  versions: { v1: { package: 'io.k8s.api.policy.v1', kinds: v1 } },
  intended: {},
});
