// The agent's flag parser: pflag's forms, kinds, repetition and errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentConfigError } from './errors.js';
import { parseFlagArgs, type FlagDef, type FlagValue } from './pflag.js';

const DEFS: FlagDef[] = [
  { name: 'name', kind: 'string', help: '' },
  { name: 'on', kind: 'bool', help: '' },
  { name: 'count', kind: 'int32', help: '' },
  { name: 'big', kind: 'int64', help: '' },
  { name: 'ratio', kind: 'float', help: '' },
  { name: 'wait', kind: 'duration', help: '' },
  { name: 'addr', kind: 'ip', help: '' },
  { name: 'list', kind: 'strings', help: '' },
  { name: 'pairs', kind: 'map', help: '', aliases: ['old-pairs'] },
  { name: 'hard', kind: 'langleMap', help: '' },
  { name: 'header', kind: 'multimap', help: '' },
  { name: 'gates', kind: 'boolMap', help: '' },
  { name: 'taints', kind: 'taints', help: '' },
  { name: 'version', kind: 'version', help: '' },
  { name: 'v', kind: 'int32', help: '', shorthand: 'v' },
  { name: 'help', kind: 'bool', help: '', shorthand: 'h' },
  { name: 'old', kind: 'string', help: '', deprecated: 'use --name.' },
];

