// Waiting for something at most so long: the bound every shutdown and
// clean-up step puts on work that may never end (a stuck part, a request that
// does not drain, a hook that hangs).

/**
 * Resolves true when `work` fulfils within `ms`, false when the time passes
 * first (the work goes on, unwaited); rejects when `work` rejects in time.
 * The timer is cleared either way.
 */
export async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work.then(() => true), new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), ms); })]);
  } finally {
    clearTimeout(timer);
  }
}
