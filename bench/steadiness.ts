// How steady the machine is while the benchmarks run: the CPU time of one
// fixed, CPU-bound JavaScript workload (JSON encoding and a Map), measured
// again and again. On a shared virtual machine it is not constant — the same
// work has taken 570 to 970 ms over twenty runs on this project's 2-core
// machine, in swings of a few seconds — and a paired benchmark's two phases,
// run seconds apart, each take whatever speed the machine had then. The
// spread printed beside the figures says how far a single round can be
// trusted.
import { fmt, median } from './report.js';

/** One run of the workload: its CPU time (user + system), ms. */
function workloadMs(iterations: number): number {
  const t = process.cpuUsage();
  let n = 0;
  const m = new Map<number, { i: number }>();
  for (let i = 0; i < iterations; i++) {
    n += JSON.stringify({ a: i, b: `x${i}` }).length;
    if (i % 100 === 0) m.set(i % 5000, { i });
  }
  if (n === 0) throw new Error('unreachable: the workload encoded nothing');
  const c = process.cpuUsage(t);
  return (c.user + c.system) / 1000;
}

/** min, median and max of samples, and max / min − 1 (the spread). */
export function spreadOf(samples: readonly number[]): { min: number; median: number; max: number; spread: number } {
  if (samples.length === 0) throw new Error('spreadOf: no samples');
  const s = [...samples].sort((a, b) => a - b);
  return { min: s[0]!, median: median(s), max: s[s.length - 1]!, spread: s[s.length - 1]! / s[0]! - 1 };
}

/** The figure line: `runs` of the workload (≈ 0.3 s each on the 2-core machine). */
export function steadiness(what: string, runs = 10, iterations = 1_500_000): string {
  workloadMs(iterations / 10); // compiled before the measured runs
  const ms = Array.from({ length: runs }, () => workloadMs(iterations));
  const s = spreadOf(ms);
  return `- machine steadiness ${what}: one fixed JavaScript workload ${runs}× — CPU ${fmt(s.min, 0)}–${fmt(s.max, 0)} ms, median ${fmt(s.median, 0)} ms (max/min − 1: ${fmt(100 * s.spread, 0)} %)`;
}
