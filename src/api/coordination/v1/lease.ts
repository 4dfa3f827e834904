// coordination/v1 Lease: a named lock with a holder and a renewal time,
// used for leader election and node heartbeats.
import { int32, kind, MicroTime, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.coordination.v1';

export const LeaseSpec = obj({
  holderIdentity: str().proto(1, { keepZero: true }).desc('Who holds the lease now.'),
  leaseDurationSeconds: int32().proto(2, { keepZero: true }).desc('How long after renewTime others must wait before taking the lease.'),
  acquireTime: ref(MicroTime).proto(3).desc('When the current holder acquired the lease.'),
  renewTime: ref(MicroTime).proto(4).desc('When the current holder last renewed the lease.'),
  leaseTransitions: int32().proto(5, { keepZero: true }).desc('How many times the lease has changed holder.'),
})
  .id(`${PKG}.LeaseSpec`)
  .desc('The holder and timing of a Lease.');

export const Lease = kind({
  spec: ref(LeaseSpec).proto(2).desc('The holder and timing of the lease.'),
})
  .id(`${PKG}.Lease`)
  .desc('A lease that one holder at a time renews.');
