// The parser against cel-spec's test data (@bufbuild/cel-spec):
// - the parsing suite (cel-go's parser tests): debug ASTs and error reports,
//   with cel-go's test parser settings (recursion 32, recovery limits 4) and
//   backtick identifiers off, as when the suite was recorded;
// - every conformance expression: it parses, or fails with exactly the
//   report cel-go recorded for it.
// Each has a ratchet: a case outside its known-mismatch list fails the test,
// and a listed case that starts matching must be removed from the list.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getParsingSuite, getConformanceSuite, getCheckingSuite, getComprehensionSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { parse, type ParseOptions } from './index.js';
import { toDebugString, kindAdorner } from '../debug.js';
import { formatIssues } from '../issues.js';

interface SuiteTest {
  original: { name: string; expr: string; disableMacros?: boolean };
  ast?: string;
  error?: string;
}
interface Suite {
  name: string;
  tests?: SuiteTest[];
  suites?: Suite[];
}

const SUITE_OPTIONS: ParseOptions = {
  maxRecursionDepth: 32,
  errorRecoveryLimit: 4,
  errorRecoveryLookaheadLimit: 4,
  identEscapeSyntax: false,
};

/** Parsing-suite expressions whose result still differs from cel-go's (why, briefly). */
const PARSING_KNOWN: ReadonlyMap<string, string> = new Map<string, string>([]);

function render(expr: string, opts: ParseOptions, description: string): string {
  const r = parse(expr, opts);
  if (r.parsed) return 'AST ' + toDebugString(r.parsed.expr, kindAdorner);
  return 'ERR ' + formatIssues(r.issues, expr, description);
}

test('cel-spec parsing suite: debug ASTs and error reports match cel-go', () => {
  const suite = getParsingSuite() as Suite;
  const failures: string[] = [];
  const fixed: string[] = [];
  let passed = 0;
  for (const t of suite.tests ?? []) {
    const expr = t.original.expr;
    // Cases with an AST parse (their `error`, if any, is the checker's); the others must fail so.
    const want = t.ast ? 'AST ' + t.ast : 'ERR ' + t.error;
    const got = render(expr, SUITE_OPTIONS, '');
    if (got === want) {
      passed++;
      if (PARSING_KNOWN.has(expr)) fixed.push(expr);
    } else if (!PARSING_KNOWN.has(expr)) {
      failures.push(`${JSON.stringify(expr)}\n want: ${want}\n got:  ${got}`);
    }
  }
  const total = (suite.tests ?? []).length;
  console.log(`parsing suite: ${passed}/${total} match cel-go, ${PARSING_KNOWN.size} known mismatches`);
  assert.deepEqual(failures, [], 'new mismatches');
  assert.deepEqual(fixed, [], 'known mismatches that now match: remove them from PARSING_KNOWN');
});

/** The extensions cel-go's conformance runner enables. */
const CONFORMANCE_OPTIONS: ParseOptions = {
  bindings: true,
  twoVarComprehensions: true,
  optionalMacros: true,
  optionalSyntax: true,
};
const CONFORMANCE_NO_MACROS: ParseOptions = { ...CONFORMANCE_OPTIONS, macros: false, bindings: false, twoVarComprehensions: false, optionalMacros: false };

/** Conformance tests (suite/name) whose parse result differs from cel-go's. */
const CONFORMANCE_KNOWN: ReadonlySet<string> = new Set<string>([]);

test('cel-spec conformance suite: every expression parses, or fails exactly as in cel-go', () => {
  const root = getConformanceSuite() as Suite;
  const failures: string[] = [];
  const fixed: string[] = [];
  let parsed = 0;
  let failedAsExpected = 0;
  let total = 0;
  const walk = (suite: Suite, path: string) => {
    for (const t of suite.tests ?? []) {
      total++;
      const key = `${path}/${t.original.name}`;
      const r = parse(t.original.expr, t.original.disableMacros ? CONFORMANCE_NO_MACROS : CONFORMANCE_OPTIONS);
      let ok: boolean;
      let detail = '';
      if (r.parsed) {
        ok = true;
        parsed++;
      } else {
        const got = formatIssues(r.issues, t.original.expr, t.original.name);
        ok = got === t.error;
        if (ok) failedAsExpected++;
        else detail = `\n want: ${t.error ?? '(a parse)'}\n got:  ${got}`;
      }
      if (ok && CONFORMANCE_KNOWN.has(key)) fixed.push(key);
      if (!ok && !CONFORMANCE_KNOWN.has(key)) failures.push(`${key}: ${JSON.stringify(t.original.expr)}${detail}`);
    }
    for (const s of suite.suites ?? []) walk(s, `${path}/${s.name}`);
  };
  walk(root, root.name);
  console.log(`conformance: ${total} expressions, ${parsed} parse, ${failedAsExpected} fail with cel-go's report, ${CONFORMANCE_KNOWN.size} known mismatches`);
  assert.ok(total > 2000, 'the conformance data is present');
  assert.deepEqual(failures, [], 'new mismatches');
  assert.deepEqual(fixed, [], 'known mismatches that now match: remove them from CONFORMANCE_KNOWN');
});

/** Walks a suite: each expression must give cel-go's AST (when recorded) or cel-go's parse errors. */
function checkRecorded(root: Suite, opts: ParseOptions): { total: number; failures: string[] } {
  const failures: string[] = [];
  let total = 0;
  const walk = (suite: Suite, path: string) => {
    for (const t of suite.tests ?? []) {
      total++;
      const o = t.original;
      const r = parse(o.expr, o.disableMacros ? { ...opts, macros: false, bindings: false, twoVarComprehensions: false, optionalMacros: false } : opts);
      if (r.parsed) {
        const got = toDebugString(r.parsed.expr, kindAdorner);
        if (t.ast && got !== t.ast) failures.push(`${path}/${o.name}: ${JSON.stringify(o.expr)}\n want: ${t.ast}\n got:  ${got}`);
      } else {
        const got = formatIssues(r.issues, o.expr, o.name);
        if (got !== t.error) failures.push(`${path}/${o.name}: ${JSON.stringify(o.expr)}\n want: ${t.error ?? '(a parse)'}\n got:  ${got}`);
      }
    }
    for (const s of suite.suites ?? []) walk(s, `${path}/${s.name}`);
  };
  walk(root, root.name);
  return { total, failures };
}

test('cel-spec checking suite: every expression parses to the recorded AST', () => {
  const { total, failures } = checkRecorded(getCheckingSuite() as Suite, CONFORMANCE_OPTIONS);
  console.log(`checking suite: ${total - failures.length}/${total} match cel-go`);
  assert.ok(total > 100);
  assert.deepEqual(failures, []);
});

test('cel-spec comprehension suite (recorded with the standard macros only): ASTs and parse errors', () => {
  const { total, failures } = checkRecorded(getComprehensionSuite() as Suite, {});
  console.log(`comprehension suite: ${total - failures.length}/${total} match cel-go`);
  assert.ok(total > 50);
  assert.deepEqual(failures, []);
});
