// ServiceAccount (kube v1.27 plugin/pkg/admission/serviceaccount). On pod
// create, the mutating half fills in serviceAccountName ("default"), checks
// the account exists (the default account is looked up ten times, 100-199 ms
// apart, since its controller may not have made it yet), mounts the projected
// token volume `kube-api-access-<random>` (a bound token of 3607 s, the
// root-CA ConfigMap, the namespace) read-only into every init and regular
// container at /var/run/secrets/svc.io/serviceaccount and — for stock
// client libraries — /var/run/secrets/kubernetes.io/serviceaccount unless
// the pod or its account turns automounting off, and copies the account's
// imagePullSecrets into a pod that names none; then it validates. The
// validating half checks again (after webhooks): mirror pods may refer to no
// account, secret or token projection; a pod needs an existing account; an
// account annotated `svc.io/enforce-mountable-secrets: "true"` (or the
// kubernetes.io spelling) limits the secrets a pod, or the ephemeral
// containers added through pods/ephemeralcontainers, may use.
import { isStatusError, newForbidden, newNotFound } from '../../api/meta/index.js';
import { ROOT_CA_CONFIGMAP } from '../../controllers/rootca.js';
import { podSecretNames } from '../../authz/node/references.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import { isObject, type ApiObject } from '../../registry/object.js';
import { MIRROR_ANNOTATIONS } from './noderestriction.js';
import { andThen } from './common.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
/** Where the token, ca.crt and namespace are mounted: our path, and the one stock client libraries read. */
export const TOKEN_MOUNT_PATHS = ['/var/run/secrets/svc.io/serviceaccount', '/var/run/secrets/kubernetes.io/serviceaccount'] as const;
export const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
/** kube's WarnOnlyBoundTokenExpirationSeconds: an hour and seven seconds. */
export const TOKEN_EXPIRATION_SECONDS = 3607;
export const ENFORCE_MOUNTABLE_SECRETS_ANNOTATIONS = ['svc.io/enforce-mountable-secrets', 'kubernetes.io/enforce-mountable-secrets'];

export interface ServiceAccountDeps {
  /** An account by namespace and name; rejects with the API's NotFound when there is none. */
  getServiceAccount(namespace: string, name: string): Promise<ApiObject>;
  /** The account when the store has it at once (GenericStore.getSharedNow); undefined: ask getServiceAccount. */
  getServiceAccountNow?(namespace: string, name: string): ApiObject | undefined;
  /** Waits between lookups of the default account (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
  /** Five characters for the volume name (kube's SimpleNameGenerator); tests pass a fixed one. */
  randomSuffix?: () => string;
  /** kube's LimitSecretReferences: enforce mountable secrets for every account (off in kube). */
  limitSecretReferences?: boolean;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
function simpleSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)];
  return s;
}
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isMirrorPod = (pod: ApiObject) => MIRROR_ANNOTATIONS.some((k) => Object.hasOwn(obj(pod.metadata.annotations), k));

/** Pods on create, and pods/ephemeralcontainers; no other subresource. */
const concerns = (a: AdmissionAttributes) =>
  a.resource.group === '' && a.resource.resource === 'pods' && a.object !== undefined && (a.subresource === undefined || a.subresource === '' || a.subresource === 'ephemeralcontainers');

/** The projected volume source of the token, the root CA and the namespace (kube's TokenVolumeSource, with our ConfigMap). */
export function tokenVolumeSource(): Obj {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 0o644,
  };
}

/** kube's shouldAutomount: the pod's choice, else the account's, else yes. */
function shouldAutomount(sa: ApiObject, spec: Obj): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  const fromAccount = (sa as unknown as Obj).automountServiceAccountToken;
  return typeof fromAccount === 'boolean' ? fromAccount : true;
}

