// The benchmarks' native helpers (bench/*.c): compiled with the system's C
// compiler on first use, and again when the source is newer than the binary;
// the binary sits beside the compiled bench (dist/bench/<name>).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The path of bench/<name>.c compiled and linked with `libs`; undefined when
 * it cannot be built, with the reason printed after `unavailable` (which says
 * what it is and what to install).
 */
export function nativeBinary(name: string, libs: readonly string[], unavailable: string): string | undefined {
  const source = join(here, '..', '..', 'bench', `${name}.c`);
  const binary = join(here, name);
  try {
    if (!existsSync(binary) || statSync(binary).mtimeMs < statSync(source).mtimeMs) {
      execFileSync('cc', ['-O2', '-o', binary, source, ...libs.map((l) => `-l${l}`)], { stdio: ['ignore', 'ignore', 'pipe'] });
    }
    return binary;
  } catch (err) {
    console.error(`${unavailable}: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
    return undefined;
  }
}
