// A measurement probe preloaded into the benchmarked `svc server` process
// (`node --expose-gc --import <this file> dist/src/cli/main.js server …`, with
// an IPC channel). It changes nothing in the server: it only answers the
// benchmark's messages with process.memoryUsage(), after a forced full GC
// when asked, and samples peak memory between two messages. Idle, it costs
// nothing (no timer; the IPC channel is unref'd so it never keeps the server alive).
import process from 'node:process';

interface Sample {
  heap: number; // heapUsed + external (Buffers' backing stores are external)
  heapUsed: number;
  external: number;
  rss: number;
}

export interface ProbeReply extends Sample {
  id: number;
  /** Peak values since sample-start (sample-stop only). */
  peak?: Sample;
  samples?: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** A full collection, twice: dead Buffers' memory is freed in the background after the first. */
function collect(): void {
  gc?.();
  gc?.();
}

function sample(): Sample {
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, heapUsed: m.heapUsed, external: m.external, rss: m.rss };
}

if (process.send) {
  let timer: NodeJS.Timeout | undefined;
  let peak: Sample | undefined;
  let samples = 0;
  let collecting = false;
  const record = () => {
    const s = sample();
    samples++;
    if (!peak) peak = s;
    else peak = { heap: Math.max(peak.heap, s.heap), heapUsed: Math.max(peak.heapUsed, s.heapUsed), external: Math.max(peak.external, s.external), rss: Math.max(peak.rss, s.rss) };
  };
  process.on('message', (m: { id: number; op: string; everyMs?: number }) => {
    switch (m.op) {
      case 'gc':
        collect();
        break;
      case 'sample-start':
        // 'gc-sample-start': a full GC before each sample, so the peak is of live memory only.
        peak = undefined;
        samples = 0;
        record();
        timer = setInterval(() => record(), m.everyMs ?? 5);
        break;
      case 'gc-sample-start':
        collecting = true;
        peak = undefined;
        samples = 0;
        collect();
        record();
        // The next sample `everyMs` after this one ended: with a large heap a full GC can take
        // longer than the period, and back-to-back collections would leave the server no time.
        const every = m.everyMs ?? 250;
        const next = () => {
          timer = setTimeout(() => {
            collect();
            record();
            next();
          }, every);
        };
        next();
        break;
      case 'sample-stop':
        clearTimeout(timer); // either kind of timer
        // The last sample is of live memory too when the others were.
        if (collecting) collect();
        collecting = false;
        record();
        break;
    }
    const reply: ProbeReply = { id: m.id, ...sample(), ...(m.op === 'sample-stop' ? { peak, samples } : {}) };
    process.send!(reply);
  });
  process.channel?.unref();
}
