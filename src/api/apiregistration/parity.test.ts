// apiregistration parity with the official documents (src/api/parity).
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';

parityTests({
  group: 'apiregistration.svc.io',
  versions: { v1: { package: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1', kinds: v1 } },
  intended: {
    'v1.26.1 v1: no document': 'the v1.26.1 reference set lacks the aggregator\'s apiregistration documents; only v1.28 can be compared',
  },
});