describe('agent flags: pflag forms', () => {
  const rows: [string, string[], string, FlagValue][] = [
    ['--flag=value', ['--name=a'], 'name', 'a'],
    ['--flag value', ['--name', 'a'], 'name', 'a'],
    ['a value starting with a dash', ['--name', '-x'], 'name', '-x'],
    ['underscores read as dashes', ['--old_pairs=a=b'], 'pairs', { a: 'b' }],
    ['bare bool', ['--on'], 'on', true],
    ['bool =false', ['--on=false'], 'on', false],
    ['bool =F', ['--on=F'], 'on', false],
    ['int32', ['--count', '42'], 'count', 42],
    ['int32 hex', ['--count=0x10'], 'count', 16],
    ['negative int', ['--count=-1'], 'count', -1],
    ['int64', ['--big', '1000000'], 'big', 1_000_000],
    ['float', ['--ratio', '0.5'], 'ratio', 0.5],
    ['duration 1m30s', ['--wait', '1m30s'], 'wait', 90_000],
    ['duration 100ms', ['--wait=100ms'], 'wait', 100],
    ['duration 1.5h', ['--wait=1.5h'], 'wait', 5_400_000],
    ['ip v6', ['--addr=::1'], 'addr', '::1'],
    ['strings', ['--list=a,b'], 'list', ['a', 'b']],
    ['strings repeated add up', ['--list=a', '--list', 'b,c'], 'list', ['a', 'b', 'c']],
    ['strings quoted', ['--list="a,b",c'], 'list', ['a,b', 'c']],
    ['strings empty', ['--list='], 'list', []],
    ['map', ['--pairs', 'a=1, b = 2'], 'pairs', { a: '1', b: '2' }],
    ['map repeated merges', ['--pairs=a=1,b=2', '--pairs=b=3'], 'pairs', { a: '1', b: '3' }],
    ['map through alias then name', ['--old-pairs=a=1', '--pairs=c=3'], 'pairs', { a: '1', c: '3' }],
    ['langle map', ['--hard=memory.available<100Mi,nodefs.available<10%'], 'hard', { 'memory.available': '100Mi', 'nodefs.available': '10%' }],
    ['colon multimap repeats', ['--header', 'a:hello,b:again', '--header', 'b:beautiful'], 'header', { a: ['hello'], b: ['again', 'beautiful'] }],
    ['bool map', ['--gates=A=true,B=f'], 'gates', { A: true, B: false }],
    ['taints', ['--taints=k=v:NoSchedule,other:NoExecute'], 'taints', [{ key: 'k', value: 'v', effect: 'NoSchedule' }, { key: 'other', effect: 'NoExecute' }]],
    ['version bare', ['--version'], 'version', true],
    ['version raw', ['--version=raw'], 'version', 'raw'],
    ['shorthand -v 3', ['-v', '3'], 'v', 3],
    ['shorthand -v=3', ['-v=3'], 'v', 3],
    ['shorthand -v3', ['-v3'], 'v', 3],
    ['long --v', ['--v=2'], 'v', 2],
    ['shorthand -h', ['-h'], 'help', true],
    ['last value wins', ['--name=a', '--name=b'], 'name', 'b'],
  ];
  for (const [title, argv, name, want] of rows) {
    it(title, () => assert.deepEqual(parseFlagArgs(DEFS, argv).values.get(name), want));
  }

  it('keeps positional arguments and stops at --', () => {
    assert.deepEqual(parseFlagArgs(DEFS, ['x', '--on', '--', '--name', 'y']).args, ['x', '--name', 'y']);
  });
  it('a bool written with a space takes no value: the word is positional', () => {
    const p = parseFlagArgs(DEFS, ['--on', 'false']);
    assert.equal(p.values.get('on'), true);
    assert.deepEqual(p.args, ['false']);
  });
  it('warns once per deprecated flag, naming the spelling used', () => {
    assert.deepEqual(parseFlagArgs(DEFS, ['--old=a', '--old=b']).warnings, ['Flag --old has been deprecated, use --name.']);
  });

  const bad: [string, string[], string][] = [
    ['unknown flag', ['--nope'], 'unknown flag: --nope'],
    ['unknown shorthand', ['-x'], "unknown shorthand flag: 'x' in -x"],
    ['missing argument', ['--name'], 'flag needs an argument: --name'],
    ['missing shorthand argument', ['-v'], "flag needs an argument: 'v' in -v"],
    ['bad syntax', ['---name'], 'bad flag syntax: ---name'],
    ['int', ['--count=abc'], 'invalid argument "abc" for "--count" flag: strconv.ParseInt: parsing "abc": invalid syntax'],
    ['int32 range', ['--count=3000000000'], 'invalid argument "3000000000" for "--count" flag: strconv.ParseInt: parsing "3000000000": value out of range'],
    ['shorthand int', ['-vx'], 'invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    ['bool', ['--on=yes'], 'invalid argument "yes" for "--on" flag: strconv.ParseBool: parsing "yes": invalid syntax'],
    ['float', ['--ratio=x'], 'invalid argument "x" for "--ratio" flag: strconv.ParseFloat: parsing "x": invalid syntax'],
    ['duration', ['--wait=abc'], 'invalid argument "abc" for "--wait" flag: time: invalid duration "abc"'],
    ['duration unit', ['--wait=10'], 'invalid argument "10" for "--wait" flag: time: missing unit in duration "10"'],
    ['duration unknown unit', ['--wait=1d'], 'invalid argument "1d" for "--wait" flag: time: unknown unit "d" in duration "1d"'],
    ['ip', ['--addr=1.2.3'], 'invalid argument "1.2.3" for "--addr" flag: "1.2.3" is not a valid IP address'],
    ['map pair', ['--pairs=a'], 'invalid argument "a" for "--pairs" flag: malformed pair, expect string=string'],
    ['langle pair', ['--hard=memory.available=1Gi'], 'invalid argument "memory.available=1Gi" for "--hard" flag: malformed pair, expect string<string'],
    ['multimap pair', ['--header=a'], 'invalid argument "a" for "--header" flag: malformed pair, expect string:string'],
    ['bool map value', ['--gates=A=yes'], 'invalid argument "A=yes" for "--gates" flag: invalid value of A: yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    ['taint effect', ['--taints=k=v:Sometimes'], 'invalid argument "k=v:Sometimes" for "--taints" flag: invalid taint effect: Sometimes, unsupported taint effect'],
    ['taint spec', ['--taints=a:b:c'], 'invalid argument "a:b:c" for "--taints" flag: invalid taint spec: a:b:c'],
    ['version value', ['--version=maybe'], 'invalid argument "maybe" for "--version" flag: strconv.ParseBool: parsing "maybe": invalid syntax'],
  ];
  for (const [title, argv, message] of bad) {
    it(`rejects: ${title}`, () =>
      assert.throws(() => parseFlagArgs(DEFS, argv), (err: unknown) => err instanceof AgentConfigError && err.kind === 'flag' && err.message === message));
  }
});
