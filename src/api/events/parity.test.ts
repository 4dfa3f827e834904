// events parity with the official documents (src/api/parity).
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';

parityTests({
  group: 'events.svc.io',
  versions: { v1: { package: 'io.k8s.api.events.v1', kinds: v1 } },
  intended: {},
});
