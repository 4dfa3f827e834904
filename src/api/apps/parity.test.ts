// apps parity with the official documents (src/api/parity). apps/v1 is the
// same in the v1.26.1 and v1.28.0 documents, and so in v1.27.
import { parityTests } from '../parity/index.js';
import { definitions, kinds as v1 } from './v1/index.js';

parityTests({
  group: 'apps',
  versions: { v1: { package: 'io.k8s.api.apps.v1', kinds: v1, definitions } },
  intended: {},
});
