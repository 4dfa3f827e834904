// Runs the real kubectl 1.27 against a test server with its generated admin
// kubeconfig. Every invocation gets a fresh --cache-dir, so discovery and
// OpenAPI are always read from this server, never from an earlier answer.
// A missing kubectl skips locally and fails under CI=true (src/testing).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTool } from '../../src/testing/tools.js';
import type { TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';

export const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
export const kubectlMissing = findTool(KUBECTL, 'kubectl 1.27 (google-cloud-sdk kubectl.1.27)', ['version', '--client']).skip;

export interface KubectlResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export interface RunOptions {
  readonly env?: Record<string, string>;
  readonly stdin?: string;
}

export interface Kubectl {
  (...args: string[]): Promise<KubectlResult>;
  /** With extra environment variables or standard input. */
  with(opts: RunOptions, ...args: string[]): Promise<KubectlResult>;
  /** A long-running kubectl (get -w, wait): its output so far, its process and its end. */
  start(...args: string[]): { proc: ChildProcess; out: () => string; err: () => string; done: Promise<KubectlResult> };
  /** Writes a file into the scratch directory and returns its path. */
  file(name: string, text: string): string;
  readonly dir: string;
  /** Removes the scratch directory. */
  cleanup(): void;
}

export function kubectlFor(t: () => TestServer): Kubectl {
  const dir = tempDir('svc-kubectl-');
  const argv = (args: string[]) => ['--kubeconfig', t().kubeconfig, '--cache-dir', mkdtempSync(join(dir, 'cache-')), ...args];
  const run = (opts: RunOptions, args: string[]) =>
    new Promise<KubectlResult>((resolve) => {
      const child = execFile(KUBECTL, argv(args), { timeout: 60_000, maxBuffer: 8 << 20, env: { ...process.env, ...opts.env } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout, err: stderr });
      });
      child.stdin?.end(opts.stdin ?? '');
    });
  const k = ((...args: string[]) => run({}, args)) as Kubectl;
  k.with = (opts, ...args) => run(opts, args);
  k.start = (...args) => {
    const proc = spawn(KUBECTL, argv(args));
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const done = new Promise<KubectlResult>((resolve) => proc.on('close', (code) => resolve({ code: code ?? 1, out, err })));
    return { proc, out: () => out, err: () => err, done };
  };
  k.file = (name, text) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  Object.defineProperty(k, 'dir', { value: dir });
  k.cleanup = () => rmSync(dir, { recursive: true, force: true });
  return k;
}

/** Polls `pred` until it holds; fails with `what()` after 20 s. */
export async function until(pred: () => boolean, what: () => string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
