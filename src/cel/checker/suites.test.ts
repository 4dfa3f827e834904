// The checker against cel-go's expectations: the checking suite (cel-go's
// checker tests: checked ASTs with `~type^reference` adornments, and error
// texts) and the conformance suite's checked ASTs and types. Both are
// ratchets: a case outside the known-mismatch lists must pass, and a listed
// case that passes must be removed from its list.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getCheckingSuite, getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import type { IncrementalTest, IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { parse } from '../parser/index.js';
import type { ParseOptions } from '../parser/index.js';
import { toDebugString } from '../debug.js';
import { formatIssues } from '../issues.js';
import type { FunctionDecl, Library } from '../decls.js';
import type { Type } from '../types.js';
import { T, opaque, typeParam } from '../types.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { mathFunctions } from '../ext/math_decls.js';
import { mathMacros } from '../stdlib/index.js';
import { bindingsFunctions } from '../ext/bindings_decls.js';
import { BLOCK_HARNESS_MACROS, blockIndexVariables } from '../ext/block_harness.js';
import { encodersFunctions } from '../ext/encoders_decls.js';
import { optionalFunctions, optionalTypeIdents } from '../ext/optional_decls.js';
import { buildCheckEnv, check, formatType } from './index.js';
import type { CheckEnv } from './index.js';
import { checkedAdorner } from './adorner.js';
import { declsFromPb, typeFromPb, UnsupportedTypeError } from './exprpb.js';
import type { PbDecl, PbType } from './exprpb.js';
import { global, member } from './declare.js';
import { parseTypeName } from './typename.js';
import { CONFORMANCE_KNOWN } from './known_mismatches.js';

function flatten(s: IncrementalTestSuite, prefix = ''): [string, IncrementalTest][] {
  const out: [string, IncrementalTest][] = [];
  for (const t of s.tests) out.push([`${prefix}${t.name}`, t]);
  for (const c of s.suites) out.push(...flatten(c, `${prefix}${c.name}/`));
  return out;
}

const lib = (name: string, functions: FunctionDecl[], variables?: Library['variables']): Library =>
  variables ? { name, functions, impls: [], variables } : { name, functions, impls: [] };
const std = lib('std', stdlibFunctions, stdlibTypeIdents);
const optional = lib('optional', optionalFunctions, optionalTypeIdents);

