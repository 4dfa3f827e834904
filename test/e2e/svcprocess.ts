// The `svc` command as its own process, for the tests that start it that way.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'main.js');

export interface SvcProcess {
  readonly proc: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  out(): string;
  readonly exit: Promise<number | null>;
}

export function runSvc(args: string[]): SvcProcess {
  const proc = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, out: () => out, exit: new Promise((r) => proc.on('exit', (code) => r(code))) };
}

export async function waitFor(pred: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
