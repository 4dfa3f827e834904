// discovery/v1 EndpointSlice: a slice of the endpoints of a Service, with
// their readiness, topology and the ports they serve.
import { bool, int32, kind, list, mapOf, obj, ref, str } from '../../../schema/index.js';
import { ObjectReference } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.discovery.v1';

export const EndpointConditions = obj({
  ready: bool().desc('Whether the endpoint can take traffic; false while terminating.'),
  serving: bool().desc('Whether the endpoint can take traffic, terminating or not.'),
  terminating: bool().desc('Whether the endpoint is shutting down.'),
})
  .id(`${PKG}.EndpointConditions`)
  .desc('The state of an endpoint.');

export const ForZone = obj({ name: str().required().desc('The name of the zone.') })
  .id(`${PKG}.ForZone`)
  .desc('A zone that should use an endpoint.');

export const EndpointHints = obj({
  forZones: list(ForZone).atomic().desc('The zones whose clients should use this endpoint.'),
})
  .id(`${PKG}.EndpointHints`)
  .desc('Topology hints for routing to an endpoint.');

export const Endpoint = obj({
  addresses: list(str()).set().required().desc('The endpoint\'s addresses, of the slice\'s address type; the first is used.'),
  conditions: ref(EndpointConditions).desc('Whether the endpoint is ready, serving or terminating.'),
  hostname: str().desc('A DNS label naming the endpoint.'),
  targetRef: ref(ObjectReference).desc('The object behind the endpoint, usually a Pod.'),
  deprecatedTopology: mapOf(str()).desc('Topology labels carried over from v1beta1; deprecated.'),
  nodeName: str().desc('The node hosting the endpoint.'),
  zone: str().desc('The zone of the endpoint.'),
  hints: ref(EndpointHints).desc('Hints for topology-aware routing.'),
})
  .id(`${PKG}.Endpoint`)
  .desc('One backend of a Service.');

export const EndpointPort = obj({
  name: str().desc('The port name, matching a Service port name; may be empty for a single port.'),
  protocol: str().desc('TCP (the default), UDP or SCTP.'),
  port: int32().desc('The port number; every port when unset.'),
  appProtocol: str().desc('The application protocol, such as a IANA service name or a domain-prefixed one.'),
})
  .atomic()
  .id(`${PKG}.EndpointPort`)
  .desc('A port the endpoints of a slice serve.');

export const EndpointSlice = kind(
  {
    addressType: str().desc('IPv4, IPv6 or FQDN: the kind of every address in the slice; immutable.'),
    endpoints: list(Endpoint).atomic().desc('The endpoints, at most 1000.'),
    ports: list(EndpointPort).atomic().desc('The ports every endpoint serves, at most 100; all ports when empty.'),
  },
  { required: ['addressType', 'endpoints'] },
)
  .id(`${PKG}.EndpointSlice`)
  .desc('A subset of the endpoints of a Service.');
