// Validation and defaulting benchmark (issue 5): what the write path does to
// a body before storage, in process on one core — typed decoding with
// fieldValidation=Strict (types, unknown and duplicate fields, pruning),
// defaulting, Go's omitempty and zero values, metadata and per-kind
// validation — for a 4 KiB Pod, measured per object.
//
// JSON parsing is not part of the target: each timed batch runs over bodies
// parsed (with duplicate detection, as the server parses) just before it,
// untimed. A server works on a body right after parsing it, while it is in
// the CPU's caches; batches of 10 measure that. Batches of 1000 measure the
// same work on bodies parsed long before (cache misses included).
import { decodeJson } from '../src/schema/json.js';
import { decodeTyped } from '../src/endpoints/fieldvalidation.js';
import { schemaFor } from '../src/api/schemas.js';
import { defaulterFor } from '../src/api/defaults.js';
import { finishGoDecode } from '../src/schema/gozero.js';
import { strategyFor } from '../src/registry/strategies/index.js';
import { validateMetadata } from '../src/registry/metadata.js';
import type { ApiObject } from '../src/registry/object.js';
import { podBody } from './podbody.js';
import { fmt } from './report.js';

const N = 20_000;
const RUNS = 5;
const BODIES = 1000;

interface Parsed {
  body: Record<string, unknown>;
  duplicates: readonly string[];
}

export async function benchValidation(): Promise<string[]> {
  const schema = schemaFor('', 'v1', 'Pod')!;
  const defaults = defaulterFor('', 'v1', 'Pod')!;
  const strategy = strategyFor({ group: '', version: 'v1', resource: 'pods', kind: 'Pod' }, true, true);
  const texts = Array.from({ length: BODIES }, (_, i) => toFourKiB(podBody(`pod-${i}`, i)));
  const size = Buffer.byteLength(texts[0]!);
  let next = 0;
  const parse = (n: number): Parsed[] =>
    Array.from({ length: n }, () => {
      const { value, duplicates } = decodeJson(texts[next++ % BODIES]!);
      return { body: value as Record<string, unknown>, duplicates };
    });
  const one = ({ body, duplicates }: Parsed): number => {
    decodeTyped({ body, duplicates, schema, kind: 'Pod', version: 'v1', mode: 'Strict' });
    defaults(body);
    finishGoDecode(schema, body);
    const obj = body as unknown as ApiObject;
    obj.metadata.namespace = 'default';
    strategy.prepareForCreate(obj);
    return validateMetadata(obj, strategy).length + strategy.validate(obj).length;
  };
  /** CPU milliseconds of the pipeline over `n` pods (parsing excluded), in batches of `batch`. */
  const timed = (n: number, batch: number): number => {
    let ms = 0;
    for (let done = 0; done < n; done += batch) {
      const bodies = parse(batch);
      const start = process.cpuUsage();
      let errors = 0;
      for (const p of bodies) errors += one(p);
      const used = process.cpuUsage(start);
      ms += (used.user + used.system) / 1000;
      if (errors !== 0) throw new Error('the benchmark pod does not validate');
    }
    return ms;
  };
  timed(2 * BODIES, 10); // warm up
  const row = (batch: number): string => {
    const runs: number[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(timed(N, batch) / N);
    const best = Math.min(...runs);
    const median = [...runs].sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    return `| ${batch.toLocaleString('en-US')} | ${RUNS} × ${N.toLocaleString('en-US')} | ${fmt(best * 1000, 1)} µs | ${fmt(median * 1000, 1)} µs | ${fmt(1000 / best, 0)} | ${fmt(1000 / median, 0)} |`;
  };
  return [
    `### Validation and defaulting (issue 5): a ${fmt(size / 1024, 1)} KiB Pod, typed decode (Strict) + prune + defaults + Go zero values + metadata and Pod validation, JSON parsing excluded, one core, in process`,
    '',
    '| parsed in batches of | runs × pods | CPU per pod (best) | CPU per pod (median) | pods/s per core (best) | pods/s per core (median) |',
    '|---|---|---|---|---|---|',
    row(10),
    row(1000),
  ];
}

/** The pod is 4 KiB: the benchmark pod, padded with one annotation to at least 4,096 bytes of JSON. */
function toFourKiB(text: string): string {
  const pod = JSON.parse(text) as { metadata: { annotations?: Record<string, string> } };
  const missing = 4096 - Buffer.byteLength(text) - '"bench.svc.io/padding":"",'.length;
  if (missing > 0) pod.metadata.annotations = { ...pod.metadata.annotations, 'bench.svc.io/padding': 'p'.repeat(missing) };
  return JSON.stringify(pod);
}
