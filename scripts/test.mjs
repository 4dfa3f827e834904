// Runs every compiled test file (dist/{src,test,bench}/**/*.test.js) with node's test runner.
// Node 20's `node --test` has no glob support and runs one file at a time on
// two cores, so we use the run() API with an explicit file list and concurrency.
// Usage: node scripts/test.mjs [substring-filter ...]
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = ['dist/src', 'dist/test', 'dist/bench']
  .flatMap((d) => { try { return find(d); } catch { return []; } })
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files found under dist/ (did the build run?)');
  process.exit(1);
}
// Objects the registry hands out again are frozen under test: a path that modifies one fails (src/registry/recent.ts).
process.env.SVC_FREEZE_REUSED = '1';
const stream = run({ files, concurrency: Math.max(2, availableParallelism()), timeout: 10 * 60_000 });
stream.on('test:fail', () => { process.exitCode = 1; });
stream.compose(spec).pipe(process.stdout);
