// Where the dispatchers find the webhooks: the stored configurations of one
// kind, read through the store's shared list (the watch cache, kube's lister)
// on every request so a change applies to the next one, and compiled again
// only when the list changed (the shared objects are the same frozen objects
// until their stored version changes). Sorted by configuration name, as
// kube's configuration managers sort them; webhooks in list order.
import type { ApiObject } from '../../registry/object.js';
import { webhooksOf, type Webhook, type WebhookKind } from './types.js';

export type ConfigurationLister = () => Promise<readonly ApiObject[]>;

export class WebhookSource {
  private seen: readonly ApiObject[] = [];
  private hooks: readonly Webhook[] = [];

  constructor(private readonly list: ConfigurationLister, private readonly kind: WebhookKind) {}

  async webhooks(): Promise<readonly Webhook[]> {
    const items = await this.list();
    if (!sameItems(items, this.seen)) {
      const sorted = [...items].sort((a, b) => cmp(a.metadata.name ?? '', b.metadata.name ?? ''));
      this.hooks = sorted.flatMap((c) => webhooksOf(c as unknown as Record<string, unknown>, this.kind));
      this.seen = items;
    }
    return this.hooks;
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sameItems(a: readonly ApiObject[], b: readonly ApiObject[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
