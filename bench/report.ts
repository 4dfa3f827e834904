// Benchmark reporting: percentiles and appending a dated section to bench/RESULTS.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The median of sorted samples: the middle one, or the mean of the middle two. */
export function median(sorted: readonly number[]): number {
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
}

export function summarize(samples: number[]): { p50: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * Each round's ratio a[i] / b[i] of its two back-to-back phases, in round
 * order, and their median. On a shared machine a burst of load from elsewhere falls on a
 * phase or two; a ratio of phases run seconds apart cancels slow drift, and the
 * median ignores the disturbed rounds (where best-of-each-side can pair one
 * side's lucky phase with the other's unlucky one).
 *
 * `pooled`: the whole run's rate of a over b — each side's requests over the
 * total time of its phases, for phases of equal size (Σ 1/b[i] / Σ 1/a[i]).
 * Unlike the median it keeps the costs that come in bursts (a major
 * collection, a WAL checkpoint) wherever they fell: what a server sustains.
 */
export function pairedRatios(a: readonly number[], b: readonly number[]): { ratios: number[]; median: number; pooled: number } {
  if (a.length !== b.length || a.length === 0) throw new Error(`pairedRatios: ${a.length} and ${b.length} phases`);
  const ratios = a.map((x, i) => x / b[i]!);
  const sorted = [...ratios].sort((x, y) => x - y);
  const time = (rates: readonly number[]) => rates.reduce((t, r) => t + 1 / r, 0);
  return { ratios, median: median(sorted), pooled: time(b) / time(a) };
}

/**
 * The server CPU side b spent on the whole run's requests as a share of side
 * a's: Σ b[i] / Σ a[i] over per-request CPU of phases of equal size. For a
 * CPU-bound server it is the rate ratio a / b, without the time the other
 * processes (the client, the other server) took; a diagnostic beside the
 * target's figure, not the target's figure.
 */
export function cpuShare(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`cpuShare: ${a.length} and ${b.length} phases`);
  const sum = (xs: readonly number[]) => xs.reduce((t, x) => t + x, 0);
  return sum(b) / sum(a);
}

/** "71, 74, 80 %": the rounds' ratios as a figure line. */
export const fmtRatios = (r: { ratios: number[]; median: number }) => `${r.ratios.map((x) => fmt(100 * x, 0)).join(', ')} %`;

const resultsFile = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'RESULTS.md');

export function appendResults(title: string, lines: string[]): void {
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    if (execSync('git status --porcelain --untracked-files=no', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()) commit += '+dirty';
  } catch {
    /* not a git checkout */
  }
  const header = `\n## ${title} — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n\n${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), node ${process.version}, commit ${commit}\n\n`;
  if (!existsSync(resultsFile)) writeFileSync(resultsFile, '# Benchmark results\n\nAppended by `npm run bench`; newest last. Targets are in each issue.\n');
  appendFileSync(resultsFile, header + lines.join('\n') + '\n');
  console.log(header + lines.join('\n'));
}

/**
 * Starts `svc server` (the compiled CLI) as its own process on a free port and
 * waits until it has written its admin kubeconfig.
 */
export async function startServerProcess(main: string, dataDir: string, port: number, extraArgs: string[] = []): Promise<ChildProcess> {
  // SVC_BENCH_SERVER_NODE_FLAGS: extra node flags for the server (e.g. --cpu-prof), for investigations.
  const flags = (process.env.SVC_BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...flags, main, 'server', `--data-dir=${dataDir}`, `--secure-port=${port}`, ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  await untilPrinted(proc, 'admin kubeconfig', 'server');
  return proc;
}

/**
 * Resolves with what `proc` (stdout piped) printed from the call on, once that
 * contains `marker`; fails when it exits first or after `ms`. Its stdout keeps
 * flowing afterwards (and is dropped), so the process never blocks on it.
 */
export function untilPrinted(proc: ChildProcess, marker: string | RegExp, what: string, ms = 30_000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const settle = (err?: Error) => {
      clearTimeout(timer);
      proc.stdout!.off('data', onData);
      proc.off('close', onExit);
      if (err) reject(err);
      else resolve(out);
    };
    const onData = (d: Buffer) => {
      out += d.toString();
      if (typeof marker === 'string' ? out.includes(marker) : marker.test(out)) settle();
    };
    const onExit = () => settle(new Error(`${what} exited before printing ${String(marker)}: ${out}`));
    const timer = setTimeout(() => settle(new Error(`${what} did not print ${String(marker)} within ${ms} ms: ${out}`)), ms);
    proc.stdout!.on('data', onData);
    proc.once('close', onExit); // after 'exit', once its output has been read
    if (proc.exitCode !== null || proc.signalCode !== null) onExit();
  });
}

/** Stops a benchmarked process: SIGTERM, SIGKILL after `killAfterMs`, and waits until it has exited. */
export async function stopProcess(proc: ChildProcess, killAfterMs = 20_000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  const t = setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(t);
}
