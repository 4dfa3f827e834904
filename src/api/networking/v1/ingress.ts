// networking/v1 Ingress: HTTP routing from hosts and paths to backends, and
// the load balancer status an ingress controller reports.
import { int32, kind, list, obj, ref, str } from '../../../schema/index.js';
import { TypedLocalObjectReference } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.networking.v1';

export const ServiceBackendPort = obj({
  name: str().proto(1).desc('The name of the Service port; exclusive with number.'),
  number: int32().proto(2).desc('The number of the Service port; exclusive with name.'),
})
  .id(`${PKG}.ServiceBackendPort`)
  .desc('A port of a Service, by name or number.');

export const IngressServiceBackend = obj({
  name: str().required().proto(1, { keepZero: true }).desc('The name of a Service in the Ingress\'s namespace.'),
  port: ref(ServiceBackendPort).proto(2).desc('The Service port to send traffic to.'),
})
  .id(`${PKG}.IngressServiceBackend`)
  .desc('A Service as an Ingress backend.');

export const IngressBackend = obj({
  service: ref(IngressServiceBackend).proto(4).desc('A Service to send traffic to; exclusive with resource.'),
  resource: ref(TypedLocalObjectReference).proto(3).desc('Another object in the namespace that serves traffic; exclusive with service.'),
})
  .id(`${PKG}.IngressBackend`)
  .desc('Where matched traffic goes: a Service or another resource.');

export const HTTPIngressPath = obj({
  path: str().proto(1).desc('The request path to match, starting with "/".'),
  pathType: str().required().proto(3, { keepZero: true }).desc('Exact, Prefix or ImplementationSpecific: how path is matched.'),
  backend: ref(IngressBackend).required().proto(2).desc('Where matching requests go.'),
})
  .id(`${PKG}.HTTPIngressPath`)
  .desc('A request path and the backend it routes to.');

export const HTTPIngressRuleValue = obj({
  paths: list(HTTPIngressPath).atomic().required().proto(1).desc('The paths to match, each with its backend.'),
})
  .id(`${PKG}.HTTPIngressRuleValue`)
  .desc('HTTP path routing for one host.');

// `http` is embedded from IngressRuleValue in Go (one protobuf field), so it has no number of its own.
export const IngressRule = obj({
  host: str().proto(1).desc('A host name, or a wildcard such as "*.example.com", matched against the Host header; any host when empty.'),
  http: ref(HTTPIngressRuleValue).proto(1, { in: 2 }).desc('How requests for the host are routed by path.'),
})
  .id(`${PKG}.IngressRule`)
  .desc('Routing for the requests of one host.');

export const IngressTLS = obj({
  hosts: list(str()).atomic().proto(1).desc('Host names the certificate covers.'),
  secretName: str().proto(2).desc('The Secret holding the certificate and key; may be empty to route by SNI only.'),
})
  .id(`${PKG}.IngressTLS`)
  .desc('TLS termination for some hosts.');

export const IngressSpec = obj({
  ingressClassName: str().proto(4, { keepZero: true }).desc('The IngressClass that handles this Ingress.'),
  defaultBackend: ref(IngressBackend).proto(1).desc('Where requests that match no rule go.'),
  tls: list(IngressTLS).atomic().proto(2).desc('TLS termination settings, on port 443.'),
  rules: list(IngressRule).atomic().proto(3).desc('Host and path rules; everything goes to the default backend when empty.'),
})
  .id(`${PKG}.IngressSpec`)
  .desc('The routing an Ingress asks for.');

export const IngressPortStatus = obj({
  port: int32().required().proto(1, { always: true }).desc('The port number.'),
  protocol: str().required().proto(2, { always: true }).desc('TCP, UDP or SCTP.'),
  error: str().proto(3, { keepZero: true }).desc('A CamelCase error of the port, when it has one.'),
})
  .id(`${PKG}.IngressPortStatus`)
  .desc('The state of one port of a load-balancer ingress point.');

export const IngressLoadBalancerIngress = obj({
  ip: str().proto(1).desc('The IP of the ingress point, for IP-based load balancers.'),
  hostname: str().proto(2).desc('The host name of the ingress point, for DNS-based load balancers.'),
  ports: list(IngressPortStatus).atomic().proto(4).desc('The ports the ingress point exposes.'),
})
  .id(`${PKG}.IngressLoadBalancerIngress`)
  .desc('One ingress point of a load balancer.');

export const IngressLoadBalancerStatus = obj({
  ingress: list(IngressLoadBalancerIngress).proto(1).desc('The ingress points of the load balancer.'),
})
  .id(`${PKG}.IngressLoadBalancerStatus`)
  .desc('The state of an Ingress\'s load balancer.');

export const IngressStatus = obj({
  loadBalancer: ref(IngressLoadBalancerStatus).proto(1, { always: true }).desc('The load balancer\'s ingress points.'),
})
  .id(`${PKG}.IngressStatus`)
  .desc('The observed state of an Ingress.');

export const Ingress = kind({
  spec: ref(IngressSpec).proto(2).desc('The routing wanted.'),
  status: ref(IngressStatus).proto(3).desc('The routing in place, written by the controller.'),
})
  .id(`${PKG}.Ingress`)
  .desc('Rules that route external HTTP(S) traffic to Services.');
