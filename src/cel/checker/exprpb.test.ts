import { test } from 'node:test';
import assert from 'node:assert/strict';
import { declsFromPb, typeFromPb, UnsupportedTypeError } from './exprpb.js';
import type { PbDecl, PbType } from './exprpb.js';
import { formatType } from './format.js';
import { parseTypeName } from './typename.js';

const pb = (kind: string, value?: unknown): PbType => ({ typeKind: { case: kind, value } });

test('cel.expr types as checker types', () => {
  const cases: [PbType, string][] = [
    [pb('primitive', 2), 'int'],
    [pb('primitive', 3), 'uint'],
    [pb('wellKnown', 2), 'timestamp'],
    [pb('dyn'), 'dyn'],
    [pb('null'), 'null'],
    [pb('listType', { elemType: pb('primitive', 5) }), 'list(string)'],
    [pb('mapType', { keyType: pb('primitive', 5), valueType: pb('dyn') }), 'map(string, dyn)'],
    [pb('type', pb('primitive', 1)), 'type(bool)'],
    [pb('type', { typeKind: { case: undefined } }), 'type'],
    [pb('abstractType', { name: 'optional_type', parameterTypes: [pb('typeParam', 'T')] }), 'optional_type(T)'],
    [pb('messageType', 'google.protobuf.Struct'), 'map(string, dyn)'],
    [pb('messageType', 'google.protobuf.Value'), 'dyn'],
    [pb('messageType', 'my.Msg'), 'my.Msg'],
  ];
  for (const [t, want] of cases) assert.equal(formatType(typeFromPb(t)), want);
  assert.throws(() => typeFromPb(pb('wrapper', 2)), UnsupportedTypeError);
});

test('cel.expr declarations: variables and functions, type parameters found in the signature', () => {
  const decls: PbDecl[] = [
    { name: 'x', declKind: { case: 'ident', value: { type: pb('primitive', 2) } } },
    {
      name: 'f',
      declKind: {
        case: 'function',
        value: {
          overloads: [
            {
              overloadId: 'f_list',
              params: [pb('listType', { elemType: pb('typeParam', 'T') })],
              typeParams: [],
              isInstanceFunction: true,
              resultType: pb('typeParam', 'T'),
            },
          ],
        },
      },
    },
  ];
  const { variables, functions } = declsFromPb(decls);
  assert.equal(formatType(variables.get('x')!), 'int');
  assert.equal(functions.length, 1);
  const o = functions[0]!.overloads[0]!;
  assert.deepEqual({ id: o.id, receiver: o.receiver, typeParams: o.typeParams }, { id: 'f_list', receiver: true, typeParams: ['T'] });
});

test('types read back from their printed form', () => {
  for (const s of ['int', 'list(string)', 'map(string, list(dyn))', 'type(int)', 'type', 'optional_type(A)', 'set(int)', '!error!']) {
    assert.equal(formatType(parseTypeName(s)!), s);
  }
  assert.equal(parseTypeName('google.protobuf.Any'), undefined);
  assert.equal(parseTypeName('list(int'), undefined);
});
