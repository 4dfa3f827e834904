// What a pod or a persistent volume refers to, as kube v1.27's node
// authorizer graph reads it: podutil.VisitPodSecretNames /
// VisitPodConfigmapNames (image pull secrets, every container kind's env and
// envFrom, volume sources), the claims of PVC and ephemeral volumes
// (`<pod>-<volume>`), resource claims (`<pod>-<claim>` for a template, 1.27's
// naming), and pvutil.VisitPVSecretNames (the secrets a kubelet may read for
// a PV, with the namespace each lives in). Empty names are skipped.
import type { ApiObject } from '../../registry/object.js';

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Obj => x !== undefined) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The `name` of an optional reference object (LocalObjectReference, SecretReference, …). */
const refName = (ref: unknown): string => str(obj(ref)?.name);

function specOf(pod: ApiObject): Obj {
  return obj(pod.spec) ?? {};
}

/** Init containers, containers and ephemeral containers (kube's AllContainers, in that order). */
function allContainers(spec: Obj): Obj[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

/** Collects non-empty names in order, without repeats. */
class Names {
  readonly values: string[] = [];
  private readonly seen = new Set<string>();
  add(name: string): void {
    if (name === '' || this.seen.has(name)) return;
    this.seen.add(name);
    this.values.push(name);
  }
}

/** Secrets a pod refers to (kube's podutil.VisitPodSecretNames over all containers). */
export function podSecretNames(pod: ApiObject): string[] {
  const spec = specOf(pod);
  const out = new Names();
  for (const ref of list(spec.imagePullSecrets)) out.add(str(ref.name));
  for (const c of allContainers(spec)) {
    for (const from of list(c.envFrom)) out.add(refName(from.secretRef));
    for (const env of list(c.env)) out.add(refName(obj(env.valueFrom)?.secretKeyRef));
  }
  for (const v of list(spec.volumes)) {
    // one source per volume; the first present one is read, as kube's switch does
    if (obj(v.azureFile)) out.add(str(obj(v.azureFile)!.secretName));
    else if (obj(v.cephfs)) out.add(refName(obj(v.cephfs)!.secretRef));
    else if (obj(v.cinder)) out.add(refName(obj(v.cinder)!.secretRef));
    else if (obj(v.flexVolume)) out.add(refName(obj(v.flexVolume)!.secretRef));
    else if (obj(v.projected)) for (const s of list(obj(v.projected)!.sources)) out.add(refName(s.secret));
    else if (obj(v.rbd)) out.add(refName(obj(v.rbd)!.secretRef));
    else if (obj(v.secret)) out.add(str(obj(v.secret)!.secretName));
    else if (obj(v.scaleIO)) out.add(refName(obj(v.scaleIO)!.secretRef));
    else if (obj(v.iscsi)) out.add(refName(obj(v.iscsi)!.secretRef));
    else if (obj(v.storageos)) out.add(refName(obj(v.storageos)!.secretRef));
    else if (obj(v.csi)) out.add(refName(obj(v.csi)!.nodePublishSecretRef));
  }
  return out.values;
}

/** ConfigMaps a pod refers to (kube's podutil.VisitPodConfigmapNames over all containers). */
export function podConfigMapNames(pod: ApiObject): string[] {
  const spec = specOf(pod);
  const out = new Names();
  for (const c of allContainers(spec)) {
    for (const from of list(c.envFrom)) out.add(refName(from.configMapRef));
    for (const env of list(c.env)) out.add(refName(obj(env.valueFrom)?.configMapKeyRef));
  }
  for (const v of list(spec.volumes)) {
    if (obj(v.projected)) for (const s of list(obj(v.projected)!.sources)) out.add(refName(s.configMap));
    else if (obj(v.configMap)) out.add(refName(v.configMap));
  }
  return out.values;
}

/** PersistentVolumeClaims a pod uses: `persistentVolumeClaim.claimName`, and `<pod>-<volume>` for ephemeral volumes. */
export function podClaimNames(pod: ApiObject): string[] {
  const out = new Names();
  for (const v of list(specOf(pod).volumes)) {
    if (obj(v.persistentVolumeClaim)) out.add(str(obj(v.persistentVolumeClaim)!.claimName));
    else if (obj(v.ephemeral)) out.add(`${str(pod.metadata.name)}-${str(v.name)}`);
  }
  return out.values;
}

/**
 * ResourceClaims a pod uses (spec.resourceClaims): `source.resourceClaimName`, or for a
 * `source.resourceClaimTemplateName` the claim v1.27's controller creates, `<pod>-<claim>`.
 */
export function podResourceClaimNames(pod: ApiObject): string[] {
  const out = new Names();
  for (const c of list(specOf(pod).resourceClaims)) {
    const fixed = obj(c.source)?.resourceClaimName;
    out.add(typeof fixed === 'string' ? fixed : `${str(pod.metadata.name)}-${str(c.name)}`);
  }
  return out.values;
}

export interface PVSecret {
  readonly namespace: string;
  readonly name: string;
  /** Whether the kubelet reads it (controller-side CSI secrets are not kubelet-visible). */
  readonly kubeletVisible: boolean;
}

/** Secrets a PersistentVolume refers to (kube's pvutil.VisitPVSecretNames), empty names skipped. */
export function pvSecretNames(pv: ApiObject): PVSecret[] {
  const spec = obj(pv.spec) ?? {};
  const claimNamespace = str(obj(spec.claimRef)?.namespace);
  const out: PVSecret[] = [];
  const add = (namespace: string, name: string, kubeletVisible = true) => {
    if (name !== '') out.push({ namespace, name, kubeletVisible });
  };
  /** A SecretReference whose empty namespace means the claim's (volumes persisted before the field existed). */
  const withClaimDefault = (ref: unknown) => {
    const r = obj(ref);
    if (r) add(str(r.namespace) || claimNamespace, str(r.name));
  };
  const azure = obj(spec.azureFile);
  if (azure) {
    add(str(azure.secretNamespace) || claimNamespace, str(azure.secretName));
  } else if (obj(spec.cephfs)) {
    withClaimDefault(obj(spec.cephfs)!.secretRef);
  } else if (obj(spec.cinder)) {
    const r = obj(obj(spec.cinder)!.secretRef);
    if (r) add(str(r.namespace), str(r.name));
  } else if (obj(spec.flexVolume)) {
    withClaimDefault(obj(spec.flexVolume)!.secretRef);
  } else if (obj(spec.rbd)) {
    withClaimDefault(obj(spec.rbd)!.secretRef);
  } else if (obj(spec.scaleIO)) {
    withClaimDefault(obj(spec.scaleIO)!.secretRef);
  } else if (obj(spec.iscsi)) {
    withClaimDefault(obj(spec.iscsi)!.secretRef);
  } else if (obj(spec.storageos)) {
    const r = obj(obj(spec.storageos)!.secretRef);
    if (r) add(str(r.namespace), str(r.name));
  } else if (obj(spec.csi)) {
    const csi = obj(spec.csi)!;
    for (const [field, visible] of [
      ['controllerPublishSecretRef', false], ['controllerExpandSecretRef', false],
      ['nodePublishSecretRef', true], ['nodeStageSecretRef', true], ['nodeExpandSecretRef', true],
    ] as const) {
      const r = obj(csi[field]);
      if (r) add(str(r.namespace), str(r.name), visible);
    }
  }
  return out;
}
