import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, parseDuration, parseFlags, parseMap, usage, type FlagSpec } from './flags.js';

const specs: FlagSpec[] = [
  { name: 'data-dir', type: 'string', help: '', default: './data' },
  { name: 'secure-port', type: 'int', help: '', default: 6443 },
  { name: 'verbose', type: 'bool', help: '' },
  { name: 'etcd-servers', type: 'strings', help: '' },
  { name: 'request-timeout', type: 'duration', help: '', default: 60_000 },
  { name: 'runtime-config', type: 'map', help: '' },
  { name: 'issuer', type: 'stringArray', help: '' },
  { name: 'audiences', type: 'strings', help: '', default: ['default'] },
];

describe('parseFlags', () => {
  const ok: [string[], Record<string, unknown>][] = [
    [[], { 'data-dir': './data', 'secure-port': 6443 }],
    [['--data-dir=/x'], { 'data-dir': '/x' }],
    [['--data-dir', '/y', '--secure-port=7000'], { 'data-dir': '/y', 'secure-port': 7000 }],
    [['--verbose'], { verbose: true }],
    [['--verbose=false'], { verbose: false }],
    [['--etcd-servers=http://a:2379,http://b:2379'], { 'etcd-servers': ['http://a:2379', 'http://b:2379'] }],
    [['--etcd-servers=http://a:2379', '--etcd-servers', 'http://b:2379,http://c:2379'], { 'etcd-servers': ['http://a:2379', 'http://b:2379', 'http://c:2379'] }],
    [['--request-timeout=1m30s'], { 'request-timeout': 90_000 }],
    [['-secure-port=1'], { 'secure-port': 1 }],
    [['--runtime-config=api/all=false,api/v1=true'], { 'runtime-config': { 'api/all': 'false', 'api/v1': 'true' } }],
    [['--runtime-config', 'a/v1, b/v1 = false ,,c/v1='], { 'runtime-config': { 'a/v1': '', 'b/v1': 'false', 'c/v1': '' } }],
    [['--runtime-config=a/v1=true,b/v1', '--runtime-config=a/v1=false'], { 'runtime-config': { 'a/v1': 'false', 'b/v1': '' } }],
    // pflag's StringArray (no comma splitting) and StringSlice: a repeated flag adds up, the first use replaces the default
    [['--issuer=https://a,b', '--issuer', 'https://c'], { issuer: ['https://a,b', 'https://c'] }],
    [[], { audiences: ['default'] }],
    [['--audiences=a,b', '--audiences=c'], { audiences: ['a', 'b', 'c'] }],
  ];
  for (const [argv, want] of ok) {
    it(`accepts ${argv.join(' ') || '(nothing)'}`, () => {
      const { values } = parseFlags(specs, argv);
      for (const [k, v] of Object.entries(want)) assert.deepEqual(values.get(k), v);
    });
  }
  const bad: [string[], RegExp][] = [
    [['--nope'], /unknown flag: --nope/],
    [['--secure-port=abc'], /invalid value "abc" for --secure-port: must be an integer/],
    [['--secure-port'], /flag needs an argument: --secure-port/],
    [['--verbose=maybe'], /must be true or false/],
    [['--request-timeout=10'], /invalid duration "10"/],
  ];
  for (const [argv, re] of bad) {
    it(`rejects ${argv.join(' ')}`, () => assert.throws(() => parseFlags(specs, argv), (e: unknown) => e instanceof FlagError && re.test(e.message)));
  }
  it('keeps positional arguments', () => assert.deepEqual(parseFlags(specs, ['a', '--verbose', 'b', '--', '--x']).args, ['a', 'b', '--x']));
});

describe('parseMap (kube\'s ConfigurationMap)', () => {
  const rows: [string, Record<string, string>][] = [
    ['', {}],
    ['a=1', { a: '1' }],
    ['a', { a: '' }],
    ['a=b=c', { a: 'b=c' }],
    [' a = x , b ,', { a: 'x', b: '' }],
    ['a=1,a=2', { a: '2' }],
  ];
  for (const [raw, want] of rows) it(JSON.stringify(raw), () => assert.deepEqual(parseMap(raw), want));
});

describe('parseDuration', () => {
  for (const [s, ms] of [['0', 0], ['300ms', 300], ['1.5s', 1500], ['2h45m', 9_900_000], ['-1s', -1000]] as const) {
    it(s, () => assert.equal(parseDuration(s), ms));
  }
});

describe('deprecated flags (pflag MarkDeprecated)', () => {
  const dep: FlagSpec[] = [
    { name: 'old', type: 'strings', help: 'Old list.', deprecated: 'Use --new instead.' },
    { name: 'new', type: 'strings', help: 'New list.' },
  ];
  it('a use prints pflag\'s notice once per flag; unused or current flags print nothing', () => {
    assert.deepEqual(parseFlags(dep, ['--old=a', '--old', 'b', '--new=c']).warnings, ['Flag --old has been deprecated, Use --new instead.']);
    assert.deepEqual(parseFlags(dep, ['--new=c']).warnings, []);
    assert.deepEqual(parseFlags(dep, ['--old=a', '--old=b']).values.get('old'), ['a', 'b']);
  });
  it('the help marks it', () => assert.match(usage(dep), /--old strings\n {6}Old list\. \(DEPRECATED: Use --new instead\.\)/));
});
