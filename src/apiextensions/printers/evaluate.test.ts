// JSONPath evaluation over decoded JSON: client-go jsonpath_test cases (JSON
// input, Kubernetes objects, struct-shaped data written as JSON) and errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executeTemplate, findResults, JSONPathEvalError, printValue } from './evaluate.js';
import { parseJSONPath } from './jsonpath.js';

const run = (t: string, data: unknown, allowMissingKeys = false) => executeTemplate(parseJSONPath(t), data, { allowMissingKeys });

const store = {
  Name: 'jsonpath',
  Book: [
    { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
    { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
    { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
  ],
  Bicycle: [{ Color: 'red', Price: 19.95, IsNew: true }, { Color: 'green', Price: 20.01, IsNew: false }],
  Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
  Employees: { jason: 'manager', dan: 'clerk' },
};

const nodes = {
  kind: 'List',
  items: [
    { kind: 'None', metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } }, status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] } },
    { kind: 'None', metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } }, status: { capacity: { cpu: '8' }, ready: false, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.2' }, { type: 'another', address: '127.0.0.3' }] } },
  ],
  users: [{ name: 'myself', user: {} }, { name: 'e2e', user: { username: 'admin', password: 'secret' } }],
};

const points = [
  { id: 'i1', x: 4, y: -5 }, { id: 'i2', x: -2, y: -5, z: 1 }, { id: 'i3', x: 8, y: 3 }, { id: 'i4', x: -6, y: -1 }, { id: 'i5', x: 0, y: 2, z: 1 }, { id: 'i6', x: 1, y: 4 },
];

