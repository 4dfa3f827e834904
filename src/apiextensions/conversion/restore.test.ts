// What a conversion webhook may change: kube's validateConvertedObject and
// restoreObjectMeta, with their texts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convertedObjectError, goTypeOf, restoreObjectMeta } from './restore.js';

const original = {
  apiVersion: 'stable.example.com/v1', kind: 'CronTab',
  metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '7', labels: { app: 'x' }, annotations: { note: 'n' }, finalizers: ['f'] },
  spec: { cron: '* * * * *' },
};
const answer = (meta: unknown, extra: Record<string, unknown> = {}) => ({ apiVersion: 'stable.example.com/v2', kind: 'CronTab', metadata: meta, spec: { schedule: '* * * * *' }, ...extra });

describe('validateConvertedObject', () => {
  const rows: { name: string; converted: object; want: string | undefined }[] = [
    { name: 'same identity', converted: answer({ name: 'a', namespace: 'ns', uid: 'u1' }), want: undefined },
    { name: 'other kind', converted: { ...answer({ name: 'a', namespace: 'ns', uid: 'u1' }), kind: 'Other' }, want: 'must have the same kind: CronTab != Other' },
    { name: 'renamed', converted: answer({ name: 'b', namespace: 'ns', uid: 'u1' }), want: 'must have the same name: a != b' },
    { name: 'name dropped', converted: answer({ namespace: 'ns', uid: 'u1' }), want: 'must have the same name: a != ' },
    { name: 'metadata not an object reads as no name', converted: answer('x'), want: 'must have the same name: a != ' },
    { name: 'other namespace', converted: answer({ name: 'a', namespace: 'other', uid: 'u1' }), want: 'must have the same namespace: ns != other' },
    { name: 'other uid', converted: answer({ name: 'a', namespace: 'ns', uid: 'u2' }), want: 'must have the same UID: u1 != u2' },
    { name: 'uid of another type reads as none', converted: answer({ name: 'a', namespace: 'ns', uid: 5 }), want: 'must have the same UID: u1 != ' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(convertedObjectError(original, r.converted), r.want));
});

describe('restoreObjectMeta', () => {
  it('keeps the original metadata but for the webhook\'s labels and annotations; the body is the webhook\'s', () => {
    const out = restoreObjectMeta(original, answer({ name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '99', finalizers: [], labels: { app: 'y', tier: 'web' }, annotations: { note: 'n' } }));
    assert.deepEqual(out, {
      apiVersion: 'stable.example.com/v2', kind: 'CronTab',
      metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '7', labels: { app: 'y', tier: 'web' }, annotations: { note: 'n' }, finalizers: ['f'] },
      spec: { schedule: '* * * * *' },
    });
    assert.deepEqual(original.metadata.labels, { app: 'x' }, 'the original is not modified');
    (out.metadata as { finalizers: string[] }).finalizers.push('g');
    assert.deepEqual(original.metadata.finalizers, ['f'], 'the metadata is a copy');
  });

  it('labels and annotations the webhook drops (or writes null) are gone', () => {
    const out = restoreObjectMeta(original, answer({ name: 'a', labels: null }));
    assert.deepEqual(out.metadata, { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '7', finalizers: ['f'] });
  });

  it('an original without metadata gets the webhook\'s labels only', () => {
    const out = restoreObjectMeta({ apiVersion: 'stable.example.com/v1', kind: 'CronTab' }, answer({ name: 'zz', labels: { a: 'b' } }));
    assert.deepEqual(out.metadata, { labels: { a: 'b' } });
  });

  const rows: { name: string; meta?: unknown; noMeta?: boolean; original?: object; want: string }[] = [
    { name: 'no metadata', noMeta: true, want: 'missing metadata in converted object' },
    { name: 'null metadata', meta: null, want: 'invalid metadata of type <nil> in converted object' },
    { name: 'metadata a list', meta: [], want: 'invalid metadata of type []interface {} in converted object' },
    { name: 'labels a string', meta: { labels: 'a=b' }, want: 'invalid metadata.labels of type string in converted object' },
    { name: 'annotations a number', meta: { annotations: 3 }, want: 'invalid metadata.annotations of type int64 in converted object' },
    { name: 'a label value not a string', meta: { labels: { app: true } }, want: 'metadata.labels[app] must be a string, but is bool in converted object' },
    { name: 'an annotation value not a string', meta: { annotations: { note: 1.5 } }, want: 'metadata.annotations[note] must be a string, but is float64 in converted object' },
    { name: 'original labels of another type', meta: { labels: { a: 'b' } }, original: { metadata: { labels: 'x' } }, want: 'invalid metadata.labels of type string in original object' },
    {
      name: 'a changed label invalid',
      meta: { labels: { app: 'x', 'bad key!': 'v' } },
      want: "metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    },
    {
      name: 'two invalid labels aggregate',
      meta: { labels: { app: '-x-', tier: 'a b' } },
      want: "[metadata.labels: Invalid value: \"-x-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), metadata.labels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    },
    {
      name: 'a changed annotation key invalid (kube\'s path metadata.annotation)',
      meta: { annotations: { note: 'n', '/x': 'y' } },
      want: "metadata.annotation: Invalid value: \"/x\": prefix part must be non-empty",
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const converted = r.noMeta ? { apiVersion: 'stable.example.com/v2', kind: 'CronTab' } : answer(r.meta);
      assert.throws(() => restoreObjectMeta(r.original ?? original, converted), (err: unknown) => {
        assert.equal((err as Error).message, r.want);
        return true;
      });
    });
  }

  it('unchanged labels are not validated again (kube validates only what changed)', () => {
    const legacy = { metadata: { labels: { 'bad key!': 'v' } } };
    const out = restoreObjectMeta(legacy, answer({ labels: { 'bad key!': 'v' } }));
    assert.deepEqual(out.metadata, { labels: { 'bad key!': 'v' } });
  });
});

describe('goTypeOf', () => {
  const rows: [unknown, string][] = [[null, '<nil>'], [{}, 'map[string]interface {}'], [[], '[]interface {}'], ['s', 'string'], [true, 'bool'], [2, 'int64'], [2.5, 'float64']];
  for (const [v, want] of rows) it(`${JSON.stringify(v)} → ${want}`, () => assert.equal(goTypeOf(v), want));
});
