// The bootstrap signer (kube's pkg/controller/bootstrap/bootstrapsigner.go):
// the `cluster-info` ConfigMap in svc-public (kube's kube-public) carries the
// cluster's kubeconfig (server and CA, no credentials) under `kubeconfig`, and
// for every bootstrap token Secret in svc-system usable for signing
// (`usage-bootstrap-signing: "true"`, not expired) a detached JWS of it under
// `jws-kubeconfig-<token id>` (HS256 keyed with the token secret, header
// {"alg":"HS256","kid":<id>}): a joining node that knows a token checks the
// CA it is given before trusting it. Signatures of tokens that went are
// removed. Acts as service account bootstrap-signer, which may read and
// update cluster-info only; publishing it is kubeadm's work, which the server
// does itself at start when bootstrap tokens are on (ensureClusterInfo).
import { createHmac } from 'node:crypto';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { BOOTSTRAP_NAMESPACE, BOOTSTRAP_SECRET_PREFIX, BOOTSTRAP_SECRET_TYPES, bootstrapTokenExpiry, secretData } from '../authn/bootstrap.js';
import type { Controller, ControllerContext } from './context.js';
import type { ControllerClient, Target } from './client.js';
import type { SharedInformer } from './shared.js';
import type { Registry } from '../registry/registry.js';
import { WorkQueue } from './workqueue.js';
import { isReason } from './informer.js';

export const BOOTSTRAP_SIGNER = 'bootstrap-signer';
export const PUBLIC_NAMESPACE = 'svc-public';
export const CLUSTER_INFO = 'cluster-info';
const SIGNATURE_PREFIX = 'jws-kubeconfig-';
const CONFIGMAPS: Target = { group: '', version: 'v1', resource: 'configmaps' };

export interface BootstrapSignerOptions {
  readonly now?: () => number;
}

/** A detached JWS (header..signature) of `content`, as kube's computeDetachedSignature. */
export function detachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
  const header = b64(JSON.stringify({ alg: 'HS256', kid: tokenId }));
  const sig = createHmac('sha256', tokenSecret).update(`${header}.${b64(content)}`).digest();
  return `${header}..${b64(sig)}`;
}

/** The kubeconfig cluster-info publishes. */
export function clusterInfoKubeconfig(server: string, caData: string): string {
  return [
    'apiVersion: v1', 'clusters:', '- cluster:', `    certificate-authority-data: ${caData}`, `    server: ${server}`, '  name: ""',
    'contexts: null', 'current-context: ""', 'kind: Config', 'preferences: {}', 'users: null', '',
  ].join('\n');
}

export class BootstrapSigner implements Controller {
  private readonly client: ControllerClient;
  private readonly configMaps: SharedInformer;
  private readonly secrets: SharedInformer;
  private readonly queue: WorkQueue<string>;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(ctx: ControllerContext, private readonly opts: BootstrapSignerOptions = {}) {
    this.client = ctx.client(BOOTSTRAP_SIGNER);
    this.configMaps = ctx.informers.informer('', 'configmaps');
    this.secrets = ctx.informers.informer('', 'secrets');
    this.now = opts.now ?? Date.now;
    this.queue = new WorkQueue(() => this.sign(), { retryMs: 2000, onError: (_k, err) => console.error('bootstrap signer: signing failed; will retry', err) });
  }