function mountToken(spec: Obj, randomSuffix: () => string): void {
  const volumes = list(spec.volumes);
  const existing = volumes.find((v) => str(v.name).startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName = existing ? str(existing.name) : TOKEN_VOLUME_PREFIX + randomSuffix();
  let needsVolume = false;
  for (const field of ['initContainers', 'containers'] as const) {
    if (!Array.isArray(spec[field])) continue;
    for (const c of spec[field] as unknown[]) {
      if (!isObject(c)) continue;
      const mounts = list(c.volumeMounts);
      // a container that mounts something of its own at a token path is left as it is
      if (mounts.some((m) => (TOKEN_MOUNT_PATHS as readonly string[]).includes(str(m.mountPath)))) continue;
      c.volumeMounts = [...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []), ...TOKEN_MOUNT_PATHS.map((mountPath) => ({ name: volumeName, readOnly: true, mountPath }))];
      needsVolume = true;
    }
  }
  if (!existing && needsVolume) spec.volumes = [...(Array.isArray(spec.volumes) ? spec.volumes : []), { name: volumeName, projected: tokenVolumeSource() }];
}

/**
 * The one plugin of kube's name, both mutating and validating: admit() runs in
 * the mutating phase (defaults, mounts, then validates), validate() again in
 * the validating phase, after webhooks may have changed the pod.
 */
