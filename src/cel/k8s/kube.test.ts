// Kubernetes' own expectations for its CEL libraries, as data
// (apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go v1.27,
// TestValidationExpressions: the formats, escaping, map keys, "stdlib list
// functions", "stdlib regex functions", "URL parsing"): each valid rule evaluates to true on kube's
// object and schema; each error case fails with kube's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OverloadImpl } from '../decls.js';
import type { Type } from '../types.js';
import { CelError } from '../values.js';
import { parse } from '../parser/index.js';
import { buildCheckEnv, check } from '../checker/index.js';
import { plan } from '../interpreter/planner.js';
import { Program } from '../interpreter/program.js';
import { standardLibrary, stringsLibrary } from '../stdlib/index.js';
import { schemaType, type Schema } from './schema.js';
import { k8sLibraries } from './index.js';

const LIBRARIES = [standardLibrary, stringsLibrary, ...k8sLibraries];
const IMPLS = new Map<string, OverloadImpl>(LIBRARIES.flatMap((l) => l.impls.map((i) => [i.id, i] as const)));

/** Compiles a rule with `self` of the schema's type: the program, or the checker's messages. */
function compile(rule: string, self: Type): Program | string {
  const parsed = parse(rule);
  if (!parsed.parsed) return parsed.issues.map((i) => i.message).join('; ');
  const env = buildCheckEnv({ libraries: LIBRARIES, variables: { self }, homogeneousAggregateLiterals: true });
  const r = check(parsed.parsed, env);
  if (!r.checked) return r.issues.map((i) => i.message).join('; ');
  return new Program(plan({ expr: r.checked.expr, types: r.checked.types, refs: r.checked.refs }, { functions: env.functions, impls: IMPLS, variables: env.variables }));
}

interface Case {
  name: string;
  /** The root of a resource (kube's isRoot). */
  root?: boolean;
  schema: Schema;
  obj: unknown;
  valid: string[];
  errors: Record<string, string>;
}

const list = (items: Schema): Schema => ({ type: 'array', items });
const integer: Schema = { type: 'integer' };
const number: Schema = { type: 'number' };
const string: Schema = { type: 'string' };
const duration: Schema = { type: 'string', format: 'duration' };
const date: Schema = { type: 'string', format: 'date' };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const vals = (schema: Schema): Schema => ({ type: 'object', properties: { val1: schema, val2: schema } });
/** kube's ValsEqualThemselvesAndDataLiteral. */
const valsEqual = (a: string, b: string, lit: string): string => `${a} == ${b} && ${b} == ${a} && ${a} == ${lit} && ${lit} == ${a} && ${b} == ${lit} && ${lit} == ${b}`;
const ESCAPING_NAMES: [string, number | string][] = [
  ['true', 1], ['false', 2], ['null', 3], ['in', 4], ['as', 5], ['break', 6], ['const', 7], ['continue', 8], ['else', 9],
  ['for', 10], ['function', 11], ['if', 12], ['import', 13], ['let', 14], ['loop', 15], ['package', 16], ['namespace', 17],
  ['return', 18], ['var', 19], ['void', 20], ['while', 21],
  ['int', 101], ['uint', 102], ['double', 103], ['bool', 104], ['string', 105], ['bytes', 106], ['list', 107], ['map', 108],
  ['null_type', 109], ['type', 110], ['self', 201], ['getDate', 202], ['all', 203], ['size', '204'], ['_true', 301],
  ['dot.dot', 401], ['dash-dash', 402], ['slash/slash', 403], ['underscore_underscore', 404], ['doubleunderscore__doubleunderscore', 405],
];

const POD = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' }, spec: { field1: 'a' } };
const META_RULES = ["self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'"];
const embeddedRules = (more: string[] = []): string[] => [...META_RULES.map((r) => r.replace('self.', 'self.embedded.')), ...more];
const intOrString: Schema = { 'x-kubernetes-int-or-string': true };

