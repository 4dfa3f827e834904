// kube's slowStartBatch: calls `fn` `count` times in batches of growing size
// (initial, then doubled: 1, 2, 4, 8…), the calls of a batch in parallel; it
// stops after the first batch with a failure, so a controller that cannot
// create pods (quota, admission) makes one failing call, not hundreds.
// Answers how many calls succeeded and the first error.

export interface BatchResult {
  readonly successes: number;
  readonly error?: unknown;
}

export async function slowStartBatch(count: number, initial: number, fn: () => Promise<void>): Promise<BatchResult> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initial); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= batch;
  }
  return { successes };
}
