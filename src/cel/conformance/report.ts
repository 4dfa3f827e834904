// `node dist/src/cel/conformance/report.js [--unchecked] [substring]`: runs the conformance
// suite and prints the failing tests with their reasons (for bench/RESULTS.md),
// then the counts.

import { runConformance } from './runner.js';

const args = process.argv.slice(2);
const unchecked = args.includes('--unchecked');
const filter = args.find((a) => !a.startsWith('--'));
const outcomes = runConformance({ unchecked });
const run = outcomes.filter((o) => o.status === 'pass' || o.status === 'fail');
const failed = run.filter((o) => o.status === 'fail');
for (const o of failed) {
  if (filter !== undefined && !o.path.includes(filter)) continue;
  console.log(`${o.path}: ${(o.reason ?? '').split('\n').join(' ⏎ ')}`);
}
const protobuf = outcomes.filter((o) => o.status === 'protobuf').length;
const checkOnly = outcomes.filter((o) => o.status === 'checkOnly').length;
console.log(
  `passed ${run.length - failed.length} of ${run.length} (${protobuf} need protobuf messages${checkOnly ? `, ${checkOnly} check-only not run` : ''})`,
);
