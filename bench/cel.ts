// CEL engine benchmark (issue 22): the 44 Kubernetes-style rules of
// ../shared/reference/cel-bench/cases.json evaluated by our engine (variables
// declared dyn, runtime cost tracking ON, as cel-go "dyn" runs them bare)
// and, in the same process, by @marcbachmann/cel-js and @bufbuild/cel. Per
// case: ns/eval (median of timed samples after a warm-up), whether the result
// is correct, and our compile time (parse + check). Geometric means over the
// cases every engine gets right, and ours over all 44.
//
//   node dist/bench/cel.js [case-substring]      (the speed table)
//   node dist/bench/cel.js --conformance         (conformance counts and failures)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as celJsParse } from '@marcbachmann/cel-js';
import { celEnv, celUint, isCelError, parse as bufParse, plan as bufPlan } from '@bufbuild/cel';
import { strings as bufStrings } from '@bufbuild/cel/ext';
import { runConformance } from '../src/cel/conformance/runner.js';
import { Env } from '../src/cel/index.js';
import { schemaTypeAndConverter, type Schema } from '../src/cel/k8s/schema.js';
import { T, type Type } from '../src/cel/types.js';
import { CelError, CelMap, Double, Uint } from '../src/cel/values.js';
import { fmt } from './report.js';

interface Case {
  name: string;
  group: string;
  schemaHints?: { maps?: string[]; absent?: Record<string, string> };
  expr: string;
  expect: unknown;
  expectError?: string;
  lib?: 'strings' | 'k8s';
  vars: Record<string, unknown>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const casesFile = join(root, '..', 'shared', 'reference', 'cel-bench', 'cases.json');

/** JSON data as our runtime values: integers beyond the safe range as bigint. */
function ours(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(ours);
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = ours(x);
    return o;
  }
  return v;
}

/** cel-js: ints are bigint, doubles numbers, maps plain objects. */
function celJs(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(celJs);
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = celJs(x);
    return o;
  }
  return v;
}

/** @bufbuild/cel: ints bigint, maps as Map. */
function buf(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(buf);
  if (v !== null && typeof v === 'object') return new Map(Object.entries(v).map(([k, x]) => [k, buf(x)]));
  return v;
}

/** Any engine's result as plain JSON-comparable data. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Double || v instanceof Uint) return Number(v.v);
  if (v instanceof CelMap) return Object.fromEntries([...v.entries.values()].map(([k, x]) => [String(k), plain(x)]));
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), plain(x)]));
  if (typeof v === 'object' && v !== null && Symbol.iterator in v && typeof v !== 'string') {
    return [...(v as Iterable<unknown>)].map(plain);
  }
  if (typeof v === 'object' && v !== null && 'value' in v && Object.keys(v).length === 1) return plain((v as { value: unknown }).value);
  return v;
}

function correct(c: Case, result: { value?: unknown; error?: boolean }): boolean {
  if (c.expectError !== undefined) return result.error === true;
  if (result.error) return false;
  return JSON.stringify(plain(result.value)) === JSON.stringify(c.expect);
}

const now = (): bigint => process.hrtime.bigint();

/** Median ns per call of fn over samples of ~sampleMs each, after a warm-up. */
function time(fn: () => void, sampleMs = 60, samples = 3): number {
  let n = 1;
  // Warm-up, and find a batch size that takes about 1 ms.
  const warmEnd = now() + 80_000_000n;
  while (now() < warmEnd) {
    const t0 = now();
    for (let i = 0; i < n; i++) fn();
    const dt = Number(now() - t0);
    if (dt < 1_000_000) n *= 2;
  }
  const out: number[] = [];
  for (let s = 0; s < samples; s++) {
    let calls = 0;
    const t0 = now();
    const end = t0 + BigInt(sampleMs * 1_000_000);
    while (now() < end) {
      for (let i = 0; i < n; i++) fn();
      calls += n;
    }
    out.push(Number(now() - t0) / calls);
  }
  out.sort((a, b) => a - b);
  return out[Math.floor(out.length / 2)]!;
}

