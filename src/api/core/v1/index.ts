// core/v1: every top-level kind Kubernetes v1.27 serves in the legacy group,
// written with the schema DSL, and the shared pieces other groups embed (pod
// templates, containers, volumes, references, scheduling terms). Imports run
// one way, leaves first:
//
//   refs  scheduling  security  probe  condition  names
//     └─────┴────────────┴────────┴─► container ─► storage ◄─ volumesource
//                                                    │
//   pod ◄─ volume ◄──────────────────────────────────┘
//    └─► replicationcontroller     service · node · config · namespace · event
//
// List kinds are not here: derive them with listKind(). Subresource kinds of
// other groups (Eviction, Scale, TokenRequest) live with those groups.
import type { S } from '../../../schema/dsl.js';
import { definitionsOf } from '../../../schema/common.js';
import * as condition from './condition.js';
import * as config from './config.js';
import * as container from './container.js';
import * as event from './event.js';
import * as namespace from './namespace.js';
import * as node from './node.js';
import * as pod from './pod.js';
import * as probe from './probe.js';
import * as refs from './refs.js';
import * as replicationcontroller from './replicationcontroller.js';
import * as scheduling from './scheduling.js';
import * as security from './security.js';
import * as service from './service.js';
import * as storage from './storage.js';
import * as volume from './volume.js';
import * as volumesource from './volumesource.js';

export * from './condition.js';
export * from './config.js';
export * from './container.js';
export * from './event.js';
export * from './names.js';
export * from './namespace.js';
export * from './node.js';
export * from './pod.js';
export * from './probe.js';
export * from './refs.js';
export * from './replicationcontroller.js';
export * from './scheduling.js';
export * from './security.js';
export * from './service.js';
export * from './storage.js';
export * from './volume.js';
export * from './volumesource.js';

/** The top-level kinds, by Kind name. */
export const kinds: Readonly<Record<string, S>> = {
  Binding: pod.Binding,
  ComponentStatus: event.ComponentStatus,
  ConfigMap: config.ConfigMap,
  Endpoints: service.Endpoints,
  Event: event.Event,
  LimitRange: namespace.LimitRange,
  Namespace: namespace.Namespace,
  Node: node.Node,
  PersistentVolume: storage.PersistentVolume,
  PersistentVolumeClaim: storage.PersistentVolumeClaim,
  Pod: pod.Pod,
  PodTemplate: pod.PodTemplate,
  ReplicationController: replicationcontroller.ReplicationController,
  ResourceQuota: namespace.ResourceQuota,
  Secret: config.Secret,
  Service: service.Service,
  ServiceAccount: config.ServiceAccount,
};

/**
 * Every type defined here (kinds included), as written at its definition: the
 * canonical component definitions for publishing OpenAPI (toOpenAPI's `refs`),
 * where the first use found could carry a use's description or override (a
 * PersistentVolume's claimRef is a granular ObjectReference).
 */
export const definitions: readonly S[] = definitionsOf(
  condition, config, container, event, namespace, node, pod, probe, refs, replicationcontroller, scheduling, security, service, storage, volume,
  volumesource,
);
