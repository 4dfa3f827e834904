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

export function summarize(samples: number[]): { p50: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

export const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

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

/** Waits until `proc` (stdout piped) has printed `marker`; fails when it exits first or after `ms`. */
export async function untilPrinted(proc: ChildProcess, marker: string, what: string, ms = 30_000): Promise<void> {
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + ms;
  while (!out.includes(marker)) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`${what} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
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
