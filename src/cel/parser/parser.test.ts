import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, ParseOptionError, type ParseOptions } from './index.js';
import { toDebugString, idKindAdorner } from '../debug.js';
import { formatIssues, locationOf } from '../issues.js';
import type { Constant, Expr } from '../ast.js';

function ast(text: string, opts?: ParseOptions): string {
  const r = parse(text, opts);
  assert.ok(r.parsed, `${text}: ${formatIssues(r.issues, text)}`);
  return toDebugString(r.parsed.expr, idKindAdorner());
}

function errors(text: string, opts?: ParseOptions): string {
  const r = parse(text, opts);
  assert.equal(r.parsed, undefined, `${text} should not parse`);
  return formatIssues(r.issues, text);
}

function constant(text: string): Constant {
  const r = parse(text);
  assert.ok(r.parsed, `${text}: ${formatIssues(r.issues, text)}`);
  assert.equal(r.parsed.expr.kind, 'const');
  return (r.parsed.expr as Extract<Expr, { kind: 'const' }>).value;
}

test('node ids follow cel-go visitor order', () => {
  const cases: [string, string][] = [
    ['a.b', 'a^#1:*expr.Expr_IdentExpr#.b^#2:*expr.Expr_SelectExpr#'],
    // Receiver call: id of '(' after the target, then the arguments.
    ['x.f(1)', 'x^#1:*expr.Expr_IdentExpr#.f(\n  1^#3:*expr.Constant_Int64Value#\n)^#2:*expr.Expr_CallExpr#'],
    // Global call: the call's id comes before its arguments.
    ['f(a, b)', 'f(\n  a^#2:*expr.Expr_IdentExpr#,\n  b^#3:*expr.Expr_IdentExpr#\n)^#1:*expr.Expr_CallExpr#'],
    // || : each operator's id after its right operand; a balanced tree.
    ['a || b || c', '_||_(\n  _||_(\n    a^#1:*expr.Expr_IdentExpr#,\n    b^#2:*expr.Expr_IdentExpr#\n  )^#3:*expr.Expr_CallExpr#,\n  c^#4:*expr.Expr_IdentExpr#\n)^#5:*expr.Expr_CallExpr#'],
    // Binary operators: left, operator, right; left-associative.
    ['1 - 2 - 3', '_-_(\n  _-_(\n    1^#1:*expr.Constant_Int64Value#,\n    2^#3:*expr.Constant_Int64Value#\n  )^#2:*expr.Expr_CallExpr#,\n  3^#5:*expr.Constant_Int64Value#\n)^#4:*expr.Expr_CallExpr#'],
    // * binds tighter than +.
    ['a + b * c', '_+_(\n  a^#1:*expr.Expr_IdentExpr#,\n  _*_(\n    b^#3:*expr.Expr_IdentExpr#,\n    c^#5:*expr.Expr_IdentExpr#\n  )^#4:*expr.Expr_CallExpr#\n)^#2:*expr.Expr_CallExpr#'],
    // Map entries get their id before their key.
    ['{a: b}', '{\n  a^#3:*expr.Expr_IdentExpr#:b^#4:*expr.Expr_IdentExpr#^#2:*expr.Expr_CreateStruct_Entry#\n}^#1:*expr.Expr_StructExpr#'],
    ['T{f: 1}', 'T{\n  f:1^#3:*expr.Constant_Int64Value#^#2:*expr.Expr_CreateStruct_Entry#\n}^#1:*expr.Expr_StructExpr#'],
    ['.a.b.C{}', '.a.b.C{}^#1:*expr.Expr_StructExpr#'],
    ['.x', '.x^#1:*expr.Expr_IdentExpr#'],
    // Negation: one operator for an odd count, none for an even one; `-1` is a literal.
    ['!!a', 'a^#1:*expr.Expr_IdentExpr#'],
    ['!!!a', '!_(\n  a^#2:*expr.Expr_IdentExpr#\n)^#1:*expr.Expr_CallExpr#'],
    ['-x', '-_(\n  x^#2:*expr.Expr_IdentExpr#\n)^#1:*expr.Expr_CallExpr#'],
    ['-1', '-1^#1:*expr.Constant_Int64Value#'],
    ['--1', '1^#1:*expr.Constant_Int64Value#'],
    ['!-1', '!_(\n  -1^#2:*expr.Constant_Int64Value#\n)^#1:*expr.Expr_CallExpr#'],
    ['a ? b : c', '_?_:_(\n  a^#1:*expr.Expr_IdentExpr#,\n  b^#3:*expr.Expr_IdentExpr#,\n  c^#4:*expr.Expr_IdentExpr#\n)^#2:*expr.Expr_CallExpr#'],
    ['x in [1]', '@in(\n  x^#1:*expr.Expr_IdentExpr#,\n  [\n    1^#4:*expr.Constant_Int64Value#\n  ]^#3:*expr.Expr_ListExpr#\n)^#2:*expr.Expr_CallExpr#'],
    ['a[0]', '_[_](\n  a^#1:*expr.Expr_IdentExpr#,\n  0^#3:*expr.Constant_Int64Value#\n)^#2:*expr.Expr_CallExpr#'],
    // has(): the call's id is dropped; the test-only select takes the next one.
    ['has(m.f)', 'm^#2:*expr.Expr_IdentExpr#.f~test-only~^#4:*expr.Expr_SelectExpr#'],
    // Comments and trailing commas.
    ['[1, 2,] // two', '[\n  1^#2:*expr.Constant_Int64Value#,\n  2^#3:*expr.Constant_Int64Value#\n]^#1:*expr.Expr_ListExpr#'],
  ];
  for (const [text, want] of cases) assert.equal(ast(text), want, text);
});

