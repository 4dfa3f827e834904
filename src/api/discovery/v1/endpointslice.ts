// discovery/v1 EndpointSlice: a slice of the endpoints of a Service, with
// their readiness, topology and the ports they serve.
import { bool, int32, kind, list, mapOf, obj, ref, str } from '../../../schema/index.js';
import { ObjectReference } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.discovery.v1';

export const EndpointConditions = obj({
  ready: bool().proto(1, { keepZero: true }).desc('Whether the endpoint can take traffic; false while terminating.'),
  serving: bool().proto(2, { keepZero: true }).desc('Whether the endpoint can take traffic, terminating or not.'),
  terminating: bool().proto(3, { keepZero: true }).desc('Whether the endpoint is shutting down.'),
})
  .id(`${PKG}.EndpointConditions`)
  .desc('The state of an endpoint.');

export const ForZone = obj({ name: str().proto(1, { keepZero: true }).required().desc('The name of the zone.') })
  .id(`${PKG}.ForZone`)
  .desc('A zone that should use an endpoint.');

export const EndpointHints = obj({
  forZones: list(ForZone).proto(1).atomic().desc('The zones whose clients should use this endpoint.'),
})
  .id(`${PKG}.EndpointHints`)
  .desc('Topology hints for routing to an endpoint.');

export const Endpoint = obj({
  addresses: list(str()).proto(1).set().required().desc('The endpoint\'s addresses, of the slice\'s address type; the first is used.'),
  conditions: ref(EndpointConditions).proto(2).desc('Whether the endpoint is ready, serving or terminating.'),
  hostname: str().proto(3, { keepZero: true }).desc('A DNS label naming the endpoint.'),
  targetRef: ref(ObjectReference).proto(4).desc('The object behind the endpoint, usually a Pod.'),
  deprecatedTopology: mapOf(str()).proto(5).desc('Topology labels carried over from v1beta1; deprecated.'),
  nodeName: str().proto(6, { keepZero: true }).desc('The node hosting the endpoint.'),
  zone: str().proto(7, { keepZero: true }).desc('The zone of the endpoint.'),
  hints: ref(EndpointHints).proto(8).desc('Hints for topology-aware routing.'),
})
  .id(`${PKG}.Endpoint`)
  .desc('One backend of a Service.');

export const EndpointPort = obj({
  name: str().proto(1, { keepZero: true }).desc('The port name, matching a Service port name; may be empty for a single port.'),
  protocol: str().proto(2, { keepZero: true }).desc('TCP (the default), UDP or SCTP.'),
  port: int32().proto(3, { keepZero: true }).desc('The port number; every port when unset.'),
  appProtocol: str().proto(4, { keepZero: true }).desc('The application protocol, such as a IANA service name or a domain-prefixed one.'),
})
  .atomic()
  .id(`${PKG}.EndpointPort`)
  .desc('A port the endpoints of a slice serve.');

export const EndpointSlice = kind(
  {
    addressType: str().proto(4, { keepZero: true }).desc('IPv4, IPv6 or FQDN: the kind of every address in the slice; immutable.'),
    endpoints: list(Endpoint).proto(2).atomic().desc('The endpoints, at most 1000.'),
    ports: list(EndpointPort).proto(3).atomic().desc('The ports every endpoint serves, at most 100; all ports when empty.'),
  },
  { required: ['addressType', 'endpoints'] },
)
  .id(`${PKG}.EndpointSlice`)
  .desc('A subset of the endpoints of a Service.');
