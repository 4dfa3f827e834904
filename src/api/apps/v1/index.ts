// apps/v1: the workload controllers' objects — Deployment, ReplicaSet,
// StatefulSet, DaemonSet, and the ControllerRevision snapshots the last two
// keep. Pod templates and claims come from core/v1.
import { definitionsOf, type S } from '../../../schema/index.js';
import * as daemonset from './daemonset.js';
import * as deployment from './deployment.js';
import * as revision from './revision.js';
import * as statefulset from './statefulset.js';

export * from './daemonset.js';
export * from './deployment.js';
export * from './revision.js';
export * from './statefulset.js';

export const kinds: Readonly<Record<string, S>> = {
  ControllerRevision: revision.ControllerRevision,
  DaemonSet: daemonset.DaemonSet,
  Deployment: deployment.Deployment,
  ReplicaSet: deployment.ReplicaSet,
  StatefulSet: statefulset.StatefulSet,
};

/** Every apps/v1 type as written at its definition (a Deployment's strategy is a retainKeys use of DeploymentStrategy). */
export const definitions: readonly S[] = definitionsOf(daemonset, deployment, revision, statefulset);
