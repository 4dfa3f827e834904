// client-go util/jsonpath parsing: the node lists of its parser_test cases and
// its parse errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSONPathParseError, type ListNode, type Node, parseJSONPath, unquoteExtend } from './jsonpath.js';

/** Nodes flattened depth first, as client-go's test collects them (the root left out). */
function flatten(n: Node, out: string[] = []): string[] {
  switch (n.type) {
    case 'list': out.push('list'); for (const c of n.nodes) flatten(c, out); break;
    case 'filter': out.push(`filter ${n.operator}`); flatten(n.left, out); flatten(n.right, out); break;
    case 'union': out.push('union'); for (const c of n.nodes) flatten(c, out); break;
    case 'text': out.push(`text ${n.text}`); break;
    case 'field': out.push(`field ${n.name}`); break;
    case 'identifier': out.push(`identifier ${n.name}`); break;
    case 'int': case 'float': case 'bool': out.push(`${n.type} ${n.value}`); break;
    case 'array': out.push(`array ${n.params.map((p) => `${p.value}${p.known ? '' : '?'}${p.derived ? 'd' : ''}`).join(':')}`); break;
    default: out.push(n.type);
  }
  return out;
}

const nodes = (t: string) => (parseJSONPath(t) as ListNode).nodes.flatMap((n) => flatten(n));

describe('parseJSONPath: client-go parser_test', () => {
  const rows: [string, string, string[]][] = [
    ['plain', 'hello jsonpath', ['text hello jsonpath']],
    ['variable', 'hello {.jsonpath}', ['text hello ', 'list', 'field jsonpath']],
    ['arrayfield', "hello {['jsonpath']}", ['text hello ', 'list', 'field jsonpath']],
    ['quote', '{"{"}', ['list', 'text {']],
    ['array', '{[1:3]}', ['list', 'array 1:3:0?']],
    ['allarray', '{.book[*].author}', ['list', 'field book', 'array 0?:0?:0?', 'field author']],
    ['wildcard', '{.bicycle.*}', ['list', 'field bicycle', 'wildcard']],
    ['filter', '{[?(@.price<3)]}', ['list', 'filter <', 'list', 'field price', 'list', 'int 3']],
    ['recursive', '{..}', ['list', 'recursive']],
    ['recurField', '{..price}', ['list', 'recursive', 'field price']],
    ['arraydict', "{['book.price']}", ['list', 'field book', 'field price']],
    ['union', "{['bicycle.price', 3, 'book.price']}", ['list', 'union', 'list', 'field bicycle', 'field price', 'list', 'array 3:4d:0?', 'list', 'field book', 'field price']],
    ['range', '{range .items}{.name},{end}', ['list', 'identifier range', 'field items', 'list', 'field name', 'text ,', 'list', 'identifier end']],
    ['paired parentheses in quotes', '{[?(@.status.nodeInfo.osImage == "()")]}', ['list', 'filter ==', 'list', 'field status', 'field nodeInfo', 'field osImage', 'list', 'text ()']],
    ['escaped double quotes', '{[?(@.status.nodeInfo.osImage == "(\\"\\")")]}', ['list', 'filter ==', 'list', 'field status', 'field nodeInfo', 'field osImage', 'list', 'text ("")']],
    ['unregular parentheses', '{[?(@.test == "())(")]}', ['list', 'filter ==', 'list', 'field test', 'list', 'text ())(']],
    ['single quotes', "{[?(@.status.nodeInfo.osImage == 'Linux')]}", ['list', 'filter ==', 'list', 'field status', 'field nodeInfo', 'field osImage', 'list', 'text Linux']],
    ['filter suffix', '{[?(@.status.nodeInfo.osImage == "{[()]}")]}', ['list', 'filter ==', 'list', 'field status', 'field nodeInfo', 'field osImage', 'list', 'text {[()]}']],
    ['single containing escaped single', "{[?(@.status.nodeInfo.osImage == '\\\\\\'')]}", ['list', 'filter ==', 'list', 'field status', 'field nodeInfo', 'field osImage', 'list', "text \\'"]],
    ['negative slice', '{[-5:]}', ['list', 'array -5:0?:0?']],
    ['negative index', '{[-1]}', ['list', 'array -1:0d:0?']],
    ['negative end', '{[1:-1]}', ['list', 'array 1:-1:0?']],
    ['step', '{[0:6:2]}', ['list', 'array 0:6:2']],
    ['escaped dot in a field', '{.metadata.labels.kubernetes\\.io/hostname}', ['list', 'field metadata', 'field labels', 'field kubernetes.io/hostname']],
    ['numbers and booleans', '{[?(@.x>=1.5)]}{true}', ['list', 'filter >=', 'list', 'field x', 'list', 'float 1.5', 'list', 'bool true']],
    ['CRD column', '{.status.conditions[?(@.type=="Ready")].status}', ['list', 'field status', 'field conditions', 'filter ==', 'list', 'field type', 'list', 'text Ready', 'field status']],
  ];
  for (const [name, t, want] of rows) it(name, () => assert.deepEqual(nodes(t), want));
});

describe('parseJSONPath: long templates', () => {
  it('a path of 100000 fields parses without exhausting the stack', () => {
    const root = parseJSONPath(`{${'.a'.repeat(100000)}}`);
    assert.equal((root.nodes[0] as ListNode).nodes.length, 100000);
  });
  it('20000 actions in a row', () => {
    assert.equal(parseJSONPath('{.a}x'.repeat(20000)).nodes.length, 40000);
  });
});

describe('parseJSONPath: errors', () => {
  const rows: [string, string][] = [
    ['{.hello', 'unclosed action'],
    ['{*}', "unrecognized character in action: U+002A '*'"],
    ['{+12.3.0}', 'cannot parse number +12.3.0'],
    ['{[1}', 'unterminated array'],
    ['{[?(.price]}', 'unterminated filter'],
    ['{........}', 'invalid multiple recursive descent'],
    ['{\\\\\\}', "unrecognized character in action: U+005C '\\'"],
    ['{.a[x]}', 'invalid array index x'],
    ['{.a[-]}', 'array index - is not a number'],
    ['{"abc}', 'unterminated quoted string'],
    ['{"a\\qb"}', 'unquote string "a\\qb" error invalid syntax'],
    ['{[?(@.a==1)x}', 'unclosed array expect ]'],
    ['{.a\n}', 'unclosed action'],
  ];
  for (const [t, want] of rows) {
    it(JSON.stringify(t), () => assert.throws(() => parseJSONPath(t), (e: unknown) => e instanceof JSONPathParseError && e.message === want));
  }
});

describe('unquoteExtend', () => {
  const rows: [string, string | Error][] = [
    ['"a"', 'a'], ["'a'", 'a'], ["'ab c'", 'ab c'], ['"\\t\\x41\\u00e9\\101"', '\tAé A'.replace(' ', '')], ["'\\''", "'"],
    ['"a', new JSONPathParseError('invalid syntax')], ['"\'"', "'"], ["'\\\"'", new JSONPathParseError('invalid syntax')],
  ];
  for (const [s, want] of rows) {
    it(s, () => {
      if (want instanceof Error) assert.throws(() => unquoteExtend(s), { message: want.message });
      else assert.equal(unquoteExtend(s), want);
    });
  }
});
