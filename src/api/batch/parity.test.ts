// batch parity with the official documents (src/api/parity). batch/v1 is the
// same in v1.26 and v1.27; the v1.28 document adds Job fields that v1.27 does
// not serve.
import { parityTests } from '../parity/index.js';
import { definitions, kinds as v1 } from './v1/index.js';

const NEW_IN_128 = (gate: string) => `new in v1.28 (${gate}, alpha); not in v1.27`;

parityTests({
  group: 'batch',
  versions: { v1: { package: 'io.k8s.api.batch.v1', kinds: v1, definitions } },
  intended: {
    'v1.28.0 v1 JobSpec backoffLimitPerIndex: missing: ours none, reference none': NEW_IN_128('JobBackoffLimitPerIndex'),
    'v1.28.0 v1 JobSpec maxFailedIndexes: missing: ours none, reference none': NEW_IN_128('JobBackoffLimitPerIndex'),
    'v1.28.0 v1 JobStatus failedIndexes: missing: ours none, reference none': NEW_IN_128('JobBackoffLimitPerIndex'),
    'v1.28.0 v1 JobSpec podReplacementPolicy: missing: ours none, reference none': NEW_IN_128('JobPodReplacementPolicy'),
    'v1.28.0 v1 JobStatus terminating: missing: ours none, reference none': NEW_IN_128('JobPodReplacementPolicy'),
  },
});
