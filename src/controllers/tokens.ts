// The token controller (kube's pkg/controller/serviceaccount/tokens_controller.go):
// Secrets of type service-account-token (kube's `kubernetes.io/` spelling or
// ours, `svc.io/`) that name a service account in their
// `<domain>/service-account.name` annotation get `token` (a legacy token signed
// for that account and Secret), `ca.crt` and `namespace` filled in, and the
// `<domain>/service-account.uid` annotation; a token Secret whose account is
// gone (or has another uid than the annotation names) is deleted, and so are
// an account's token Secrets when the account is deleted.
import { clone, isObject, type ApiObject } from '../registry/object.js';
import { isServiceAccountTokenType, legacyClaims, tokenSecretAnnotations, type TokenGenerator } from '../authn/serviceaccount/index.js';
import type { Controller, ControllerContext } from './context.js';
import { CONTROLLER_MANAGER_USER, type ControllerClient, type Target } from './client.js';
import type { SharedInformer } from './shared.js';
import { WorkQueue } from './workqueue.js';
import { isReason } from './informer.js';

interface SecretKey {
  readonly namespace: string;
  readonly name: string;
}

const SECRETS: Target = { group: '', version: 'v1', resource: 'secrets' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const dataOf = (s: ApiObject): Record<string, string> => (isObject(s.data) ? (s.data as Record<string, string>) : {});

/**
 * Runs as the controller manager's own user (system:svc-controller-manager),
 * as kube's does with its root client: the tokens it writes are the
 * credentials the other controllers' service accounts would use.
 */
export class TokensController implements Controller {
  private readonly queue: WorkQueue<SecretKey>;
  private readonly client: ControllerClient;
  private readonly secrets: SharedInformer;
  private readonly accounts: SharedInformer;
  private readonly removers: (() => void)[] = [];

  constructor(ctx: ControllerContext, private readonly generator: TokenGenerator, private readonly rootCA: string, opts: { retryMs?: number; workers?: number } = {}) {
    this.client = ctx.clientAs(CONTROLLER_MANAGER_USER);
    this.secrets = ctx.informers.informer('', 'secrets');
    this.accounts = ctx.informers.informer('', 'serviceaccounts');
    this.queue = new WorkQueue((k) => this.syncSecret(k), {
      retryMs: opts.retryMs ?? 2000, workers: opts.workers,
      onError: (key, err) => console.error(`token controller: secret ${key} failed; will retry`, err),
    });
  }

  async start(): Promise<void> {
    await Promise.all([this.secrets.start(), this.accounts.start()]);
    const enqueue = (s: ApiObject) => {
      if (!isServiceAccountTokenType(s.type)) return;
      const k = { namespace: s.metadata.namespace ?? '', name: s.metadata.name ?? '' };
      this.queue.add(`${k.namespace}/${k.name}`, k);
    };
    this.removers.push(
      this.secrets.addHandler({ onAdd: enqueue, onUpdate: (_, s) => enqueue(s) }),
      // the account's token Secrets are deleted by their own sync, which finds the account gone
      this.accounts.addHandler({ onDelete: (sa) => this.secretsOf(sa).forEach(enqueue) }),
    );
  }

  stop(): void {
    this.queue.stop();
    for (const remove of this.removers.splice(0)) remove();
  }

  private secretsOf(sa: ApiObject): ApiObject[] {
    return this.secrets.list(sa.metadata.namespace ?? '')
      .filter((s) => isServiceAccountTokenType(s.type) && s.metadata.annotations?.[tokenSecretAnnotations(s.type).name] === sa.metadata.name);
  }

  private async syncSecret(key: SecretKey): Promise<boolean> {
    let secret: ApiObject;
    try {
      secret = await this.client.get(SECRETS, key.namespace, key.name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return true;
      throw err;
    }
    if (!isServiceAccountTokenType(secret.type) || secret.metadata.deletionTimestamp) return true;
    const ann = tokenSecretAnnotations(secret.type);
    const saName = secret.metadata.annotations?.[ann.name] ?? '';
    const saUID = secret.metadata.annotations?.[ann.uid] ?? '';
    let sa: ApiObject | undefined;
    try {
      sa = await this.client.get({ group: '', version: 'v1', resource: 'serviceaccounts' }, key.namespace, saName);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    if (!sa || (saUID !== '' && sa.metadata.uid !== saUID)) {
      try {
        await this.client.delete(SECRETS, key.namespace, key.name, { preconditions: { uid: secret.metadata.uid } });
      } catch (err) {
        if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
      }
      return true;
    }
    if (!this.updateNeeded(secret)) return true;
    const token = await this.generator.generate(legacyClaims(sa, secret));
    try {
      await this.client.update(SECRETS, key.namespace, key.name, (cur) => {
        if (cur.metadata.uid !== secret.metadata.uid) throw Object.assign(new Error('secret replaced'), { replaced: true });
        const next = clone(cur);
        const data = { ...dataOf(next) };
        if (this.rootCA && data['ca.crt'] !== b64(this.rootCA)) data['ca.crt'] = b64(this.rootCA);
        if (!data.namespace) data.namespace = b64(key.namespace);
        if (!data.token) data.token = b64(token);
        next.data = data;
        next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ann.name]: sa!.metadata.name ?? '', [ann.uid]: sa!.metadata.uid ?? '' };
        return next;
      });
    } catch (err) {
      if (isReason(err, 'NotFound') || (err as { replaced?: boolean }).replaced) return true;
      throw err;
    }
    return true;
  }

  /** kube's secretUpdateNeeded: the CA differs, or namespace or token is empty. */
  private updateNeeded(secret: ApiObject): boolean {
    const data = dataOf(secret);
    return (this.rootCA !== '' && data['ca.crt'] !== b64(this.rootCA)) || !data.namespace || !data.token;
  }
}
