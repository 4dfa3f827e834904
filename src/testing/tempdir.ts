// Temporary directories for tests: made under the OS temp dir and removed
// when the test process exits (each test file runs in its own process), so a
// test that forgets — or fails before — its own cleanup leaves nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

export function tempDir(prefix: string): string {
  if (made.length === 0) process.once('exit', () => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
