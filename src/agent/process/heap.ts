// The `svc agent` process's young generation. V8 doubles the new space (up to
// two 16 MB semi-spaces on 64-bit) each time many objects survive a scavenge,
// as they do while 30 pods start at once, and keeps the pages afterwards: ≈ 20
// to 30 MB of the agent's memory for a burst. The agent allocates little, so
// it keeps V8's initial semi-space (1 MB): `--semi-space-growth-factor=1`, set
// at run time (V8 reads it each time it would grow the new space, whereas
// --max-semi-space-size is read only when the heap is made, i.e. before our
// code runs; bin/svc, the `svc` command, passes --max-semi-space-size=1 when it
// starts `svc agent`, so this is for `node …/main.js agent`). Not applied when
// the command line or NODE_OPTIONS size the young
// generation themselves, nor to `svc server --agent` (the server's heap).
import { setFlagsFromString } from 'node:v8';

const SIZING_FLAGS = /--(max-)?semi-space-(size|growth-factor)|--min-semi-space-size/;

/** Whether the process's own options already size the young generation. */
export function sizedByOptions(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return execArgv.some((a) => SIZING_FLAGS.test(a)) || SIZING_FLAGS.test(nodeOptions ?? '');
}

/** Stops the new space growing, unless the process's options size it; whether it was applied. */
export function keepYoungGenerationSmall(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS): boolean {
  if (sizedByOptions(execArgv, nodeOptions)) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
