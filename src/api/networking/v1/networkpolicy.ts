// networking/v1 NetworkPolicy: which traffic may reach or leave the selected
// pods. v1.27 still has the (unused) status with conditions that v1.28 removed.
import { Condition, int32, IntOrString, kind, LabelSelector, list, obj, ref, str } from '../../../schema/index.js';

const PKG = 'io.k8s.api.networking.v1';

export const IPBlock = obj({
  cidr: str().required().proto(1, { keepZero: true }).desc('A CIDR such as "10.0.0.0/16" or "2001:db8::/64".'),
  except: list(str()).proto(2).desc('CIDRs inside cidr that are excluded.'),
})
  .id(`${PKG}.IPBlock`)
  .desc('A range of IP addresses, less some sub-ranges.');

export const NetworkPolicyPeer = obj({
  podSelector: ref(LabelSelector).proto(1).desc('Pods, in the policy\'s namespace or in the namespaces selected; all pods when empty.'),
  namespaceSelector: ref(LabelSelector).proto(2).desc('Namespaces, by label; all namespaces when empty.'),
  ipBlock: ref(IPBlock).proto(3).desc('An IP range; exclusive with the selectors.'),
})
  .id(`${PKG}.NetworkPolicyPeer`)
  .desc('A source or destination of traffic.');

export const NetworkPolicyPort = obj({
  protocol: str().proto(1, { keepZero: true }).desc('TCP (the default), UDP or SCTP.'),
  port: ref(IntOrString).proto(2).desc('A port number or named port; every port when unset.'),
  endPort: int32().proto(3, { keepZero: true }).desc('The last port of a numeric range starting at port.'),
})
  .id(`${PKG}.NetworkPolicyPort`)
  .desc('A port, or range of ports, traffic may use.');

export const NetworkPolicyIngressRule = obj({
  ports: list(NetworkPolicyPort).proto(1).desc('Allowed destination ports; all ports when empty.'),
  from: list(NetworkPolicyPeer).proto(2).desc('Allowed sources; all sources when empty.'),
})
  .id(`${PKG}.NetworkPolicyIngressRule`)
  .desc('Incoming traffic that is allowed: matching both ports and sources.');

export const NetworkPolicyEgressRule = obj({
  ports: list(NetworkPolicyPort).proto(1).desc('Allowed destination ports; all ports when empty.'),
  to: list(NetworkPolicyPeer).proto(2).desc('Allowed destinations; all destinations when empty.'),
})
  .id(`${PKG}.NetworkPolicyEgressRule`)
  .desc('Outgoing traffic that is allowed: matching both ports and destinations.');

export const NetworkPolicySpec = obj({
  podSelector: ref(LabelSelector).required().proto(1).desc('The pods the policy applies to; all pods of the namespace when empty.'),
  ingress: list(NetworkPolicyIngressRule).proto(2).desc('Allowed incoming traffic; none when empty.'),
  egress: list(NetworkPolicyEgressRule).proto(3).desc('Allowed outgoing traffic; none when empty and Egress is a policy type.'),
  policyTypes: list(str()).proto(4).desc('Ingress and/or Egress: the directions the policy restricts.'),
})
  .id(`${PKG}.NetworkPolicySpec`)
  .desc('The pods a NetworkPolicy selects and the traffic it allows them.');

export const NetworkPolicyStatus = obj({
  conditions: list(Condition).proto(1).map('type').patch('merge', 'type').desc('The current conditions of the policy.'),
})
  .id(`${PKG}.NetworkPolicyStatus`)
  .desc('The observed state of a NetworkPolicy.');

export const NetworkPolicy = kind({
  spec: ref(NetworkPolicySpec).proto(2).desc('The pods selected and the traffic allowed.'),
  status: ref(NetworkPolicyStatus).proto(3).desc('The observed state of the policy.'),
})
  .id(`${PKG}.NetworkPolicy`)
  .desc('Which network traffic the selected pods may send and receive.');