/** Mentions of protobuf messages (not served here). */
const PROTO =
  /google\.(expr|protobuf)|TestAllTypes|NestedMessage|Proto2Message|wrapper\(|NestedEnum|\.proto[23]?\b|\b(single|repeated|map_int64)_/;

// ---- the checking suite ------------------------------------------------------------

/** cel-go checker_test.go's declarations that the generated suite does not
 * carry: the default env, and functions some cases add. */
const checkingFunctions: FunctionDecl[] = [
  { name: 'fg_s', overloads: [global('fg_s_0', [], T.string)] },
  { name: 'fi_s_s', overloads: [member('fi_s_s_0', [T.string], T.string)] },
  {
    name: 'myfun',
    overloads: [
      member('myfun_instance', [T.int, T.bool, T.uint], T.int),
      global('myfun_static', [T.int, T.bool, T.uint], T.int),
    ],
  },
  { name: 'base64.encode', overloads: [global('base64_encode_string', [T.string], T.string)] },
  {
    name: 'set',
    overloads: [global('set_list', [{ kind: 'list', elem: typeParam('T') }], opaque('set', typeParam('T')))],
  },
];
const checkingVariables: Record<string, Type> = {
  is: T.string,
  ii: T.int,
  iu: T.uint,
  iz: T.bool,
  ib: T.bytes,
  id: T.double,
  ix: T.null,
};
/** Per-case declarations the expected output does not reveal. */
const checkingExtra: Record<string, { variables?: Record<string, Type>; container?: string }> = {
  "encode('hello')": { container: 'base64' },
  'x.all(y, y == true)': { variables: { x: T.bool } },
  'set([1, 2]) == x': { variables: { x: opaque('set', typeParam('T')) } },
  'a.b + 1 == a[0]': { variables: { a: typeParam('T') } },
};

/** Identifiers the expected checked AST shows resolved (`name~type^name`). */
function declaredIn(checkedAst: string): Map<string, Type> {
  const out = new Map<string, Type>();
  for (const m of checkedAst.matchAll(/(?<![\w."@])([A-Za-z_.][\w.]*)~([^~^\n]+)\^\1(?![\w(])/g)) {
    const t = parseTypeName(m[2]!);
    if (t) out.set(m[1]!, t);
  }
  return out;
}

/** Checking-suite cases known to differ from cel-go, with the reason. */
const CHECKING_KNOWN: Record<string, string> = {};

test('checking suite (cel-go checker tests)', () => {
  const cases = flatten(getCheckingSuite());
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  const stale: string[] = [];
  for (const [name, t] of cases) {
    const expr = t.original.expr;
    const expected = t.checkedAst ?? t.error ?? '';
    if (PROTO.test(expected) || PROTO.test(expr) || t.error?.includes('unsupported syntax')) {
      skipped++;
      continue;
    }
    const extra = checkingExtra[expr];
    const variables = new Map<string, Type>(Object.entries(checkingVariables));
    if (t.checkedAst) for (const [k, v] of declaredIn(t.checkedAst)) if (!variables.has(k)) variables.set(k, v);
    for (const [k, v] of Object.entries(extra?.variables ?? {})) variables.set(k, v);
    const env = buildCheckEnv({
      libraries: [std, optional, lib('test', checkingFunctions)],
      variables,
      container: extra?.container ?? '',
      // The generated data keeps no per-case checker options: its checked
      // ASTs show the cross-type numeric overloads, its errors come from
      // cases that turned them off.
      crossTypeNumericComparisons: t.error === undefined,
    });
    const got = run(expr, env, {}, t.error !== undefined);
    const key = `${name}: ${expr}`;
    const ok = normalise(got) === normalise(expected);
    if (ok) passed++;
    if (!ok && !(key in CHECKING_KNOWN)) failures.push(`${key}\n  want: ${expected}\n  got:  ${got}`);
    if (ok && key in CHECKING_KNOWN) stale.push(key);
  }
  console.log(`checking suite: ${passed} passed, ${Object.keys(CHECKING_KNOWN).length} known mismatches, ${skipped} protobuf cases skipped, of ${cases.length}`);
  for (const f of failures) console.log(`MISMATCH ${f}`);
  assert.equal(failures.length, 0, `${failures.length} unexpected mismatches (printed above)`);
  assert.deepEqual(stale, [], 'passing cases still listed as known mismatches');
});

/** The checked AST's debug string, or the issues as cel-go displays them. */
function run(expr: string, env: CheckEnv, opts: ParseOptions, wantError: boolean): string {
  return runTyped(expr, env, opts, wantError).text;
}

function runTyped(expr: string, env: CheckEnv, opts: ParseOptions, wantError: boolean): { text: string; type?: string } {
  const p = parse(expr, opts);
  if (!p.parsed) return { text: formatIssues(p.issues, expr) };
  const r = check(p.parsed, env);
  if (!r.checked) return { text: formatIssues(r.issues, expr) };
  const text = toDebugString(r.checked.expr, checkedAdorner(r.checked));
  return { text: wantError ? `(no error) ${text}` : text, type: formatType(r.checked.type) };
}

/** cel-go's test data indents with tabs and spaces inconsistently. */
const normalise = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');

// ---- the conformance suite ---------------------------------------------------------


const conformanceLibraries = [
  std,
  lib('strings', stringsFunctions),
  lib('math', mathFunctions),
  lib('encoders', encodersFunctions),
  optional,
  lib('bindings', bindingsFunctions),
];

test('conformance suite: checked ASTs and types', () => {
  const cases = flatten(getConformanceSuite());
  let passed = 0;
  let skipped = 0;
  let total = 0;
  let deduced = 0;
  const failures: string[] = [];
  const stale: string[] = [];
  for (const [name, t] of cases) {
    if (t.checkedAst === undefined || t.original.disableCheck) continue;
    if (PROTO.test(t.checkedAst) || PROTO.test(t.original.expr) || t.original.container.includes('proto')) {
      skipped++;
      continue;
    }
    let decls;
    try {
      decls = declsFromPb(t.original.typeEnv as unknown as PbDecl[]);
    } catch (e) {
      if (e instanceof UnsupportedTypeError) {
        skipped++;
        continue;
      }
      throw e;
    }
    total++;
    const env = buildCheckEnv({
      libraries: [...conformanceLibraries, lib('test', decls.functions)],
      variables: [...blockIndexVariables, ...decls.variables],
      container: t.original.container,
    });
    const { text: got, type } = runTyped(t.original.expr, env, conformanceParseOptions, false);
    const ok = got === t.checkedAst;
    if (ok) passed++;
    if (!ok && !(name in CONFORMANCE_KNOWN)) failures.push(`${name}: ${t.original.expr}\n  want: ${t.checkedAst}\n  got:  ${got}`);
    if (ok && name in CONFORMANCE_KNOWN) stale.push(name);
    // the suite's own expected type, where it gives one, must hold whatever cel-go printed
    const rm = t.original.resultMatcher;
    if (rm.case === 'typedResult' && rm.value.deducedType) {
      const want = formatType(typeFromPb(rm.value.deducedType as unknown as PbType));
      deduced++;
      if (type !== want) failures.push(`${name}: ${t.original.expr}\n  deduced type: ${want}\n  got: ${type ?? got}`);
    }
  }
  console.log(
    `conformance checked ASTs: ${passed} of ${total} passed (${Object.keys(CONFORMANCE_KNOWN).length} known mismatches), ${skipped} protobuf cases skipped; ${deduced} deduced types checked`,
  );
  for (const f of failures) console.log(`MISMATCH ${f}`);
  assert.equal(failures.length, 0, `${failures.length} unexpected mismatches (printed above)`);
  assert.deepEqual(stale, [], 'passing cases still listed as known mismatches');
});

const conformanceParseOptions: ParseOptions = {
  bindings: true,
  optionalSyntax: true,
  optionalMacros: true,
  twoVarComprehensions: true,
  extraMacros: [...mathMacros, ...BLOCK_HARNESS_MACROS],
};
