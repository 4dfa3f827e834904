// Readings from /proc for the benchmarks: a process's resident memory and CPU
// time, and the whole machine's busy time.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (getconf CLK_TCK on Linux). */
const CLK_TCK = 100;

/** A process's resident set size in bytes (VmRSS). */
export function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** utime + stime of a process, in seconds. */
export function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}

/** utime + stime of one thread of a process (its main thread: `tid` = pid), in seconds: without V8's GC helpers and other threads. */
export function threadCpuOf(pid: number, tid = pid): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
export function machineCpu(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - f[3]! - f[4]!) / CLK_TCK;
}
