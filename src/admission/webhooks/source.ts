// Where the dispatchers find the webhooks: the stored configurations of one
// kind, read through the store's shared list (the watch cache, kube's lister)
// on every request so a change applies to the next one (without waiting when
// the store still has the list it answered last), and compiled again only
// when the list changed (the shared objects are the same frozen objects
// until their stored version changes). Sorted by configuration name, as
// kube's configuration managers sort them; webhooks in list order.
import type { ApiObject } from '../../registry/object.js';
import { webhooksOf, type Webhook, type WebhookKind } from './types.js';

export type ConfigurationLister = () => Promise<readonly ApiObject[]>;
/** The same list when it can be had without waiting (the store's remembered list, GenericStore.peekSharedList), else undefined. */
export type ConfigurationPeek = () => readonly ApiObject[] | undefined;

export class WebhookSource {
  private seen: readonly ApiObject[] = [];
  private hooks: readonly Webhook[] = [];

  constructor(private readonly list: ConfigurationLister, private readonly kind: WebhookKind, private readonly peek?: ConfigurationPeek) {}

  async webhooks(): Promise<readonly Webhook[]> {
    return this.compiled(await this.list());
  }

  /**
   * The webhooks now, without waiting, when the lister's answer is at hand;
   * undefined: call webhooks(). Most writes meet no webhook at all, and
   * learn it here without a turn of the microtask queue.
   */
  current(): readonly Webhook[] | undefined {
    const items = this.peek?.();
    return items === undefined ? undefined : this.compiled(items);
  }

  /**
   * A dispatcher's step: `run` gets the webhooks when there are any. With
   * none registered (the common case) the step answers without an await when
   * the list is at hand (current()).
   */
  dispatch<A>(a: A, run: (a: A, hooks: readonly Webhook[]) => Promise<void>): Promise<void> | undefined {
    const now = this.current();
    if (now !== undefined) return now.length === 0 ? undefined : run(a, now);
    return this.webhooks().then((hooks) => (hooks.length === 0 ? undefined : run(a, hooks)));
  }

  private compiled(items: readonly ApiObject[]): readonly Webhook[] {
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
