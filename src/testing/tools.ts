// Test helpers for external tools (etcd, kubectl, the Python client):
// locally a missing tool skips the test with a message naming what to
// install; under CI=true it fails, so CI can never pass by skipping.
import { execFileSync } from 'node:child_process';

export interface ToolCheck {
  /** Set when the tool is missing and the test should skip (never under CI). */
  readonly skip: string | false;
}

/** `args` is a harmless invocation that exits 0 when the tool works (`--version` by default). */
export function findTool(command: string, install: string, args: readonly string[] = ['--version']): ToolCheck {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return { skip: false };
  } catch {
    const msg = `${command} not found: install ${install}`;
    if (process.env.CI === 'true') throw new Error(`${msg} (required under CI=true)`);
    return { skip: msg };
  }
}
