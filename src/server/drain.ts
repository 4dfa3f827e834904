// Backpressure for bodies written in pieces (lists, watch initial events):
// after a write the sink refused, wait until it drains or the client leaves.
interface Drainable {
  once(event: 'drain', fn: () => void): unknown;
  off(event: 'drain', fn: () => void): unknown;
}

interface Closable {
  once(event: 'close', fn: () => void): unknown;
  off(event: 'close', fn: () => void): unknown;
}

/**
 * Whether the response can no longer be written: the client went away, possibly
 * before the handler listened for 'close' (an event that has passed is not heard).
 */
export function connectionGone(res: unknown): boolean {
  const r = res as { destroyed?: boolean; stream?: { destroyed?: boolean } };
  return r.destroyed === true || r.stream?.destroyed === true;
}

/** Resolves true when `sink` drains, false when `res` closes first (the client went away, or had gone). */
export function drained(sink: Drainable, res: Closable): Promise<boolean> {
  if (connectionGone(res)) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const done = (open: boolean) => {
      sink.off('drain', onDrain);
      res.off('close', onClose);
      resolve(open);
    };
    sink.once('drain', onDrain);
    res.once('close', onClose);
  });
}