  async start(): Promise<void> {
    const poke = () => this.queue.add(CLUSTER_INFO, CLUSTER_INFO);
    const isInfo = (o: ApiObject) => o.metadata.namespace === PUBLIC_NAMESPACE && o.metadata.name === CLUSTER_INFO;
    const isToken = (o: ApiObject) => o.metadata.namespace === BOOTSTRAP_NAMESPACE && BOOTSTRAP_SECRET_TYPES.includes(String(o.type));
    this.configMaps.addHandler({ onAdd: (o) => isInfo(o) && poke(), onUpdate: (_p, o) => isInfo(o) && poke() });
    this.secrets.addHandler({ onAdd: (o) => isToken(o) && poke(), onUpdate: (_p, o) => isToken(o) && poke(), onDelete: (o) => isToken(o) && poke() });
    await Promise.all([this.configMaps.start(), this.secrets.start()]);
    poke();
    // tokens expire without a change to their Secret
    this.timer = setInterval(poke, 60_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.queue.stop();
  }

  /** The signatures the ConfigMap should carry, by data key. */
  private signatures(content: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const s of this.secrets.list(BOOTSTRAP_NAMESPACE)) {
      if (!BOOTSTRAP_SECRET_TYPES.includes(String(s.type)) || s.metadata.deletionTimestamp) continue;
      const id = secretData(s, 'token-id');
      const secret = secretData(s, 'token-secret');
      if (!id || !secret || s.metadata.name !== BOOTSTRAP_SECRET_PREFIX + id) continue;
      if (secretData(s, 'usage-bootstrap-signing') !== 'true' || bootstrapTokenExpiry(s, this.now()).expired) continue;
      out[SIGNATURE_PREFIX + id] = detachedSignature(content, id, secret);
    }
    return out;
  }

  private async sign(): Promise<boolean> {
    const info = this.configMaps.get(PUBLIC_NAMESPACE, CLUSTER_INFO);
    if (!info) return true;
    const data = isObject(info.data) ? (info.data as Record<string, string>) : {};
    const content = data.kubeconfig;
    if (typeof content !== 'string') return true;
    const want = this.signatures(content);
    const have = Object.fromEntries(Object.entries(data).filter(([k]) => k.startsWith(SIGNATURE_PREFIX)));
    if (JSON.stringify(Object.entries(have).sort()) === JSON.stringify(Object.entries(want).sort())) return true;
    try {
      await this.client.update(CONFIGMAPS, PUBLIC_NAMESPACE, CLUSTER_INFO, (cur) => {
        const d = Object.fromEntries(Object.entries(isObject(cur.data) ? cur.data : {}).filter(([k]) => !k.startsWith(SIGNATURE_PREFIX)));
        const kubeconfig = typeof d.kubeconfig === 'string' ? d.kubeconfig : '';
        return { ...cur, data: { ...d, ...this.signatures(kubeconfig) } };
      });
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    return true;
  }
}

/** kubeadm's Role and RoleBinding letting anyone (system:anonymous) read cluster-info, in our spelling. */
export const CLUSTER_INFO_READER = 'svc:bootstrap-signer-clusterinfo';

/**
 * cluster-info with the cluster's kubeconfig, written by the server itself
 * when missing (kubeadm's bootstrap-token phase), and — when RBAC is served —
 * the Role and RoleBinding that let a node about to bootstrap read it
 * anonymously. What exists is left as it is (an admin's edit stands).
 */
export async function ensureClusterInfo(registry: Registry, server: string, caData: string, opts: { rbac?: boolean } = {}): Promise<void> {
  const ensure = async (group: string, resource: string, obj: ApiObject) => {
    const store = registry.store(group, resource);
    try {
      await store.get(PUBLIC_NAMESPACE, obj.metadata.name!);
      return;
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    try {
      await store.create(PUBLIC_NAMESPACE, obj, { dryRun: false });
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) throw err;
    }
  };
  await ensure('', 'configmaps', {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CLUSTER_INFO, namespace: PUBLIC_NAMESPACE },
    data: { kubeconfig: clusterInfoKubeconfig(server, caData) },
  });
  if (!opts.rbac) return;
  const rbac = 'rbac.authorization.svc.io';
  await ensure(rbac, 'roles', {
    apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name: CLUSTER_INFO_READER, namespace: PUBLIC_NAMESPACE },
    rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [CLUSTER_INFO], verbs: ['get'] }],
  });
  await ensure(rbac, 'rolebindings', {
    apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: CLUSTER_INFO_READER, namespace: PUBLIC_NAMESPACE },
    roleRef: { apiGroup: rbac, kind: 'Role', name: CLUSTER_INFO_READER },
    subjects: [{ apiGroup: rbac, kind: 'User', name: 'system:anonymous' }],
  });
}

export const startBootstrapSigner = (ctx: ControllerContext, opts?: BootstrapSignerOptions): Controller => new BootstrapSigner(ctx, opts);