const CASES: Case[] = [
  {
    name: 'typemeta and objectmeta access specified',
    schema: { type: 'object', properties: { kind: string, apiVersion: string, metadata: { type: 'object', properties: { name: string, generateName: string } } } },
    obj: { apiVersion: 'v1', kind: 'Pod', metadata: POD.metadata },
    valid: META_RULES,
    errors: { 'has(self.metadata.namespace)': "undefined field 'namespace'" },
  },
  {
    name: 'typemeta and objectmeta access not specified',
    root: true,
    schema: { type: 'object', properties: { spec: { type: 'object', properties: { field1: string } } } },
    obj: POD,
    valid: [...META_RULES, "self.spec.field1 == 'a'"],
    errors: { 'has(self.metadata.namespace)': "undefined field 'namespace'" },
  },
  {
    name: 'embedded object',
    schema: { type: 'object', properties: { embedded: { type: 'object', 'x-kubernetes-embedded-resource': true } } },
    obj: { embedded: POD },
    valid: embeddedRules(),
    errors: { 'has(self.embedded.metadata.namespace)': "undefined field 'namespace'", 'has(self.embedded.spec)': "undefined field 'spec'" },
  },
  {
    name: 'embedded object with properties',
    schema: {
      type: 'object',
      properties: {
        embedded: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            kind: string, apiVersion: string,
            metadata: { type: 'object', properties: { name: string, generateName: string } },
            spec: { type: 'object', properties: { field1: string } },
          },
        },
      },
    },
    obj: { embedded: POD },
    valid: embeddedRules(["self.embedded.spec.field1 == 'a'"]),
    errors: { 'has(self.embedded.metadata.namespace)': "undefined field 'namespace'" },
  },
  {
    name: 'embedded object with preserve unknown',
    schema: { type: 'object', properties: { embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } },
    obj: { embedded: POD },
    valid: embeddedRules(['has(self.embedded)']),
    errors: { 'has(self.embedded.spec)': "undefined field 'spec'" },
  },
  {
    name: 'string in intOrString',
    schema: { type: 'object', properties: { something: intOrString } },
    obj: { something: '25%' },
    valid: [
      "self.something == '25%'", 'self.something != 1', "self.something == 1 || self.something == '25%'", "self.something == '25%' || self.something == 1",
      "type(self.something) == string && self.something == '25%'", "type(self.something) == int ? self.something == 1 : self.something == '25%'",
      "self.something != ['anything']",
    ],
    errors: {},
  },
  {
    name: 'int in intOrString',
    schema: { type: 'object', properties: { something: intOrString } },
    obj: { something: 1 },
    valid: [
      'self.something == 1', "self.something != 'some string'", "self.something == 1 || self.something == '25%'", "self.something == '25%' || self.something == 1",
      'type(self.something) == int && self.something == 1', "type(self.something) == int ? self.something == 1 : self.something == '25%'",
      "self.something != ['anything']",
    ],
    errors: {},
  },
  {
    name: 'percent comparison using intOrString',
    schema: { type: 'object', properties: { min: intOrString, current: integer, available: integer } },
    obj: { min: '50%', current: 5, available: 10 },
    valid: [
      "type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')",
      "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
    ],
    errors: {},
  },
  {
    name: 'duration format',
    schema: vals(duration),
    obj: { val1: '1h2m3s4ms', val2: '1h2m3s4ms' },
    valid: [
      valsEqual('self.val1', 'self.val2', "duration('1h2m3s4ms')"),
      "self.val1 == duration('1h2m') + duration('3s4ms')",
      'self.val1.getHours() == 1',
      'self.val1.getMinutes() == 62',
      'self.val1.getSeconds() == 3723',
      'self.val1.getMilliseconds() == 3723004',
      'type(self.val1) == google.protobuf.Duration',
    ],
    errors: {},
  },
  {
    name: 'date format',
    schema: vals(date),
    obj: { val1: '1997-07-16', val2: '1997-07-16' },
    valid: [
      valsEqual('self.val1', 'self.val2', "timestamp('1997-07-16T00:00:00.000Z')"),
      'self.val1.getDate() == 16',
      'self.val1.getMonth() == 06',
      'self.val1.getFullYear() == 1997',
      'type(self.val1) == google.protobuf.Timestamp',
    ],
    errors: {},
  },
  {
    name: 'date-time format',
    schema: vals(dateTime),
    obj: { val1: '2011-08-18T19:03:37.010000000+01:00', val2: '2011-08-18T19:03:37.010000000+01:00' },
    valid: [
      valsEqual('self.val1', 'self.val2', "timestamp('2011-08-18T19:03:37.010+01:00')"),
      "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
      "self.val1.getDate('01:00') == 18",
      "self.val1.getMonth('01:00') == 7",
      "self.val1.getFullYear('01:00') == 2011",
      "self.val1.getHours('01:00') == 19",
      "self.val1.getMinutes('01:00') == 03",
      "self.val1.getSeconds('01:00') == 37",
      "self.val1.getMilliseconds('01:00') == 10",
      "self.val1.getHours('UTC') == 18",
      'type(self.val1) == google.protobuf.Timestamp',
    ],
    errors: {},
  },
  {
    name: 'escaping',
    schema: { type: 'object', properties: Object.fromEntries(ESCAPING_NAMES.map(([k, v]) => [k, typeof v === 'string' ? string : integer])) },
    obj: Object.fromEntries(ESCAPING_NAMES),
    valid: [
      'self.__true__ == 1', 'self.__false__ == 2', 'self.__null__ == 3', 'self.__in__ == 4', 'self.__as__ == 5',
      'self.__break__ == 6', 'self.__const__ == 7', 'self.__continue__ == 8', 'self.__else__ == 9',
      'self.__for__ == 10', 'self.__function__ == 11', 'self.__if__ == 12', 'self.__import__ == 13',
      'self.__let__ == 14', 'self.__loop__ == 15', 'self.__package__ == 16', 'self.__namespace__ == 17',
      'self.__return__ == 18', 'self.__var__ == 19', 'self.__void__ == 20', 'self.__while__ == 21',
      'self.int == 101', 'self.uint == 102', 'self.double == 103', 'self.bool == 104',
      'self.string == 105', 'self.bytes == 106', 'self.list == 107', 'self.map == 108',
      'self.null_type == 109', 'self.type == 110',
      'self.self == 201', 'self.getDate == 202', 'self.all == 203', "self.size == '204'",
      'self._true == 301', 'self.__true__ != 301',
      'self.dot__dot__dot == 401', 'self.dash__dash__dash == 402', 'self.slash__slash__slash == 403',
      'self.underscore_underscore == 404', 'self.doubleunderscore__underscores__doubleunderscore == 405',
    ],
    errors: {
      'self.true == 1': "mismatched input 'true' expecting IDENTIFIER",
      'self == 201': "found no matching overload for '_==_'",
      'self.__illegal__ == 301': "undefined field '__illegal__'",
    },
  },
  {
    name: 'map keys are not escaped',
    schema: { type: 'object', properties: { m: { type: 'object', additionalProperties: integer } } },
    obj: { m: { '@': 1, '9': 2, int: 3, './-': 4, '👑': 5 } },
    valid: ["self.m['@'] == 1", "self.m['9'] == 2", "self.m['int'] == 3", "self.m['./-'] == 4", "self.m['👑'] == 5"],
    errors: {},
  },
  {
    name: 'stdlib list functions',
    schema: {
      type: 'object',
      properties: {
        ints: list(integer), unsortedInts: list(integer), emptyInts: list(integer),
        doubles: list(number), unsortedDoubles: list(number), emptyDoubles: list(number),
        intBackedDoubles: list(number), unsortedIntBackedDDoubles: list(number), emptyIntBackedDDoubles: list(number),
        durations: list(duration), unsortedDurations: list(duration), emptyDurations: list(duration),
        strings: list(string), unsortedStrings: list(string), emptyStrings: list(string),
        dates: list(date), unsortedDates: list(date), emptyDates: list(date),
        objs: list({ type: 'object', properties: { f1: string, f2: string } }),
      },
    },
    obj: {
      ints: [1, 2, 2, 3], unsortedInts: [2, 1], emptyInts: [],
      // JSON numbers: 1.5-style doubles are not needed, integral values are read as doubles by the schema.
      doubles: [1, 2, 2, 3], unsortedDoubles: [2, 1], emptyDoubles: [],
      intBackedDoubles: [1, 2, 2, 3], unsortedIntBackedDDoubles: [2, 1], emptyIntBackedDDoubles: [],
      durations: ['1s', '1m', '1m', '1h'], unsortedDurations: ['1m', '1s'], emptyDurations: [],
      strings: ['a', 'b', 'b', 'c'], unsortedStrings: ['b', 'a'], emptyStrings: [],
      dates: ['2000-01-01', '2000-02-01', '2000-02-01', '2010-01-01'], unsortedDates: ['2000-02-01', '2000-01-01'], emptyDates: [],
      objs: [{ f1: 'a', f2: 'a' }, { f1: 'a', f2: 'b' }, { f1: 'a', f2: 'b' }, { f1: 'a', f2: 'c' }],
    },
    valid: [
    "self.ints.sum() == 8",
    "self.ints.min() == 1",
    "self.ints.max() == 3",
    "self.emptyInts.sum() == 0",
    "self.ints.isSorted()",
    "self.emptyInts.isSorted()",
    "self.unsortedInts.isSorted() == false",
    "self.ints.indexOf(2) == 1",
    "self.ints.lastIndexOf(2) == 2",
    "self.ints.indexOf(10) == -1",
    "self.ints.lastIndexOf(10) == -1",
    "self.doubles.sum() == 8.0",
    "self.doubles.min() == 1.0",
    "self.doubles.max() == 3.0",
    "self.emptyDoubles.sum() == 0.0",
    "self.doubles.isSorted()",
    "self.emptyDoubles.isSorted()",
    "self.unsortedDoubles.isSorted() == false",
    "self.doubles.indexOf(2.0) == 1",
    "self.doubles.lastIndexOf(2.0) == 2",
    "self.doubles.indexOf(10.0) == -1",
    "self.doubles.lastIndexOf(10.0) == -1",
    "self.intBackedDoubles.sum() == 8.0",
    "self.intBackedDoubles.min() == 1.0",
    "self.intBackedDoubles.max() == 3.0",
    "self.emptyIntBackedDDoubles.sum() == 0.0",
    "self.intBackedDoubles.isSorted()",
    "self.emptyDoubles.isSorted()",
    "self.unsortedIntBackedDDoubles.isSorted() == false",
    "self.intBackedDoubles.indexOf(2.0) == 1",
    "self.intBackedDoubles.lastIndexOf(2.0) == 2",
    "self.intBackedDoubles.indexOf(10.0) == -1",
    "self.intBackedDoubles.lastIndexOf(10.0) == -1",
    "self.durations.sum() == duration('1h2m1s')",
    "self.durations.min() == duration('1s')",
    "self.durations.max() == duration('1h')",
    "self.emptyDurations.sum() == duration('0')",
    "self.durations.isSorted()",
    "self.emptyDurations.isSorted()",
    "self.unsortedDurations.isSorted() == false",
    "self.durations.indexOf(duration('1m')) == 1",
    "self.durations.lastIndexOf(duration('1m')) == 2",
    "self.durations.indexOf(duration('2m')) == -1",
    "self.durations.lastIndexOf(duration('2m')) == -1",
    "self.strings.min() == 'a'",
    "self.strings.max() == 'c'",
    "self.strings.isSorted()",
    "self.emptyStrings.isSorted()",
    "self.unsortedStrings.isSorted() == false",
    "self.strings.indexOf('b') == 1",
    "self.strings.lastIndexOf('b') == 2",
    "self.strings.indexOf('x') == -1",
    "self.strings.lastIndexOf('x') == -1",
    "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
    "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
    "self.dates.isSorted()",
    "self.emptyDates.isSorted()",
    "self.unsortedDates.isSorted() == false",
    "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
    "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
    "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
    "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
    "[[1], [2]].indexOf([1]) == 0",
    "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
    "self.objs.indexOf(self.objs[1]) == 1",
    "self.objs.lastIndexOf(self.objs[1]) == 2",
    "([0] + self.emptyInts).min() == 0",
    "dyn([]).sum() == 0",
    "dyn([1, 2]).sum() == 3",
    "dyn([1.0, 2.0]).sum() == 3.0",
    "[].sum() == 0",
  ],
    errors: {
    "self.emptyInts.min() == 1": "min called on empty list",
    "self.emptyInts.max() == 3": "max called on empty list",
    "self.emptyDoubles.min() == 1.0": "min called on empty list",
    "self.emptyDoubles.max() == 3.0": "max called on empty list",
    "self.emptyStrings.min() == 'a'": "min called on empty list",
    "self.emptyStrings.max() == 'c'": "max called on empty list",
    "['a', 'b'].sum() == 'c'": "found no matching overload for 'sum' applied to 'list(string).()",
    "[[1], [2]].min() == [1]": "found no matching overload for 'min' applied to 'list(list(int)).()",
    "[{'a': 1}, {'b': 2}].max() == {'b': 2}": "found no matching overload for 'max' applied to 'list(map(string, int)).()",
  },
  },
  {
    name: 'stdlib regex functions',
    schema: { type: 'object', properties: { str: string } },
    obj: { str: 'this is a 123 string 456' },
    valid: [
    "self.str.find('[0-9]+') == '123'",
    "self.str.find('[0-9]+') != '456'",
    "self.str.find('xyz') == ''",
    "self.str.findAll('[0-9]+') == ['123', '456']",
    "self.str.findAll('[0-9]+', 0) == []",
    "self.str.findAll('[0-9]+', 1) == ['123']",
    "self.str.findAll('[0-9]+', 2) == ['123', '456']",
    "self.str.findAll('[0-9]+', 3) == ['123', '456']",
    "self.str.findAll('[0-9]+', -1) == ['123', '456']",
    "self.str.findAll('xyz') == []",
    "self.str.findAll('xyz', 1) == []",
  ],
    // kube reports a bad constant pattern when the program is built (its regex
    // optimization precompiles it); the Go error text is the same at runtime.
    errors: {
    "self.str.find(')') == ''": "error parsing regexp: unexpected ): `)`",
    "self.str.findAll(')') == []": "error parsing regexp: unexpected ): `)`",
    "self.str.findAll(')', 1) == []": "error parsing regexp: unexpected ): `)`",
  },
  },
  {
    name: 'URL parsing',
    schema: { type: 'object', properties: { url: string } },
    obj: { url: 'https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor' },
    valid: [
    "url('/path').getScheme() == ''",
    "url('https://example.com/').getScheme() == 'https'",
    "url('https://example.com:80/').getHost() == 'example.com:80'",
    "url('https://example.com/').getHost() == 'example.com'",
    "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]/').getHost() == '[::1]'",
    "url('/path').getHost() == ''",
    "url('https://example.com:80/').getHostname() == 'example.com'",
    "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
    "url('https://[::1]/').getHostname() == '::1'",
    "url('/path').getHostname() == ''",
    "url('https://example.com:80/').getPort() == '80'",
    "url('https://example.com/').getPort() == ''",
    "url('/path').getPort() == ''",
    "url('https://example.com/path').getEscapedPath() == '/path'",
    "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    "url('https://example.com/path').getQuery() == {}",
    "url(self.url).getScheme() == 'https'",
    "url(self.url).getHost() == 'kubernetes.io:80'",
    "url(self.url).getHostname() == 'kubernetes.io'",
    "url(self.url).getPort() == '80'",
    "url(self.url).getEscapedPath() == '/docs/home'",
    "url(self.url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
    "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
    "isURL('/path') == true",
    "isURL('https://a:b:c/') == false",
    "isURL('../relative-path') == false",
  ],
    errors: {},
  },
];

test("kube's library expectations (validation_test.go v1.27)", () => {
  let checked = 0;
  for (const c of CASES) {
    const self = schemaType(c.schema, c.root ? { name: 'selfType0', resourceRoot: true } : { name: 'selfType0' })!;
    for (const rule of c.valid) {
      const p = compile(rule, self);
      assert.ok(p instanceof Program, `${c.name}: ${rule}: ${String(p)}`);
      let got: unknown;
      try {
        got = p.eval({ self: c.obj });
      } catch (e) {
        got = e;
      }
      assert.equal(got, true, `${c.name}: ${rule}`);
      checked++;
    }
    for (const [rule, message] of Object.entries(c.errors)) {
      const p = compile(rule, self);
      if (typeof p === 'string') assert.ok(p.includes(message), `${c.name}: ${rule}: ${p}`);
      else assert.throws(() => p.eval({ self: c.obj }), (e: unknown) => e instanceof CelError && e.message.includes(message), `${c.name}: ${rule}`);
      checked++;
    }
  }
  assert.equal(checked, 5 + 6 + 6 + 6 + 6 + 7 + 7 + 2 + 7 + 5 + 11 + 42 + 3 + 5 + 71 + 9 + 11 + 3 + 31);
});