test('macro expansion: ids at the call, comprehension shapes as cel-go', () => {
  assert.equal(
    ast('m.exists(v, f)'),
    [
      '__comprehension__(',
      '  // Variable',
      '  v,',
      '  // Target',
      '  m^#1:*expr.Expr_IdentExpr#,',
      '  // Accumulator',
      '  @result,',
      '  // Init',
      '  false^#5:*expr.Constant_BoolValue#,',
      '  // LoopCondition',
      '  @not_strictly_false(',
      '    !_(',
      '      @result^#6:*expr.Expr_IdentExpr#',
      '    )^#7:*expr.Expr_CallExpr#',
      '  )^#8:*expr.Expr_CallExpr#,',
      '  // LoopStep',
      '  _||_(',
      '    @result^#9:*expr.Expr_IdentExpr#,',
      '    f^#4:*expr.Expr_IdentExpr#',
      '  )^#10:*expr.Expr_CallExpr#,',
      '  // Result',
      '  @result^#11:*expr.Expr_IdentExpr#)^#12:*expr.Expr_ComprehensionExpr#',
    ].join('\n'),
  );
  // Every expansion node sits at the call's '(' (offset 8 here).
  const r = parse('m.exists(v, f)');
  assert.ok(r.parsed);
  for (const id of [5, 6, 7, 8, 9, 10, 11, 12]) assert.equal(r.parsed.sourceInfo.positions.get(id), 8, `id ${id}`);
  assert.equal(r.parsed.sourceInfo.positions.get(1), 0);
  // The call's own id (2) is released; the iteration variable's ident (3) stays in the macro call.
  assert.equal(r.parsed.sourceInfo.positions.has(2), false);
  const call = r.parsed.sourceInfo.macroCalls.get(12);
  assert.ok(call && call.kind === 'call');
  assert.equal(toDebugString(call, idKindAdorner(r.parsed.sourceInfo)), 'm^#1:*expr.Expr_IdentExpr#.exists(\n  v^#3:*expr.Expr_IdentExpr#,\n  f^#4:*expr.Expr_IdentExpr#\n)^#0:*expr.Expr_CallExpr#');
});

