// `node dist/src/cel/conformance/report.js [substring]`: runs the conformance
// suite and prints the failing tests with their reasons (for bench/RESULTS.md),
// then the counts.

import { runConformance } from './runner.js';

const filter = process.argv[2];
const outcomes = runConformance();
const run = outcomes.filter((o) => o.status !== 'protobuf');
const failed = run.filter((o) => o.status === 'fail');
for (const o of failed) {
  if (filter !== undefined && !o.path.includes(filter)) continue;
  console.log(`${o.path}: ${(o.reason ?? '').split('\n').join(' ⏎ ')}`);
}
console.log(`passed ${run.length - failed.length} of ${run.length} (${outcomes.length - run.length} need protobuf messages)`);
