// Server-side defaulting for apps/v1 as kube-apiserver v1.27 applies it
// (SetDefaults_Deployment, _DaemonSet, _StatefulSet, _ReplicaSet, and the
// core/v1 defaults of each pod template and claim template). In place.
// The registry, not defaulting, sets metadata.generation and a DaemonSet's
// template generation; decoding only puts the DaemonSet's annotation in
// canonical form, as Kubernetes' conversion does (templategeneration.ts).
import {
  at, each, orSet, orStr, struct, defaultPersistentVolumeClaim, defaultPodTemplateSpec, type Gates, type Json,
} from '../../core/v1/defaults.js';
import { normaliseTemplateGeneration } from './templategeneration.js';

function defaultTemplate(spec: Json): void {
  const template = struct(spec, 'template');
  if (template) defaultPodTemplateSpec(template);
}

/** A Deployment's or DaemonSet's strategy: RollingUpdate, with its limits filled when it is one. */
function defaultRollingStrategy(spec: Json, key: string, maxUnavailable: number | string, maxSurge: number | string): void {
  const strategy = struct(spec, key);
  if (!strategy) return;
  orStr(strategy, 'type', 'RollingUpdate');
  const rolling = strategy.type === 'RollingUpdate' ? struct(strategy, 'rollingUpdate') : undefined;
  if (rolling) {
    orSet(rolling, 'maxUnavailable', maxUnavailable);
    orSet(rolling, 'maxSurge', maxSurge);
  }
}

export function defaultDeployment(d: Json): void {
  const spec = struct(d, 'spec');
  if (!spec) return;
  orSet(spec, 'replicas', 1);
  defaultRollingStrategy(spec, 'strategy', '25%', '25%');
  orSet(spec, 'revisionHistoryLimit', 10);
  orSet(spec, 'progressDeadlineSeconds', 600);
  defaultTemplate(spec);
}

export function defaultDaemonSet(ds: Json): void {
  normaliseTemplateGeneration(ds);
  const spec = struct(ds, 'spec');
  if (!spec) return;
  defaultRollingStrategy(spec, 'updateStrategy', 1, 0);
  orSet(spec, 'revisionHistoryLimit', 10);
  defaultTemplate(spec);
}

/**
 * StatefulSet. persistentVolumeClaimRetentionPolicy is defaulted only with
 * the StatefulSetAutoDeletePVC gate and rollingUpdate.maxUnavailable only with
 * MaxUnavailableStatefulSet: both alpha, off, in v1.27.
 */
export function defaultStatefulSet(sts: Json, gates: Gates): void {
  const spec = struct(sts, 'spec');
  if (!spec) return;
  orStr(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = struct(spec, 'updateStrategy');
  if (strategy) {
    if (strategy.type === undefined || strategy.type === null || strategy.type === '') {
      strategy.type = 'RollingUpdate';
      orSet(strategy, 'rollingUpdate', {});
    }
    const rolling = strategy.type === 'RollingUpdate' ? at(strategy, 'rollingUpdate') : undefined;
    if (rolling) {
      orSet(rolling, 'partition', 0);
      if (gates.enabled('MaxUnavailableStatefulSet')) orSet(rolling, 'maxUnavailable', 1);
    }
  }
  if (gates.enabled('StatefulSetAutoDeletePVC')) {
    const policy = struct(spec, 'persistentVolumeClaimRetentionPolicy');
    if (policy) {
      orStr(policy, 'whenDeleted', 'Retain');
      orStr(policy, 'whenScaled', 'Retain');
    }
  }
  orSet(spec, 'replicas', 1);
  orSet(spec, 'revisionHistoryLimit', 10);
  defaultTemplate(spec);
  for (const claim of each(spec, 'volumeClaimTemplates')) defaultPersistentVolumeClaim(claim);
}

export function defaultReplicaSet(rs: Json): void {
  const spec = struct(rs, 'spec');
  if (!spec) return;
  orSet(spec, 'replicas', 1);
  defaultTemplate(spec);
}

/** The apps/v1 defaulters by kind (ControllerRevision has none). */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  Deployment: defaultDeployment,
  DaemonSet: defaultDaemonSet,
  StatefulSet: defaultStatefulSet,
  ReplicaSet: defaultReplicaSet,
};