interface Engine {
  name: string;
  prepare(c: Case): { run: () => { value?: unknown; error?: boolean } } | string;
}

/** Our program as a benchmark runner: its value, or that it failed with a CEL error. */
function evaluating(program: { eval(act: Record<string, unknown>): unknown }, act: Record<string, unknown>): { run: () => { value?: unknown; error?: boolean } } {
  return {
    run: () => {
      try {
        return { value: program.eval(act) };
      } catch (e) {
        if (e instanceof CelError) return { error: true };
        throw e;
      }
    },
  };
}

const ourEngine: Engine = {
  name: 'svc',
  prepare(c) {
    const env = envFor(c);
    const r = env.compile(c.expr);
    if (!r.ast) return `compile: ${r.issues.map((i) => i.message).join('; ')}`;
    const program = env.program(r.ast, { costLimit: 10_000_000 });
    const act = Object.fromEntries(Object.entries(c.vars).map(([k, v]) => [k, ours(v)]));
    return evaluating(program, act);
  },
};

/** A structural schema for the case's data, as a CRD author would write it:
 * objects with properties (maps where the hints say so), arrays of the
 * union of their elements, integers and numbers, plus the absent fields the
 * hints declare. */
function inferSchema(v: unknown, path: string, hints: Case['schemaHints']): Schema {
  if (Array.isArray(v)) {
    let items: Schema | undefined;
    for (const e of v) items = items ? mergeSchema(items, inferSchema(e, path + '[]', hints)) : inferSchema(e, path + '[]', hints);
    return { type: 'array', items: items ?? { type: 'string' } };
  }
  if (v !== null && typeof v === 'object') {
    const name = path.split('.').pop()!;
    if (hints?.maps?.includes(name)) {
      return { type: 'object', additionalProperties: { type: 'string' } };
    }
    const properties: Record<string, Schema> = {};
    for (const [k, x] of Object.entries(v)) properties[k] = inferSchema(x, path ? `${path}.${k}` : k, hints);
    return { type: 'object', properties };
  }
  if (typeof v === 'number') return { type: Number.isInteger(v) ? 'integer' : 'number' };
  if (typeof v === 'boolean') return { type: 'boolean' };
  return { type: 'string' };
}

function mergeSchema(a: Schema, b: Schema): Schema {
  if (a.type === 'object' && b.type === 'object' && a.properties && b.properties) {
    const properties = { ...a.properties };
    for (const [k, x] of Object.entries(b.properties)) properties[k] = properties[k] ? mergeSchema(properties[k]!, x) : x;
    return { ...a, properties };
  }
  if (a.type === 'integer' && b.type === 'number') return b;
  return a;
}

function withAbsent(schema: Schema, absent: Record<string, string> | undefined): Schema {
  for (const [path, type] of Object.entries(absent ?? {})) {
    let s = schema;
    const parts = path.split('.');
    for (const [i, p] of parts.entries()) {
      s.properties ??= {};
      if (i === parts.length - 1) s.properties[p] = { type };
      else s = s.properties[p] ??= { type: 'object', properties: {} };
    }
  }
  return schema;
}

const typedEnvs = new Map<string, { env: Env; convert?: (v: unknown) => unknown }>();

/** Our engine the way kube-apiserver runs a CRD rule: variables typed from a
 * structural schema (cel-k8s's mapping), cost tracking on. */
