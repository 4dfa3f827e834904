// Server-side apply engine microbenchmark (issue 6): the 4 KiB Deployment of
// bench/apply.ts applied by three managers in turn (applyObject), and a PUT
// of the object as read, with its managedFields, by a fourth manager
// (updateObject). Each is timed twice: with the live object handed from one
// call to the next (as a cache hands it over) and with the live object
// re-parsed from JSON before every call (as a store read hands it over; the
// parse is not timed). A last row is the server's workload: 300 Deployments,
// each apply followed by the kind's defaulting as the server runs it — which
// puts back `fieldRef.apiVersion`, so the managers take the atomic `fieldRef`
// from each other on every apply (as in Kubernetes). Reports the best per-op
// time of several runs.
//
//   node dist/bench/smd.js [iterations] [runs]
import { applyObject, updateObject } from '../src/smd/index.js';
import type { JsonObject } from '../src/smd/typed.js';
import { schemaFor } from '../src/api/schemas.js';
import { resetFields } from '../src/endpoints/resetfields.js';
import { defaulterFor } from '../src/api/defaults.js';
import { podBody } from './podbody.js';
import { fmt } from './report.js';

const schema = schemaFor('apps', 'v1', 'Deployment');
const MANAGERS = ['deployer', 'autoscaler', 'labeler'];
const now = (): string => '2026-01-01T00:00:00Z';

function deployment(name: string, manager: string, round: number): JsonObject {
  const pod = JSON.parse(podBody(name, 0)) as { metadata: { labels: Record<string, string> }; spec: JsonObject };
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name, labels: pod.metadata.labels, annotations: { [`bench.svc.io/${manager}`]: String(round) } },
    spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels: { ...pod.metadata.labels, ...labels } }, spec: pod.spec } },
  };
}

const common = { apiVersion: 'apps/v1', schema, now };
const ignored = () => resetFields('apps', 'deployments', true, undefined);

function seed(): JsonObject {
  let live: JsonObject | undefined;
  for (const m of MANAGERS) live = applyObject({ ...common, ignored: ignored(), live, config: deployment('d', m, 0), manager: m, force: true }).object;
  return live!;
}

/** An operation: `prepare` builds the request (not timed), the returned function runs the engine (timed). */
type Op = (live: JsonObject, i: number) => () => JsonObject;

const applyOp: Op = (live, i) => {
  const m = MANAGERS[i % 3]!;
  const config = deployment('d', m, i + 1);
  return () => applyObject({ ...common, ignored: ignored(), live, config, manager: m, force: true }).object;
};

const updateOp: Op = (live, i) => {
  const updated = JSON.parse(JSON.stringify(live)) as JsonObject;
  (updated.spec as JsonObject).replicas = 3 + (i % 2);
  return () => updateObject({ ...common, ignored: ignored(), live, updated, manager: 'editor' }).object;
};

/** Mean ms per op over n ops; only the engine call is timed. */
function time(op: Op, n: number, reparse: boolean): number {
  let live = seed();
  for (let i = 0; i < 50; i++) live = op(live, i)(); // warm-up
  let total = 0;
  for (let i = 0; i < n; i++) {
    const run = op(reparse ? (JSON.parse(JSON.stringify(live)) as JsonObject) : live, i);
    const t = performance.now();
    live = run();
    total += performance.now() - t;
  }
  return total / n;
}

/** Mean ms per apply over n applies to 300 Deployments in turn, each defaulted afterwards (only applyObject is timed). */
function timeDefaulted(n: number): number {
  const defaulter = defaulterFor('apps', 'v1', 'Deployment')!;
  const lives: (JsonObject | undefined)[] = new Array(300);
  const once = (i: number): number => {
    const d = i % lives.length;
    const m = MANAGERS[Math.floor(i / lives.length) % 3]!;
    const config = deployment(`d-${d}`, m, i + 1);
    const t = performance.now();
    const r = applyObject({ ...common, ignored: ignored(), live: lives[d], config, manager: m, force: true });
    const ms = performance.now() - t;
    defaulter(r.object);
    lives[d] = r.object;
    return ms;
  };
  for (let i = 0; i < 6 * lives.length; i++) once(i); // create, then two rounds of every manager
  let total = 0;
  for (let i = 0; i < n; i++) total += once(i);
  return total / n;
}

export function benchSmd(n = 2000, runs = 5): string[] {
  const rows: [string, Op, boolean][] = [
    ['applyObject, live handed over', applyOp, false],
    ['applyObject, live re-parsed', applyOp, true],
    ['updateObject (PUT with managedFields), live handed over', updateOp, false],
    ['updateObject (PUT with managedFields), live re-parsed', updateOp, true],
  ];
  const lines = ['### Server-side apply engine (src/smd), 4 KiB Deployment, 3 appliers', '', '| operation | best ms/op |', '|---|---|'];
  for (const [name, op, reparse] of rows) {
    let best = Infinity;
    for (let r = 0; r < runs; r++) best = Math.min(best, time(op, n, reparse));
    lines.push(`| ${name} | ${fmt(best, 3)} |`);
  }
  let best = Infinity;
  for (let r = 0; r < runs; r++) best = Math.min(best, timeDefaulted(n * 3));
  lines.push(`| applyObject, 300 Deployments in turn, defaulted after each apply (the server's workload), live handed over | ${fmt(best, 3)} |`);
  return lines;
}

if (process.argv[1]?.endsWith('/bench/smd.js')) {
  console.log(benchSmd(Number(process.argv[2] ?? 2000), Number(process.argv[3] ?? 5)).join('\n'));
}
