// ControllerRevision: an immutable snapshot of a DaemonSet's or StatefulSet's
// template, which those controllers keep for rollouts and rollbacks.
import { int64, kind, ref, RawExtension } from '../../../schema/index.js';
import { APPS } from './shared.js';

export const ControllerRevision = kind({
  data: ref(RawExtension).proto(2).desc('The snapshot, in whatever form its controller serialises it.'),
  revision: int64().required().proto(3, { keepZero: true }).desc('The revision number of the snapshot.'),
})
  .id(`${APPS}.ControllerRevision`)
  .desc('An immutable snapshot of a controller\'s state, kept for rollbacks.');