test('macro sets behind options', () => {
  // Standard macros off: plain calls.
  assert.equal(ast('has(a.b)', { macros: false }), 'has(\n  a^#2:*expr.Expr_IdentExpr#.b^#3:*expr.Expr_SelectExpr#\n)^#1:*expr.Expr_CallExpr#');
  // cel.bind only with bindings, and only on the `cel` namespace.
  assert.match(ast('cel.bind(x, 1, x + 1)'), /^cel\^#1:\*expr\.Expr_IdentExpr#\.bind\(/);
  const bound = ast('cel.bind(x, 1, x + 1)', { bindings: true });
  assert.match(bound, /^__comprehension__\(\n {2}\/\/ Variable\n {2}#unused,\n {2}\/\/ Target\n {2}\[\]/);
  assert.match(bound, /\/\/ Accumulator\n {2}x,\n {2}\/\/ Init\n {2}1\^#4/);
  assert.match(ast('other.bind(x, 1, x)', { bindings: true }), /^other\^#1:\*expr\.Expr_IdentExpr#\.bind\(/);
  // Two-variable comprehensions.
  assert.match(ast('m.all(k, v, k < v)', { twoVarComprehensions: true }), /^__comprehension__\(\n {2}\/\/ Variable\n {2}k,\n {2}v,\n/);
  assert.match(ast('m.all(k, v, k < v)'), /^m\^#1:\*expr\.Expr_IdentExpr#\.all\(/);
  assert.match(ast('l.transformMap(i, v, v * 2)', { twoVarComprehensions: true }), /cel\.@mapInsert\(/);
  // optMap: a conditional over hasValue() with a copy of the target.
  const opt = ast('o.optMap(v, v + 1)', { optionalMacros: true });
  assert.match(opt, /^_\?_:_\(\n {2}o\^#1:\*expr\.Expr_IdentExpr#\.hasValue\(\)/);
  assert.match(opt, /optional\.of\(/);
  assert.match(opt, /optional\.none\(\)/);
  assert.match(opt, /o\^#\d+:\*expr\.Expr_IdentExpr#\.value\(\)/);
});

test('macro errors', () => {
  const cases: [string, ParseOptions | undefined, string][] = [
    ['has(m)', undefined, "ERROR: <input>:1:5: invalid argument to has() macro\n | has(m)\n | ....^"],
    ['[].all(1, true)', undefined, 'ERROR: <input>:1:8: argument must be a simple name\n | [].all(1, true)\n | .......^'],
    ['[].map(a.b, 1)', undefined, 'ERROR: <input>:1:9: argument is not an identifier\n | [].map(a.b, 1)\n | ........^'],
    ['[].exists(@result, true)', undefined, "ERROR: <input>:1:11: Syntax error: token recognition error at: '@'\n | [].exists(@result, true)\n | ..........^"],
    ['[].exists(__result__, true)', undefined, 'ERROR: <input>:1:11: iteration variable overwrites accumulator variable\n | [].exists(__result__, true)\n | ..........^'],
    ['m.all(k, k, true)', { twoVarComprehensions: true }, 'ERROR: <input>:1:10: duplicate variable name: k\n | m.all(k, k, true)\n | .........^'],
    ['cel.bind(a.b, 1, 2)', { bindings: true }, 'ERROR: <input>:1:11: cel.bind() variable names must be simple identifiers\n | cel.bind(a.b, 1, 2)\n | ..........^'],
    ['o.optMap(1, 2)', { optionalMacros: true }, 'ERROR: <input>:1:10: optMap() variable name must be a simple identifier\n | o.optMap(1, 2)\n | .........^'],
  ];
  for (const [text, opts, want] of cases) assert.equal(errors(text, opts), want, text);
});

test('literals', () => {
  const cases: [string, Constant][] = [
    ['0', { type: 'int', value: 0n }],
    ['9223372036854775807', { type: 'int', value: 9223372036854775807n }],
    ['-9223372036854775808', { type: 'int', value: -9223372036854775808n }],
    ['0x7fffffffffffffff', { type: 'int', value: 0x7fffffffffffffffn }],
    ['-0x10', { type: 'int', value: -16n }],
    ['18446744073709551615u', { type: 'uint', value: 18446744073709551615n }],
    ['0xFFU', { type: 'uint', value: 255n }],
    ['1.5', { type: 'double', value: 1.5 }],
    ['1e3', { type: 'double', value: 1000 }],
    ['.5', { type: 'double', value: 0.5 }],
    ['2.5E-1', { type: 'double', value: 0.25 }],
    ['-1.5', { type: 'double', value: -1.5 }],
    ['true', { type: 'bool', value: true }],
    ['null', { type: 'null' }],
    ['"a\\tb"', { type: 'string', value: 'a\tb' }],
    ["'\\a\\b\\f\\n\\r\\t\\v\\\\\\'\\\"\\`\\?'", { type: 'string', value: '\x07\b\f\n\r\t\v\\\'"`?' }],
    ['"\\101\\x41\\X41\\u0041\\U00000041"', { type: 'string', value: 'AAAAA' }],
    ['"\\xff"', { type: 'string', value: '\u00ff' }],
    ['"\\U0001F600"', { type: 'string', value: '😀' }],
    ["r'\\n'", { type: 'string', value: '\\n' }],
    ['R"\\d+"', { type: 'string', value: '\\d+' }],
    ['"""two\nlines"""', { type: 'string', value: 'two\nlines' }],
    ["'''a\r\nb'''", { type: 'string', value: 'a\nb' }],
    ["r'''\\x'''", { type: 'string', value: '\\x' }],
    ['b"\\xff\\377a"', { type: 'bytes', value: new Uint8Array([0xff, 0xff, 0x61]) }],
    ['B"é"', { type: 'bytes', value: new Uint8Array([0xc3, 0xa9]) }],
    ["br'\\x'", { type: 'bytes', value: new Uint8Array([0x5c, 0x78]) }],
    ['""', { type: 'string', value: '' }],
  ];
  for (const [text, want] of cases) assert.deepEqual(constant(text), want, text);
});

test('syntax and literal errors with cel-go wording and positions', () => {
  const cases: [string, string][] = [
    ['9223372036854775808', 'ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808\n | ^'],
    ['-9223372036854775809', 'ERROR: <input>:1:1: invalid int literal\n | -9223372036854775809\n | ^'],
    ['18446744073709551616u', 'ERROR: <input>:1:1: invalid uint literal\n | 18446744073709551616u\n | ^'],
    ['1e999', 'ERROR: <input>:1:1: invalid double literal\n | 1e999\n | ^'],
    ['"\\ud800"', 'ERROR: <input>:1:1: invalid unicode code point\n | "\\ud800"\n | ^'],
    ['b"\\u0041"', 'ERROR: <input>:1:1: unable to unescape string\n | b"\\u0041"\n | ^'],
    ["'abc", "ERROR: <input>:1:1: Syntax error: token recognition error at: ''abc'\n | 'abc\n | ^\nERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 'abc\n | ....^"],
    ['a = b', "ERROR: <input>:1:3: Syntax error: token recognition error at: '= '\n | a = b\n | ..^\nERROR: <input>:1:5: Syntax error: extraneous input 'b' expecting <EOF>\n | a = b\n | ....^"],
    ['(a', "ERROR: <input>:1:3: Syntax error: missing ')' at '<EOF>'\n | (a\n | ..^"],
    ['if', 'ERROR: <input>:1:1: reserved identifier: if\n | if\n | ^'],
    ['while(1)', 'ERROR: <input>:1:1: reserved identifier: while\n | while(1)\n | ^'],
    ['a.b c', "ERROR: <input>:1:5: Syntax error: extraneous input 'c' expecting <EOF>\n | a.b c\n | ....^"],
    ['x.?y', "ERROR: <input>:1:2: unsupported syntax '.?'\n | x.?y\n | .^"],
    ['é', "ERROR: <input>:1:1: Syntax error: token recognition error at: 'é'\n | é\n | ＾\nERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | é\n | ．^"],
  ];
  for (const [text, want] of cases) assert.equal(errors(text), want, text);
});

test('optional syntax when enabled', () => {
  const o = { optionalSyntax: true };
  assert.equal(ast('a.?b', o), '_?._(\n  a^#1:*expr.Expr_IdentExpr#,\n  "b"^#2:*expr.Constant_StringValue#\n)^#3:*expr.Expr_CallExpr#');
  assert.equal(ast('a[?0]', o), '_[?_](\n  a^#1:*expr.Expr_IdentExpr#,\n  0^#3:*expr.Constant_Int64Value#\n)^#2:*expr.Expr_CallExpr#');
  const list = parse('[?a, b]', o);
  assert.ok(list.parsed && list.parsed.expr.kind === 'list');
  assert.deepEqual(list.parsed.expr.optionalIndices, [0]);
  const map = parse('{?"k": v}', o);
  assert.ok(map.parsed && map.parsed.expr.kind === 'map');
  assert.equal(map.parsed.expr.entries[0].optional, true);
  const msg = parse('T{?f: v}', o);
  assert.ok(msg.parsed && msg.parsed.expr.kind === 'struct');
  assert.equal(msg.parsed.expr.fields[0].optional, true);
  assert.equal(ast('[?a]', o).startsWith('['), true);
});

test('escaped identifiers', () => {
  assert.equal(ast('a.`b-c`'), 'a^#1:*expr.Expr_IdentExpr#.b-c^#2:*expr.Expr_SelectExpr#');
  const r = parse('T{`in`: 1}');
  assert.ok(r.parsed && r.parsed.expr.kind === 'struct');
  assert.equal(r.parsed.expr.fields[0].name, 'in');
  assert.equal(errors('a.`b`', { identEscapeSyntax: false }), "ERROR: <input>:1:3: unsupported syntax: '`'\n | a.`b`\n | ..^");
});

test('positions are code point offsets; line offsets', () => {
  const r = parse("'😀' + x\n  + y");
  assert.ok(r.parsed);
  const { positions, lineOffsets } = r.parsed.sourceInfo;
  assert.deepEqual(lineOffsets, [0, 8]);
  // '😀' is one code point: the string starts at 0, `+` at 4, x at 6, y at 12.
  const e = r.parsed.expr;
  assert.ok(e.kind === 'call');
  const inner = e.args[0];
  assert.ok(inner.kind === 'call');
  assert.equal(positions.get(inner.args[0].id), 0);
  assert.equal(positions.get(inner.id), 4);
  assert.equal(positions.get(inner.args[1].id), 6);
  assert.equal(positions.get(e.args[1].id), 12);
  assert.deepEqual(locationOf(12, lineOffsets), { line: 2, column: 4 });
  // Built on first use, then the same objects.
  assert.equal(r.parsed.sourceInfo.positions, positions);
  assert.equal(r.parsed.sourceInfo.lineOffsets, lineOffsets);
});

test('limits', () => {
  assert.equal(
    errors('a.b.c.d', { maxRecursionDepth: 2 }),
    'ERROR: <input>:-1:0: max recursion depth exceeded',
  );
  assert.ok(parse('a.b.c', { maxRecursionDepth: 2 }).parsed);
  assert.equal(
    errors('[[[1]]]', { maxRecursionDepth: 3 }),
    'ERROR: <input>:-1:0: expression recursion limit exceeded: 3',
  );
  assert.equal(
    errors('1 + 1', { expressionSizeCodePointLimit: 3 }),
    'ERROR: <input>:-1:0: expression code point size exceeds limit: size: 5, limit 3',
  );
  // The default depth (250) admits 200 nested lists and refuses 300.
  assert.ok(parse('['.repeat(200) + ']'.repeat(200)).parsed);
  assert.match(errors('['.repeat(300) + ']'.repeat(300)), /expression recursion limit exceeded: 250/);
  assert.throws(() => parse('a', { maxRecursionDepth: -2 }), new ParseOptionError('max recursion depth must be greater than or equal to -1: -2'));
  assert.throws(() => parse('a', { errorRecoveryLookaheadLimit: -1 }), new ParseOptionError('error recovery lookahead token limit must be at least 1: -1'));
  // Without a limit, nesting deeper than JavaScript's stack is an issue, not a crash.
  assert.equal(errors('('.repeat(20000) + ')'.repeat(20000), { maxRecursionDepth: -1 }), 'ERROR: <input>:-1:0: max recursion depth exceeded');
  // Too many syntax errors: cel-go stops at the reporting limit.
  assert.equal(
    errors('$$$', { errorReportingLimit: 2 }),
    "ERROR: <input>:1:1: Syntax error: token recognition error at: '$'\n | $$$\n | ^\n" +
      "ERROR: <input>:1:2: Syntax error: token recognition error at: '$'\n | $$$\n | .^\n" +
      'ERROR: <input>:1:3: Syntax error: More than 2 syntax errors\n | $$$\n | ..^',
  );
});

test('accumulator name: @result, or __result__ as older cel-go', () => {
  assert.match(ast('m.all(x, x)'), /\/\/ Accumulator\n {2}@result,/);
  const legacy = ast('m.all(x, x)', { hiddenAccumulatorName: false });
  assert.match(legacy, /\/\/ Accumulator\n {2}__result__,/);
  assert.match(legacy, /__result__\^#\d+:\*expr\.Expr_IdentExpr#\)\^#\d+:\*expr\.Expr_ComprehensionExpr#$/);
  // Either name is refused as an iteration variable.
  assert.match(errors('m.all(__result__, true)', { hiddenAccumulatorName: false }), /iteration variable overwrites accumulator variable/);
});

test('syntax errors count toward the reporting limit in the order the lexer meets them', () => {
  // The parser looks ahead past `tru` to EOF, so both '^' lexer errors come before its own.
  assert.equal(
    errors(`'3# < 10" '& tru ^^`, { errorReportingLimit: 2 }),
    [
      "ERROR: <input>:1:12: Syntax error: token recognition error at: '& '",
      ` | '3# < 10" '& tru ^^`,
      ' | ...........^',
      "ERROR: <input>:1:18: Syntax error: token recognition error at: '^'",
      ` | '3# < 10" '& tru ^^`,
      ' | .................^',
      'ERROR: <input>:1:19: Syntax error: More than 2 syntax errors',
      ` | '3# < 10" '& tru ^^`,
      ' | ..................^',
    ].join('\n'),
  );
});

test('variadic logical operators', () => {
  assert.equal(
    ast('a && b && c', { variadicLogicalOperators: true }),
    '_&&_(\n  a^#1:*expr.Expr_IdentExpr#,\n  b^#2:*expr.Expr_IdentExpr#,\n  c^#4:*expr.Expr_IdentExpr#\n)^#3:*expr.Expr_CallExpr#',
  );
});

/** cel-go's test rendering of SourceInfo.macroCalls: by id, descending, each call under its expansion's id. */
function macroCallsString(text: string): string {
  const r = parse(text);
  assert.ok(r.parsed);
  const info = r.parsed.sourceInfo;
  return [...info.macroCalls.keys()]
    .sort((a, b) => b - a)
    .map((id) => {
      const call = info.macroCalls.get(id);
      assert.ok(call && call.kind === 'call');
      return toDebugString({ ...call, id }, idKindAdorner(info));
    })
    .join(',\n');
}

test('macro calls are recorded with nested expansions as references', () => {
  assert.equal(
    macroCallsString('has(a.b).filter(c, c)'),
    [
      '^#4:has#.filter(',
      '  c^#6:*expr.Expr_IdentExpr#,',
      '  c^#7:*expr.Expr_IdentExpr#',
      ')^#16:filter#,',
      'has(',
      '  a^#2:*expr.Expr_IdentExpr#.b^#3:*expr.Expr_SelectExpr#',
      ')^#4:has#',
    ].join('\n'),
  );
  assert.equal(
    macroCallsString('x.filter(y, y.filter(z, z > 0))'),
    [
      'x^#1:*expr.Expr_IdentExpr#.filter(',
      '  y^#3:*expr.Expr_IdentExpr#,',
      '  ^#18:filter#',
      ')^#27:filter#,',
      'y^#4:*expr.Expr_IdentExpr#.filter(',
      '  z^#6:*expr.Expr_IdentExpr#,',
      '  _>_(',
      '    z^#7:*expr.Expr_IdentExpr#,',
      '    0^#9:*expr.Constant_Int64Value#',
      '  )^#8:*expr.Expr_CallExpr#',
      ')^#18:filter#',
    ].join('\n'),
  );
  assert.equal(parse('has(a.b)', { populateMacroCalls: false }).parsed?.sourceInfo.macroCalls.size, 0);
});

test('negation that cannot continue: ANTLR no viable alternative, then the minus read as binary', () => {
  const expecting = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
  assert.equal(
    errors('-'),
    `ERROR: <input>:1:2: Syntax error: no viable alternative at input '-'\n | -\n | .^\nERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting ${expecting}\n | -\n | .^`,
  );
  assert.equal(
    errors('a + -!b'),
    `ERROR: <input>:1:6: Syntax error: no viable alternative at input '-!'\n | a + -!b\n | .....^`,
  );
  // `!` then `-` is fine when a number follows (a negative literal).
  assert.equal(ast('!-2'), '!_(\n  -2^#2:*expr.Constant_Int64Value#\n)^#1:*expr.Expr_CallExpr#');
});
