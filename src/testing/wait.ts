// Bounded polling for tests that wait on real processes (containerd, agents):
// a broken component fails the test with what was awaited instead of hanging it.

/** Polls `get` every 50 ms until it returns a value; throws after `ms` naming `what`. */
export async function waitFor<T>(what: string, get: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