describe('executeTemplate: client-go cases', () => {
  const rows: [string, string, unknown, string][] = [
    ['plain', 'hello jsonpath', null, 'hello jsonpath'],
    ['recursive', '{..}', [1, 2, 3], '[1,2,3]'],
    ['filter', '{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
    ['quote', '{"{"}', null, '{'],
    ['union', '{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
    ['array', '{[0:2]}', ['Monday', 'Tudesday'], 'Monday Tudesday'],
    ['variable', 'hello {.Name}', store, 'hello jsonpath'],
    ['dict/', '{$.Labels.web/html}', store, '15'],
    ['dict key', '{$.Employees.jason}', store, 'manager'],
    ['dict-', '{.Labels.k8s-app}', store, '20'],
    ['nest', '{.Bicycle[*].Color}', store, 'red green'],
    ['allarray', '{.Book[*].Author}', store, 'Nigel Rees Evelyn Waugh Herman Melville'],
    ['recurfields', '{..Price}', store, '8.95 12.99 8.99 19.95 20.01'],
    ['recurdotfields', '{...Price}', store, '8.95 12.99 8.99 19.95 20.01'],
    ['a list as JSON (sorted keys)', '{.Bicycle}', store, '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]'],
    ['lastarray', '{.Book[-1:]}', store, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
    ['recurarray', '{..Book[2]}', store, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
    ['bool filter', '{.Bicycle[?(@.IsNew==true)]}', store, '{"Color":"red","IsNew":true,"Price":19.95}'],
    ['exists filter', '{[?(@.z)].id}', points, 'i2 i5'],
    ['bracket key', "{[0]['id']}", points, 'i1'],
    ['addresses', '{.items[*].status.addresses[*].address}', nodes, '127.0.0.1 127.0.0.2 127.0.0.3'],
    ['item name', '{.items[*].metadata.name}', nodes, '127.0.0.1 127.0.0.2'],
    ['union capacity', "{.items[*]['metadata.name', 'status.capacity']}", nodes, '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
    ['user password', '{.users[?(@.name=="e2e")].user.password}', nodes, 'secret'],
    ['hostname', '{.items[0].metadata.labels.kubernetes\\.io/hostname}', nodes, '127.0.0.1'],
    ['hostname filter', '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', nodes, 'None'],
    ['bool item', '{.items[?(@..ready==true)].metadata.name}', nodes, '127.0.0.1'],
    ['recursive names (document order)', '{..name}', nodes, '127.0.0.1 127.0.0.2 myself e2e'],
    ['negative index', '{[-2]}', [1, 2, 3], '2'],
    ['step', '{[0:6:2]}', [0, 1, 2, 3, 4, 5], '0 2 4'],
    ['empty slice', '{[1:1]}', [0, 1], ''],
    ['regexp filter', '{.Book[?(@.Author=~"^H")].Title}', store, 'Moby Dick'],
    ['HTML-safe JSON', '{.a}', { a: { b: '<&>' } }, '{"b":"\\u003c\\u0026\\u003e"}'],
    ['null prints <no value>', '{.a}', { a: null }, '<no value>'],
    ['floats print as Go prints them', '{.a}', { a: [1e21, 0.5] }, '[1e+21,0.5]'],
    ['a float literal', '{2.0}', {}, '2'],
  ];
  for (const [name, t, data, want] of rows) it(name, () => assert.equal(run(t, data), want));
});

describe('executeTemplate: missing keys allowed', () => {
  const rows: [string, string, string][] = [
    ['nonexistent field', '{.hello}', ''],
    ['text around it', 'before-{.hello}after', 'before-after'],
    ['below a scalar', '{.Name.first}', ''],
    ['below null', '{.a.b}', ''],
  ];
  for (const [name, t, want] of rows) it(name, () => assert.equal(run(t, { ...store, a: null }, true), want));
});

describe('executeTemplate: errors', () => {
  const rows: [string, string, unknown, string][] = [
    ['invalid identifier', '{hello}', store, 'unrecognized identifier hello'],
    ['nonexistent field', '{.hello}', store, 'hello is not found'],
    ['invalid array', '{.Labels[0]}', store, 'map[string]interface {} is not array or slice'],
    ['invalid filter operator', '{.Book[?(@.Price<>10)]}', store, 'unrecognized filter operator <>'],
    ['float against int', '{.Book[?(@.Price<10)]}', store, 'incompatible types for comparison'],
    ['out of bounds', '{[5]}', [1], 'array index out of bounds: index 5, length 1'],
    ['end out of bounds', '{[0:5]}', [1], 'array index out of bounds: index 4, length 1'],
    ['reversed slice', '{[2:1]}', [1, 2, 3], 'starting index 2 is greater than ending index 1'],
    ['zero step', '{[0:2:0]}', [1, 2, 3], 'step must be > 0'],
    ['filter over a map', '{[?(@.a)]}', { a: 1 }, 'map[a:1] is not array or slice and cannot be filtered'],
    ['comparing a map', '{[?(@.a==1)]}', [{ a: { b: 1 } }], 'invalid type for comparison'],
    ['end outside a range', '{end}', {}, 'not in range, nothing to end'],
    ['redundant end', '{range .Labels.*}{@}{end}{end}', store, 'not in range, nothing to end'],
    ['an empty range still walks its body', '{range .items[*]}{.metadata.name}{end}', { items: [] }, 'metadata is not found'],
    ['regexp over a number', '{[?(@.a=~"x")]}', [{ a: 1 }], 'regexp search only support string now but getting pattern: "x", data: 1'],
  ];
  for (const [name, t, data, want] of rows) {
    it(name, () => assert.throws(() => run(t, data), (e: unknown) => e instanceof JSONPathEvalError && e.message === want));
  }
});

describe('findResults', () => {
  it('gives each top-level node its own result list', () => {
    assert.deepEqual(findResults(parseJSONPath('a{.x}b{.y[*]}'), { x: 1, y: [2, 3] }), [['a'], [1], ['b'], [2, 3]]);
  });
  it('keeps found nulls (a found value, not a missing one)', () => {
    assert.deepEqual(findResults(parseJSONPath('{.x}'), { x: null }, { allowMissingKeys: true }), [[null]]);
  });
  it('printValue of a string wildcard gives its UTF-8 bytes', () => {
    assert.deepEqual(findResults(parseJSONPath('{.s.*}'), { s: 'hé' })[0]!.map(printValue), ['104', '195', '169']);
  });
});

const pods = {
  items: [
    { metadata: { name: 'pod1' }, spec: { containers: [{ name: 'foo', another: [{ name: 'value1' }, { name: 'value2' }] }, { name: 'bar', another: [{ name: 'value1' }, { name: 'value2' }] }] } },
    { metadata: { name: 'pod2' }, spec: { containers: [{ name: 'baz', another: [{ name: 'value1' }, { name: 'value2' }] }] } },
  ],
};

describe('executeTemplate: range … end (client-go cases)', () => {
  const rows: [string, string, unknown, string, boolean?][] = [
    ['range item', '{range .items[*]}{.metadata.name}, {end}{.kind}', nodes, '127.0.0.1, 127.0.0.2, List'],
    ['range item with quote', '{range .items[*]}{.metadata.name}{"\\t"}{end}', nodes, '127.0.0.1\t127.0.0.2\t'],
    ['double range', '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}', nodes, '127.0.0.1, 127.0.0.2, 127.0.0.3, '],
    ['range nodes capacity', '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', nodes, '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
    ['allfields', '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', store, '{red 19.95 true} {green 20.01 false} '],
    ['allstructs', '{range .Bicycle[*]}{ @ }{ " " }{end}', store, '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} '],
    ['empty range', '{range .items[*]}{.metadata.name}{end}', { items: [] }, '', true],
    ['empty nested range', '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', { items: [] }, '', true],
    ['nested ranges', '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', pods, 'pod1:foo,bar,+pod2:baz,+'],
    ['three levels', '{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}', pods,
      'pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#'],
    ['two ranges at one level', '{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}', pods,
      'pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n'],
  ];
  for (const [name, t, data, want, allow] of rows) it(name, () => assert.equal(run(t, data, allow === true), want));
});