const ourTypedEngine: Engine = {
  name: 'svc typed',
  prepare(c) {
    let te = typedEnvs.get(c.name);
    if (!te) {
      const schema = withAbsent(inferSchema(c.vars.self, '', c.schemaHints), c.schemaHints?.absent);
      const mapped = schemaTypeAndConverter(schema, { name: 'self', resourceRoot: false });
      if (!mapped) return 'schema not exposed';
      const variables: Record<string, Type> = { self: mapped.type };
      if ('oldSelf' in c.vars) variables.oldSelf = mapped.type;
      te = {
        env: new Env({ libraries: ['strings', 'k8s.lists', 'k8s.regex', 'k8s.urls'], variables, homogeneousAggregateLiterals: true }),
        convert: mapped.convert,
      };
      typedEnvs.set(c.name, te);
    }
    const r = te.env.compile(c.expr);
    if (!r.ast) return `compile: ${r.issues.map((i) => i.message).join('; ')}`;
    const program = te.env.program(r.ast, { costLimit: 10_000_000 });
    const conv = te.convert ?? ((v: unknown) => v);
    const act = Object.fromEntries(Object.entries(c.vars).map(([k, v]) => [k, conv(ours(v))]));
    return evaluating(program, act);
  },
};

const envs = new Map<string, Env>();
function envFor(c: Case): Env {
  const key = `${c.lib ?? ''}:${Object.keys(c.vars).join(',')}`;
  let env = envs.get(key);
  if (!env) {
    env = new Env({
      libraries: ['strings', 'k8s.lists', 'k8s.regex', 'k8s.urls'],
      variables: Object.fromEntries(Object.keys(c.vars).map((k) => [k, T.dyn])),
      homogeneousAggregateLiterals: true,
    });
    envs.set(key, env);
  }
  return env;
}

const celJsEngine: Engine = {
  name: 'cel-js',
  prepare(c) {
    if (c.lib === 'k8s') return 'n/a';
    let fn: (ctx: unknown) => unknown;
    try {
      fn = celJsParse(c.expr) as unknown as (ctx: unknown) => unknown;
    } catch (e) {
      return `parse: ${(e as Error).message}`;
    }
    const ctx = Object.fromEntries(Object.entries(c.vars).map(([k, v]) => [k, celJs(v)]));
    return {
      run: () => {
        try {
          return { value: fn(ctx) };
        } catch {
          return { error: true };
        }
      },
    };
  },
};

const bufEnv = celEnv({ funcs: bufStrings });
const bufEngine: Engine = {
  name: '@bufbuild/cel',
  prepare(c) {
    if (c.lib === 'k8s') return 'n/a';
    let fn: (ctx: never) => unknown;
    try {
      fn = bufPlan(bufEnv, bufParse(c.expr)) as unknown as (ctx: never) => unknown;
    } catch (e) {
      return `plan: ${(e as Error).message}`;
    }
    const ctx = Object.fromEntries(Object.entries(c.vars).map(([k, v]) => [k, buf(v)])) as never;
    return {
      run: () => {
        const v = fn(ctx);
        return isCelError(v) ? { error: true } : { value: v };
      },
    };
  },
};
void celUint;

const geomean = (xs: number[]): number => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/** Median ns of parse + check of the case's expression (a fresh compile each time). */
function compileTime(c: Case): number {
  const env = envFor(c);
  return time(() => env.compile(c.expr), 30, 3);
}

