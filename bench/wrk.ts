// wrk (C, HTTP/1.1 keep-alive) as the load generator of the HTTP benchmarks:
// it costs far less CPU per request than a Node client on the same 2 cores.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a static token file into `dataDir` giving the token wrk sends
 * (`bench-token`) to an admin (system:masters); returns the server flag that reads it.
 */
export function benchTokenFlag(dataDir: string): string {
  const file = join(dataDir, 'tokens.csv');
  writeFileSync(file, 'bench-token,admin,admin-uid,"system:masters"\n');
  return `--token-auth-file=${file}`;
}

export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return (err as { status?: number }).status === 1; // wrk --version exits 1 after printing
  }
}

export interface WrkResult {
  requests: number;
  rate: number;
  p50: string;
  p99: string;
  errors: number;
}

/** Runs wrk (2 threads, 64 connections, bearer token `bench-token` unless another is given) with an optional Lua script. */
export function wrk(url: string, seconds: number, script?: string, token = 'bench-token'): WrkResult {
  const args = ['-t2', '-c64', `-d${seconds}s`, '--latency', '-H', `Authorization: Bearer ${token}`, ...(script ? ['-s', script] : []), url];
  const out = execFileSync('wrk', args).toString();
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: /\s50%\s+(\S+)/.exec(out)?.[1] ?? 'n/a',
    p99: /\s99%\s+(\S+)/.exec(out)?.[1] ?? 'n/a',
    errors: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}