export function serviceAccountPlugin(deps: ServiceAccountDeps): AdmissionPlugin {
  const sleep = deps.sleep ?? wait;
  const randomSuffix = deps.randomSuffix ?? simpleSuffix;

  const forbid = (a: AdmissionAttributes, message: string) => newForbidden({ group: '', resource: 'pods' }, a.name, message);

  /** The account: at once when the store has it, else as accountRead finds it. */
  function account(a: AdmissionAttributes, name: string): ApiObject | Promise<ApiObject> {
    return deps.getServiceAccountNow?.(a.namespace, name) ?? accountRead(a, name);
  }

  /** The account, or 403 `error looking up service account ns/name: …`; the default one is asked for ten times. */
  async function accountRead(a: AdmissionAttributes, name: string): Promise<ApiObject> {
    const attempts = name === DEFAULT_SERVICE_ACCOUNT ? 10 : 1;
    const interval = 100 + Math.floor(Math.random() * 100);
    let problem = '';
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(interval);
      try {
        return await deps.getServiceAccount(a.namespace, name);
      } catch (err) {
        if (!isStatusError(err) || err.status.code !== 404) {
          problem = err instanceof Error ? err.message : String(err);
          break;
        }
        problem = newNotFound({ group: '', resource: 'serviceaccount' }, name).message;
      }
    }
    throw forbid(a, `error looking up service account ${a.namespace}/${name}: ${problem}`);
  }

  function enforcesMountableSecrets(sa: ApiObject): boolean {
    if (deps.limitSecretReferences) return true;
    const annotations = obj(sa.metadata.annotations);
    const key = ENFORCE_MOUNTABLE_SECRETS_ANNOTATIONS.find((k) => Object.hasOwn(annotations, k));
    return key !== undefined && parseBool(str(annotations[key]));
  }

  /** With enforcement on: secret volumes, secret env of init and regular containers, and pull secrets must be the account's. */
  function limitSecretReferences(sa: ApiObject, spec: Obj): string | undefined {
    const account = sa as unknown as Obj;
    const saName = sa.metadata.name ?? '';
    const mountable = new Set(list(account.secrets).map((s) => str(s.name)));
    for (const v of list(spec.volumes)) {
      if (!isObject(v.secret)) continue;
      const secretName = str(v.secret.secretName);
      if (!mountable.has(secretName)) return `volume with secret.secretName="${secretName}" is not allowed because service account ${saName} does not reference that secret`;
    }
    for (const [field, what] of [['initContainers', 'init container'], ['containers', 'container']] as const) {
      const problem = envSecretProblem(list(spec[field]), what, mountable, saName);
      if (problem) return problem;
    }
    const pullable = new Set(list(account.imagePullSecrets).map((s) => str(s.name)));
    const pulls = list(spec.imagePullSecrets);
    for (let i = 0; i < pulls.length; i++) {
      const name = str(pulls[i]!.name);
      if (!pullable.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
    }
    return undefined;
  }

  function validate(a: AdmissionAttributes): void | Promise<void> {
    const pod = a.object!;
    const spec = obj(pod.spec);
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') return validateEphemeral(a, pod, spec);
    if (a.operation !== 'CREATE') return;
    if (isMirrorPod(pod)) {
      if (str(spec.serviceAccountName) !== '') throw forbid(a, 'a mirror pod may not reference service accounts');
      if (podSecretNames(pod).length > 0) throw forbid(a, 'a mirror pod may not reference secrets');
      if (list(spec.volumes).some((v) => list(obj(v.projected).sources).some((s) => isObject(s.serviceAccountToken)))) {
        throw forbid(a, 'a mirror pod may not use ServiceAccountToken volume projections');
      }
      return;
    }
    const saName = str(spec.serviceAccountName);
    if (saName === '') throw forbid(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ''}`);
    return andThen(account(a, saName), (sa) => checkMountable(a, sa, spec));
  }

  /** An account that enforces mountable secrets: the pod may use only the secrets it lists. */
  function checkMountable(a: AdmissionAttributes, sa: ApiObject, spec: Obj): void {
    if (!enforcesMountableSecrets(sa)) return;
    const problem = limitSecretReferences(sa, spec);
    if (problem) throw forbid(a, problem);
  }

  async function validateEphemeral(a: AdmissionAttributes, pod: ApiObject, spec: Obj): Promise<void> {
    const saName = str(spec.serviceAccountName);
    if (saName === '') throw forbid(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ''}`);
    const sa = await account(a, saName);
    if (!enforcesMountableSecrets(sa)) return;
    const mountable = new Set(list((sa as unknown as Obj).secrets).map((s) => str(s.name)));
    const problem = envSecretProblem(list(spec.ephemeralContainers), 'ephemeral container', mountable, sa.metadata.name ?? '');
    if (problem) throw forbid(a, problem);
  }

  function mutate(a: AdmissionAttributes): void | Promise<void> {
    if (a.operation !== 'CREATE') return;
    const pod = a.object!;
    if (isMirrorPod(pod)) return validate(a);
    if (!isObject(pod.spec)) pod.spec = {};
    const spec = pod.spec as Obj;
    if (str(spec.serviceAccountName) === '') {
      spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT;
      spec.serviceAccount = DEFAULT_SERVICE_ACCOUNT; // the deprecated alias reads back equal
    }
    return andThen(account(a, str(spec.serviceAccountName)), (sa) => {
      if (shouldAutomount(sa, spec)) mountToken(spec, randomSuffix);
      if (list(spec.imagePullSecrets).length === 0) {
        const pulls = list((sa as unknown as Obj).imagePullSecrets).map((s) => ({ name: str(s.name) }));
        if (pulls.length > 0) spec.imagePullSecrets = pulls;
      }
      // what validate() checks of a created pod, with the account just read (not a second lookup)
      checkMountable(a, sa, spec);
    });
  }

  return {
    name: 'ServiceAccount',
    phase: 'mutating',
    admit(a) {
      if (concerns(a)) return mutate(a);
    },
    validate(a) {
      if (concerns(a)) return validate(a);
    },
  };
}

function envSecretProblem(containers: Obj[], what: string, mountable: ReadonlySet<string>, saName: string): string | undefined {
  for (const c of containers) {
    for (const env of list(c.env)) {
      const ref = obj(obj(env.valueFrom).secretKeyRef);
      if (!isObject(obj(env.valueFrom).secretKeyRef)) continue;
      const name = str(ref.name);
      if (!mountable.has(name)) {
        return `${what} ${str(c.name)} with envVar ${str(env.name)} referencing secret.secretName="${name}" is not allowed because service account ${saName} does not reference that secret`;
      }
    }
  }
  return undefined;
}

/** Go's strconv.ParseBool, where only true matters. */
const parseBool = (v: string) => ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
