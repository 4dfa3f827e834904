import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyJsonPatch, decodeJsonPatch, type JsonValue } from '../../patch/index.js';
import { applySimplePatch, applySteps, simpleStepsOf } from './simplepatch.js';

const doc = (): JsonValue => ({
  apiVersion: 'v1', kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', labels: { z: '1', a: '2' }, annotations: { 'a/b': 'x' } },
  data: { k: 'v' }, list: [1, 2],
});

describe('simple JSON patches give what the full engine gives', () => {
  const applied: [string, unknown[]][] = [
    ['add a label', [{ op: 'add', path: '/metadata/labels/m', value: 'yes' }]],
    ['add over an existing label (kept in place)', [{ op: 'add', path: '/metadata/labels/z', value: 'new' }]],
    ['add a new map', [{ op: 'add', path: '/metadata/finalizers2', value: { q: 1, b: [true, null] } }]],
    ['replace a member', [{ op: 'replace', path: '/data/k', value: 'w' }]],
    ['escaped keys', [{ op: 'add', path: '/metadata/annotations/a~1b', value: 'y' }, { op: 'add', path: '/metadata/annotations/t~0x', value: 'z' }]],
    ['several steps into the same object', [{ op: 'add', path: '/metadata/labels/b', value: '1' }, { op: 'add', path: '/metadata/labels/c', value: '2' }]],
    ['a later step sees an earlier one', [{ op: 'add', path: '/spec', value: {} }, { op: 'add', path: '/spec/x', value: 1 }]],
  ];
  for (const [what, ops] of applied) {
    it(what, () => {
      const before = doc();
      const want = applyJsonPatch(doc(), decodeJsonPatch(JSON.stringify(ops), 'Ignore').operations);
      const got = applySimplePatch(before, decodeJsonPatch(JSON.stringify(ops), 'Ignore').operations);
      assert.equal(JSON.stringify(got), JSON.stringify(want));
      assert.deepEqual(before, doc(), 'the input is not changed');
      // read from the text directly: the same steps, the same document, the parsed array kept as sent
      const text = JSON.stringify(ops);
      const simple = simpleStepsOf(text);
      assert.ok(simple);
      assert.equal(JSON.stringify(applySteps(before, simple.steps)), JSON.stringify(want));
      assert.equal(JSON.stringify(simple.body), text);
      assert.deepEqual(before, doc(), 'the input is not changed');
    });
  }
  const deferred: [string, unknown[]][] = [
    ['remove', [{ op: 'remove', path: '/metadata/labels/z' }]],
    ['into an array', [{ op: 'add', path: '/list/-', value: 3 }]],
    ['a missing parent', [{ op: 'add', path: '/spec/x', value: 1 }]],
    ['replace of a missing member', [{ op: 'replace', path: '/data/missing', value: 1 }]],
    ['the whole document', [{ op: 'add', path: '', value: {} }]],
    ['a bad escape', [{ op: 'add', path: '/metadata/labels/a~2', value: 1 }]],
    ['no value', [{ op: 'add', path: '/metadata/labels/a' }]],
    ['test', [{ op: 'test', path: '/data/k', value: 'v' }]],
  ];
  for (const [what, ops] of deferred) {
    it(`leaves to the full engine: ${what}`, () => {
      assert.equal(applySimplePatch(doc(), decodeJsonPatch(JSON.stringify(ops), 'Ignore').operations), undefined);
      const simple = simpleStepsOf(JSON.stringify(ops));
      assert.equal(simple === undefined || applySteps(doc(), simple.steps) === undefined, true);
    });
  }
  const notSimpleText: [string, string][] = [
    ['not JSON', '[{"op":"add"'],
    ['not an array', '{"op":"add","path":"/a","value":1}'],
    ['null', 'null'],
    ['a null operation', '[null]'],
    ['a null value', '[{"op":"add","path":"/metadata/labels/a","value":null}]'],
    ['a path that is not a string', '[{"op":"add","path":1,"value":1}]'],
    ['an op that is not a string', '[{"op":["add"],"path":"/a","value":1}]'],
    ['more operations than decodeJsonPatch takes', JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'add', path: '/a', value: 1 })))],
  ];
  for (const [what, text] of notSimpleText) {
    it(`reads no steps from the text: ${what}`, () => assert.equal(simpleStepsOf(text), undefined));
  }
  it('reads an empty array as no steps', () => assert.deepEqual(simpleStepsOf('[]')?.steps, []));
  it('takes the last of repeated members, as the decoder does', () => {
    const text = '[{"op":"remove","path":"/data/k","op":"add","value":1,"path":"/data/n"}]';
    const want = applyJsonPatch(doc(), decodeJsonPatch(text, 'Ignore').operations);
    assert.equal(JSON.stringify(applySteps(doc(), simpleStepsOf(text)!.steps)), JSON.stringify(want));
  });
});
