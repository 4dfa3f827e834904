// Runs `fn` over items with at most `limit` calls in flight; failures are the callee's to report.
export async function inPool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item).catch((err) => console.error('simulated nodes:', err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