export async function benchCel(filter?: string): Promise<string[]> {
  const { cases } = JSON.parse(readFileSync(casesFile, 'utf8')) as { cases: Case[] };
  const engines = [ourEngine, celJsEngine, bufEngine, ourTypedEngine];
  const lines: string[] = [
    '## CEL: cases.json (ns/eval, median; ✓ correct, ✗ wrong/failed; svc with runtime cost tracking on, variables dyn)',
    '',
    '| # | case | svc | cel-js | @bufbuild/cel | svc typed (schema types, as kube runs CRD rules) | svc compile (parse+check) ns |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  const ns: Record<string, (number | undefined)[]> = { svc: [], 'cel-js': [], '@bufbuild/cel': [], 'svc typed': [] };
  const compiles: number[] = [];
  let i = 0;
  for (const c of cases) {
    i++;
    if (filter && !c.name.includes(filter)) continue;
    const cells: string[] = [];
    for (const e of engines) {
      const p = e.prepare(c);
      if (typeof p === 'string') {
        cells.push(p === 'n/a' ? '✗ (n/a)' : `✗ (${p.slice(0, 60)})`);
        ns[e.name]!.push(undefined);
        continue;
      }
      let ok = false;
      try {
        ok = correct(c, p.run());
      } catch (err) {
        cells.push(`✗ (${String((err as Error)?.message ?? err).slice(0, 60)})`);
        ns[e.name]!.push(undefined);
        continue;
      }
      const t = time(p.run);
      ns[e.name]!.push(ok ? t : undefined);
      cells.push(`${Math.round(t).toLocaleString('en-US')} ${ok ? '✓' : '✗'}`);
    }
    const ct = compileTime(c);
    compiles.push(ct);
    lines.push(`| ${i} | ${c.name} | ${cells.join(' | ')} | ${Math.round(ct).toLocaleString('en-US')} |`);
  }
  const svc = ns.svc!;
  const allOk = (k: number) => svc[k] !== undefined && ns['cel-js']![k] !== undefined && ns['@bufbuild/cel']![k] !== undefined;
  const common = svc.map((_, k) => k).filter(allOk);
  const ratio = (name: string) => geomean(common.map((k) => ns[name]![k]! / svc[k]!));
  const ourOk = svc.filter((x): x is number => x !== undefined);
  const sortedCompile = [...compiles].sort((a, b) => a - b);
  lines.push(
    '',
    `svc correct: ${ourOk.length} of ${svc.length}; geometric mean ns/eval over all its correct cases: ${fmt(geomean(ourOk), 0)}`,
    `over the ${common.length} cases all three get right: svc ${fmt(geomean(common.map((k) => svc[k]!)), 0)} ns, ` +
      `cel-js ${fmt(geomean(common.map((k) => ns['cel-js']![k]!)), 0)} ns (${fmt(ratio('cel-js'))}× svc), ` +
      `@bufbuild/cel ${fmt(geomean(common.map((k) => ns['@bufbuild/cel']![k]!)), 0)} ns (${fmt(ratio('@bufbuild/cel'))}× svc)`,
    `svc typed correct: ${ns['svc typed']!.filter((x) => x !== undefined).length} of ${svc.length}; geometric mean ns/eval over its correct cases: ${fmt(geomean(ns['svc typed']!.filter((x): x is number => x !== undefined)), 0)}`,
    `svc compile (parse + check) median over the cases: ${fmt(sortedCompile[Math.floor(sortedCompile.length / 2)] ?? NaN, 0)} ns`,
  );
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const lines = process.argv[2] === '--conformance' ? benchCelConformance() : await benchCel(process.argv[2]);
  for (const l of lines) console.log(l);
}

/** The conformance figures for RESULTS.md: counts and every failing test with its reason. */
export function benchCelConformance(): string[] {
  const lines = ['## CEL conformance (@bufbuild/cel-spec suite; tests needing protobuf messages set aside, see src/cel/conformance/suite.ts)', ''];
  for (const unchecked of [false, true]) {
    const outcomes = runConformance({ unchecked });
    const run = outcomes.filter((o) => o.status === 'pass' || o.status === 'fail');
    const failed = run.filter((o) => o.status === 'fail');
    const protobuf = outcomes.filter((o) => o.status === 'protobuf').length;
    lines.push(
      `${unchecked ? 'evaluated unchecked (runtime dispatch)' : 'parse → check → eval'}: passed ${run.length - failed.length} of ${run.length} (${protobuf} need protobuf messages)`,
    );
    if (!unchecked) {
      lines.push('', 'Failing:', '');
      for (const o of failed) lines.push(`- ${o.path}: ${(o.reason ?? '').split('\n')[0]}`);
      lines.push('');
    }
  }
  return lines;
}
