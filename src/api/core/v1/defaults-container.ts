// core/v1 defaulting of the parts of a pod spec: containers (image pull
// policy from the image tag, probes, handlers, ports, env) and volumes.
import { at, each, emptyStr, isObj, orNum, orSet, orStr, struct, unset, type Json } from './defaults-common.js';
import { defaultPersistentVolumeClaimSpec, defaultPersistentVolumeSource } from './defaults-storage.js';

const HEX_ID = /^[a-f0-9]{64}$/;
const DOMAIN = String.raw`(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?`;
const COMPONENT = String.raw`[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*`;
const REFERENCE = new RegExp(String.raw`^(${DOMAIN}/${COMPONENT}(?:/${COMPONENT})*)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*):([0-9a-fA-F]{32,}))?$`);
const DIGEST_HEX: Record<string, RegExp> = { sha256: /^[a-f0-9]{64}$/, sha384: /^[a-f0-9]{96}$/, sha512: /^[a-f0-9]{128}$/ };

/**
 * The tag Kubernetes sees in an image reference (docker's normalized-name
 * rules, as vendored by v1.27): "latest" when neither tag nor digest is
 * given, "" when the reference does not parse.
 */
export function imageTag(image: string): string {
  let tag = tags.get(image);
  if (tag === undefined) {
    if (tags.size >= TAGS_MAX) tags.clear();
    tags.set(image, (tag = imageTagUncached(image)));
  }
  return tag;
}

/** imageTag by image: the same few images recur in every pod of a workload. */
const tags = new Map<string, string>();
const TAGS_MAX = 4096;

function imageTagUncached(image: string): string {
  if (HEX_ID.test(image)) return '';
  const slash = image.indexOf('/');
  let domain = 'docker.io';
  let rest = image;
  if (slash >= 0) {
    const first = image.slice(0, slash);
    if (/[.:]/.test(first) || first === 'localhost') [domain, rest] = [first, image.slice(slash + 1)];
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !rest.includes('/')) rest = `library/${rest}`;
  const colon = rest.indexOf(':');
  const repo = colon >= 0 ? rest.slice(0, colon) : rest;
  if (repo.toLowerCase() !== repo) return '';
  const m = REFERENCE.exec(`${domain}/${rest}`);
  if (!m || m[1]!.length > 255) return '';
  const [, , tag, algorithm, hex] = m;
  if (algorithm !== undefined && !DIGEST_HEX[algorithm]?.test(hex!)) return '';
  if (tag !== undefined) return tag;
  return algorithm === undefined ? 'latest' : '';
}

/** HTTPGetAction: path "/", scheme HTTP. */
function defaultHandler(h: Json | undefined): void {
  const get = h && at(h, 'httpGet');
  if (get) {
    orStr(get, 'path', '/');
    orStr(get, 'scheme', 'HTTP');
  }
}

/** Liveness, readiness and startup probes. */
export function defaultProbe(p: Json): void {
  orNum(p, 'timeoutSeconds', 1);
  orNum(p, 'periodSeconds', 10);
  orNum(p, 'successThreshold', 1);
  orNum(p, 'failureThreshold', 3);
  defaultHandler(p);
  const grpc = at(p, 'grpc');
  if (grpc) orSet(grpc, 'service', ''); // +default=""
}

/** Containers, init containers and ephemeral containers (SetDefaults_Container and what lies inside). */
export function defaultContainer(c: Json): void {
  if (emptyStr(c, 'imagePullPolicy')) {
    c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  }
  orStr(c, 'terminationMessagePath', '/dev/termination-log');
  orStr(c, 'terminationMessagePolicy', 'File');
  const ports = c.ports;
  if (Array.isArray(ports)) for (const port of ports) if (isObj(port)) orStr(port, 'protocol', 'TCP');
  const env = c.env;
  if (Array.isArray(env)) {
    for (const e of env) {
      const from = isObj(e) ? e.valueFrom : undefined;
      const ref = isObj(from) ? from.fieldRef : undefined;
      if (isObj(ref)) orStr(ref, 'apiVersion', 'v1');
    }
  }
  struct(c, 'resources'); // a Go struct value: always serialised
  const liveness = at(c, 'livenessProbe');
  if (liveness) defaultProbe(liveness);
  const readiness = at(c, 'readinessProbe');
  if (readiness) defaultProbe(readiness);
  const startup = at(c, 'startupProbe');
  if (startup) defaultProbe(startup);
  const lifecycle = at(c, 'lifecycle');
  if (lifecycle) {
    defaultHandler(at(lifecycle, 'postStart'));
    defaultHandler(at(lifecycle, 'preStop'));
  }
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi',
  'glusterfs', 'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc',
  'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected',
  'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral',
] as const;
const IS_VOLUME_SOURCE = new Set<string>(VOLUME_SOURCES);
/** Sources with defaults of their own (defaultPersistentVolumeSource's, and the ones below). */
const DEFAULTED_SOURCES = new Set(['hostPath', 'iscsi', 'rbd', 'azureDisk', 'scaleIO', 'secret', 'configMap', 'downwardAPI', 'projected', 'ephemeral']);

/** 0644, the file mode of secret, configMap, downwardAPI and projected volumes. */
export const DEFAULT_MODE = 0o644;

function defaultDownwardItems(source: Json): void {
  for (const item of each(source, 'items')) {
    const ref = at(item, 'fieldRef');
    if (ref) orStr(ref, 'apiVersion', 'v1');
  }
}
/** A pod volume: emptyDir {} when no source is given, then each source's defaults. */
export function defaultVolume(v: Json): void {
  // Which keys the volume has decides what applies (looking up the ~30 absent sources one by one is slow).
  let source = false;
  let defaulted = false;
  for (const k in v) {
    if (IS_VOLUME_SOURCE.has(k) && !unset(v, k)) source = true;
    if (DEFAULTED_SOURCES.has(k)) defaulted = true;
  }
  if (!source) v.emptyDir = {};
  if (!defaulted) return;
  defaultPersistentVolumeSource(v);
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = at(v, k);
    if (s) orSet(s, 'defaultMode', DEFAULT_MODE);
  }
  const downward = at(v, 'downwardAPI');
  if (downward) defaultDownwardItems(downward);
  for (const p of each(at(v, 'projected'), 'sources')) {
    const d = at(p, 'downwardAPI');
    if (d) defaultDownwardItems(d);
    const token = at(p, 'serviceAccountToken');
    if (token) orSet(token, 'expirationSeconds', 3600);
  }
  const claimSpec = at(at(at(v, 'ephemeral') ?? {}, 'volumeClaimTemplate') ?? {}, 'spec');
  if (claimSpec) defaultPersistentVolumeClaimSpec(claimSpec);
}
