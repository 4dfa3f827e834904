// Turns etcd client failures into StorageErrors; nothing etcd-specific leaves the backend.
import { StorageError, isStorageError } from '../errors.js';

export function isCompactedMessage(msg: string): boolean {
  return msg.includes('required revision has been compacted');
}

export function isFutureMessage(msg: string): boolean {
  return msg.includes('required revision is a future revision');
}

/** Maps an error from the etcd client; `compacted`/`future` build the precise errors when etcd reports them. */
export async function mapEtcdError(err: unknown, ctx: { requested?: number; compacted: () => Promise<number>; current: () => Promise<number> }): Promise<StorageError> {
  if (isStorageError(err)) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (isCompactedMessage(msg)) return StorageError.compacted(ctx.requested ?? 0, await ctx.compacted().catch(() => 0));
  if (isFutureMessage(msg)) return StorageError.futureRevision(ctx.requested ?? 0, await ctx.current().catch(() => 0));
  return StorageError.unavailable(`etcd: ${msg}`, err);
}
