// The fields of the core and discovery kinds the endpoint controllers read and
// write, typed loosely over the registry's JSON objects (ApiObject): only what
// kube's pkg/controller/endpoint{,slice,slicemirroring} look at.
import type { ApiObject } from '../../registry/object.js';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
}

export interface Pod extends ApiObject {
  spec?: {
    nodeName?: string;
    hostname?: string;
    subdomain?: string;
    containers?: { name?: string; ports?: ContainerPort[] }[];
  };
  status?: {
    phase?: string;
    podIP?: string;
    podIPs?: { ip: string }[];
    conditions?: PodCondition[];
  };
}

export interface ServicePort {
  name?: string;
  protocol?: string;
  port: number;
  targetPort?: number | string;
  appProtocol?: string;
}

export interface Service extends ApiObject {
  spec?: {
    type?: string;
    selector?: Record<string, string>;
    clusterIP?: string;
    ipFamilies?: string[];
    ports?: ServicePort[];
    publishNotReadyAddresses?: boolean;
  };
}

export interface Node extends ApiObject {}

/** discovery/v1 */
export interface Endpoint {
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  targetRef?: ObjectReference;
  nodeName?: string;
  zone?: string;
  hints?: unknown;
  deprecatedTopology?: Record<string, string>;
}

export interface SlicePort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

export type AddressType = 'IPv4' | 'IPv6' | 'FQDN';

export interface EndpointSlice extends ApiObject {
  addressType: AddressType;
  endpoints: Endpoint[];
  ports?: SlicePort[];
}

/** core/v1 */
export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends ApiObject {
  subsets?: EndpointSubset[];
}

/** Well-known labels and annotations (kubernetes.io spellings, as kube-proxy and kubectl read them). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const LABEL_SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const ANNOTATION_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
export const ANNOTATION_OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
export const ANNOTATION_LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
export const ANNOTATION_LEADER = 'control-plane.alpha.kubernetes.io/leader';

/** The targets the controllers read and write. */
export const SERVICES = { group: '', version: 'v1', resource: 'services' } as const;
export const PODS = { group: '', version: 'v1', resource: 'pods' } as const;
export const NODES = { group: '', version: 'v1', resource: 'nodes' } as const;
export const ENDPOINTS = { group: '', version: 'v1', resource: 'endpoints' } as const;
export const ENDPOINT_SLICES = { group: 'discovery.svc.io', version: 'v1', resource: 'endpointslices' } as const;
