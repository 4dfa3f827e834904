// A load phase against a benchmarked server process: `total` requests over
// `concurrency` keep-alive clients, each request timed; the rate, the
// server's CPU per request (from /proc) and the latencies.
import { cpuOf } from './proc.js';

export interface Load {
  /** Requests per second. */
  readonly rate: number;
  /** Server CPU per request, µs. */
  readonly cpuUs: number;
  /** Each request's latency, ms, in completion order. */
  readonly latenciesMs: number[];
}

/** Runs `one(i)` for i = 0 … total-1 over `concurrency` workers; `one` throws on a wrong answer. */
export async function runLoad(pid: number, total: number, concurrency: number, one: (i: number) => Promise<void>): Promise<Load> {
  const latenciesMs: number[] = [];
  let next = 0;
  const start = performance.now();
  const cpu0 = cpuOf(pid);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const i = next++;
      const t = performance.now();
      await one(i);
      latenciesMs.push(performance.now() - t);
    }
  }));
  return { rate: total / ((performance.now() - start) / 1000), cpuUs: ((cpuOf(pid) - cpu0) * 1e6) / total, latenciesMs };
}
