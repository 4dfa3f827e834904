// storage parity with the official documents (src/api/parity).
// v1 only: v1.27 no longer serves CSIStorageCapacity in v1beta1 (the catalogue
// agrees). The core PersistentVolumeSpec of an inline attachment source comes
// from core/v1, whose parity test compares it.
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';

parityTests({
  group: 'storage.svc.io',
  versions: {
    v1: { package: 'io.k8s.api.storage.v1', kinds: v1 },
  },
  intended: {},
});
