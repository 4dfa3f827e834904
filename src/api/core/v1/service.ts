// Service with its ports and load balancer status, and Endpoints, the
// addresses and ports that implement a service.
import { bool, int32, list, mapOf, obj, ref, str } from '../../../schema/dsl.js';
import { Condition, IntOrString, kind } from '../../../schema/common.js';
import { ObjectReference } from './refs.js';
import { core } from './names.js';

export const ServicePort = obj({
  name: str().proto(1).desc("The port's name, unique within the service."),
  protocol: str().default('TCP').proto(2).desc('TCP, UDP or SCTP.'),
  appProtocol: str().proto(6, { keepZero: true }).desc('The application protocol, a hint such as "http" or a prefixed name.'),
  port: int32().required().proto(3, { keepZero: true }).desc('The port the service exposes.'),
  targetPort: ref(IntOrString).proto(4).desc('The pod port, by number or by name; the service port when unset.'),
  nodePort: int32().proto(5).desc('The port on every node, for NodePort and LoadBalancer services.'),
})
  .id(core('ServicePort'))
  .desc('A port of a service.');

export const ClientIPConfig = obj({
  timeoutSeconds: int32().proto(1, { keepZero: true }).desc('How long a session sticks, in seconds (1 to 86400); 10800 by default.'),
})
  .id(core('ClientIPConfig'))
  .desc('Settings of client-IP-based session affinity.');

export const SessionAffinityConfig = obj({
  clientIP: ref(ClientIPConfig).proto(1).desc('Settings of client-IP-based affinity.'),
})
  .id(core('SessionAffinityConfig'))
  .desc('Settings of session affinity.');

export const ServiceSpec = obj({
  ports: list(ref(ServicePort)).map('port', 'protocol').patch('merge', 'port').proto(1).desc('The ports the service exposes.'),
  selector: mapOf(str()).atomic().proto(2).desc('Labels of the pods the service routes to.'),
  clusterIP: str().proto(3).desc('The service\'s virtual IP, "None" for a headless service.'),
  clusterIPs: list(str()).atomic().proto(18).desc("The service's virtual IPs, one per IP family."),
  type: str().proto(4).desc('ClusterIP, NodePort, LoadBalancer or ExternalName.'),
  externalIPs: list(str()).proto(5).desc('Extra IPs the nodes accept traffic for.'),
  sessionAffinity: str().proto(7).desc('ClientIP or None.'),
  loadBalancerIP: str().proto(8).desc('A requested load balancer IP (deprecated).'),
  loadBalancerSourceRanges: list(str()).proto(9).desc('Client IP ranges allowed through the load balancer.'),
  externalName: str().proto(10).desc('The DNS name an ExternalName service aliases.'),
  externalTrafficPolicy: str().proto(11).desc('Cluster or Local: how external traffic reaches endpoints.'),
  healthCheckNodePort: int32().proto(12).desc('The health check port, for LoadBalancer services with the Local policy.'),
  publishNotReadyAddresses: bool().proto(13).desc('Whether endpoints include pods that are not ready.'),
  sessionAffinityConfig: ref(SessionAffinityConfig).proto(14).desc('Settings of session affinity.'),
  ipFamilies: list(str()).atomic().proto(19).desc('The IP families of the service, such as IPv4.'),
  ipFamilyPolicy: str().proto(17, { keepZero: true }).desc('SingleStack, PreferDualStack or RequireDualStack.'),
  allocateLoadBalancerNodePorts: bool().proto(20, { keepZero: true }).desc('Whether LoadBalancer services get node ports; true by default.'),
  loadBalancerClass: str().proto(21, { keepZero: true }).desc('The load balancer implementation to use.'),
  internalTrafficPolicy: str().proto(22, { keepZero: true }).desc('Cluster or Local: how in-cluster traffic reaches endpoints.'),
})
  .id(core('ServiceSpec'))
  .desc('The desired state of a service.');

export const PortStatus = obj({
  port: int32().required().proto(1, { always: true }).desc('The port number.'),
  protocol: str().required().proto(2, { always: true }).desc('TCP, UDP or SCTP.'),
  error: str().proto(3, { keepZero: true }).desc('A problem with the port, as a CamelCase or domain-prefixed name.'),
})
  .id(core('PortStatus'))
  .desc('The status of a service port on a load balancer.');

export const LoadBalancerIngress = obj({
  ip: str().proto(1).desc('The IP of the ingress point, for IP-based load balancers.'),
  hostname: str().proto(2).desc('The hostname of the ingress point, for DNS-based load balancers.'),
  ports: list(ref(PortStatus)).atomic().proto(4).desc('The status of each service port.'),
})
  .id(core('LoadBalancerIngress'))
  .desc('An ingress point of a load balancer.');

export const LoadBalancerStatus = obj({
  ingress: list(ref(LoadBalancerIngress)).proto(1).desc('The ingress points of the load balancer.'),
})
  .id(core('LoadBalancerStatus'))
  .desc('The status of a load balancer.');

export const ServiceStatus = obj({
  loadBalancer: ref(LoadBalancerStatus).proto(1, { always: true }).desc('The load balancer, if any.'),
  conditions: list(ref(Condition)).map('type').patch('merge', 'type').proto(2).desc('The observed conditions of the service.'),
})
  .id(core('ServiceStatus'))
  .desc('The observed state of a service.');

export const Service = kind({
  spec: ref(ServiceSpec).proto(2).desc('The desired state of the service.'),
  status: ref(ServiceStatus).proto(3).desc('The observed state of the service.'),
})
  .id(core('Service'))
  .desc('A stable network endpoint for a set of pods.');

export const EndpointAddress = obj({
  ip: str().required().proto(1, { keepZero: true }).desc('The IP address.'),
  hostname: str().proto(3).desc('The hostname of the endpoint.'),
  nodeName: str().proto(4, { keepZero: true }).desc('The node that hosts the endpoint.'),
  targetRef: ref(ObjectReference).proto(2).desc('The object (usually a pod) behind the address.'),
})
  .atomic()
  .id(core('EndpointAddress'))
  .desc('One address of an endpoint.');

export const EndpointPort = obj({
  name: str().proto(1).desc("The port's name; matches the service port's name."),
  port: int32().required().proto(2, { keepZero: true }).desc('The port number.'),
  protocol: str().proto(3).desc('TCP, UDP or SCTP; TCP by default.'),
  appProtocol: str().proto(4, { keepZero: true }).desc('The application protocol, a hint such as "http" or a prefixed name.'),
})
  .atomic()
  .id(core('EndpointPort'))
  .desc('One port of an endpoint.');

export const EndpointSubset = obj({
  addresses: list(ref(EndpointAddress)).proto(1).desc('Addresses that are ready to serve.'),
  notReadyAddresses: list(ref(EndpointAddress)).proto(2).desc('Addresses that are not ready yet.'),
  ports: list(ref(EndpointPort)).proto(3).desc('The ports available on these addresses.'),
})
  .id(core('EndpointSubset'))
  .desc('Addresses that share a set of ports.');

export const Endpoints = kind({
  subsets: list(ref(EndpointSubset)).proto(2).desc('Sets of addresses and ports.'),
})
  .id(core('Endpoints'))
  .desc('The endpoints that implement a service.');
