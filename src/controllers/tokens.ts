// The token controller (kube's pkg/controller/serviceaccount/tokens_controller.go):
// Secrets of type service-account-token (kube's `kubernetes.io/` spelling or
// ours, `svc.io/`) that name a service account in their
// `<domain>/service-account.name` annotation get `token` (a legacy token signed
// for that account and Secret), `ca.crt` and `namespace` filled in, and the
// `<domain>/service-account.uid` annotation; a token Secret whose account is
// gone (or has another uid than the annotation names) is deleted, and so are
// an account's token Secrets when the account is deleted.
import type { Store } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import { clone, isObject, type ApiObject } from '../registry/object.js';
import { schemaFor } from '../api/schemas.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { isServiceAccountTokenType, legacyClaims, tokenSecretAnnotations, type TokenGenerator } from '../authn/serviceaccount/index.js';
import { WorkQueue } from './workqueue.js';
import { CONTROLLER_MANAGER, Informer, isReason } from './informer.js';

interface SecretKey {
  readonly namespace: string;
  readonly name: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const dataOf = (s: ApiObject): Record<string, string> => (isObject(s.data) ? (s.data as Record<string, string>) : {});

export class TokensController {
  private readonly queue: WorkQueue<SecretKey>;
  private readonly informers: Informer[];

  constructor(private readonly registry: Registry, storage: Store, private readonly generator: TokenGenerator, private readonly rootCA: string, opts: { retryMs?: number; workers?: number } = {}) {
    this.queue = new WorkQueue((k) => this.syncSecret(k), {
      retryMs: opts.retryMs ?? 2000, workers: opts.workers,
      onError: (key, err) => console.error(`token controller: secret ${key} failed; will retry`, err),
    });
    const enqueue = (s: ApiObject) => {
      if (!isServiceAccountTokenType(s.type)) return;
      const k = { namespace: s.metadata.namespace ?? '', name: s.metadata.name ?? '' };
      this.queue.add(`${k.namespace}/${k.name}`, k);
    };
    this.informers = [
      new Informer(registry, storage, { group: '', resource: 'secrets' }, { onObject: enqueue }, 'token controller'),
      new Informer(registry, storage, { group: '', resource: 'serviceaccounts' }, {
        onObject: () => {},
        // the account's token Secrets are deleted by their own sync, which finds the account gone
        onDelete: (sa) => void this.secretsOf(sa).then((secrets) => secrets.forEach(enqueue), (err) => console.error('token controller: listing secrets failed', err)),
      }, 'token controller'),
    ];
  }

  async start(): Promise<void> {
    for (const i of this.informers) await i.start();
  }

  stop(): void {
    this.queue.stop();
    for (const i of this.informers) i.stop();
  }

  private async secretsOf(sa: ApiObject): Promise<ApiObject[]> {
    const { items } = await this.registry.store('', 'secrets').list(sa.metadata.namespace ?? '');
    return items.filter((s) => isServiceAccountTokenType(s.type) && s.metadata.annotations?.[tokenSecretAnnotations(s.type).name] === sa.metadata.name);
  }

  private async syncSecret(key: SecretKey): Promise<boolean> {
    const secrets = this.registry.store('', 'secrets');
    let secret: ApiObject;
    try {
      secret = await secrets.get(key.namespace, key.name);
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
      sa = await this.registry.store('', 'serviceaccounts').get(key.namespace, saName);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    if (!sa || (saUID !== '' && sa.metadata.uid !== saUID)) {
      try {
        await secrets.delete(key.namespace, key.name, { dryRun: false, preconditions: { uid: secret.metadata.uid } });
      } catch (err) {
        if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
      }
      return true;
    }
    if (!this.updateNeeded(secret)) return true;
    const token = await this.generator.generate(legacyClaims(sa, secret));
    const schema = schemaFor('', 'v1', 'Secret');
    try {
      await secrets.guaranteedUpdate(key.namespace, key.name, (cur) => {
        if (cur.metadata.uid !== secret.metadata.uid) throw Object.assign(new Error('secret replaced'), { replaced: true });
        const next = clone(cur);
        const data = { ...dataOf(next) };
        if (this.rootCA && data['ca.crt'] !== b64(this.rootCA)) data['ca.crt'] = b64(this.rootCA);
        if (!data.namespace) data.namespace = b64(key.namespace);
        if (!data.token) data.token = b64(token);
        next.data = data;
        next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ann.name]: sa!.metadata.name ?? '', [ann.uid]: sa!.metadata.uid ?? '' };
        return next;
      }, { dryRun: false, track: (live, next) => trackWrite({ manager: CONTROLLER_MANAGER, apiVersion: 'v1', kind: 'Secret', schema }, live, next) });
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
