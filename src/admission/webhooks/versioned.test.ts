// writeBack: a mutated object goes into the admission object in place (the
// same object and metadata object), with the mutated object's members in its
// order and the storage apiVersion and kind kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_GATES } from '../../features/gates.js';
import type { ApiObject } from '../../registry/object.js';
import { toWebhookVersion, writeBack } from './versioned.js';

const CONFIGMAP = { group: '', version: 'v1', kind: 'ConfigMap' };

const stored = (): ApiObject => ({
  apiVersion: 'v1', kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', uid: 'u-1', creationTimestamp: '2026-11-27T20:00:00Z', labels: { a: '1' } },
  data: { k: 'v' },
} as unknown as ApiObject);

describe('writeBack', () => {
  const cases: [string, (m: Record<string, unknown>) => void, string][] = [
    ['a label added', (m) => ((m.metadata as { labels: Record<string, string> }).labels.b = '2'),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"ns","uid":"u-1","creationTimestamp":"2026-11-27T20:00:00Z","labels":{"a":"1","b":"2"}},"data":{"k":"v"}}'],
    ['a member removed and one added', (m) => { delete m.data; m.binaryData = { b: 'AA==' }; },
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"ns","uid":"u-1","creationTimestamp":"2026-11-27T20:00:00Z","labels":{"a":"1"}},"binaryData":{"b":"AA=="}}'],
    ['metadata members removed', (m) => { const md = m.metadata as Record<string, unknown>; delete md.uid; delete md.labels; },
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"ns","creationTimestamp":"2026-11-27T20:00:00Z"},"data":{"k":"v"}}'],
  ];
  for (const [what, mutate, want] of cases) {
    it(what, () => {
      const target = stored();
      const meta = target.metadata;
      const mutated = toWebhookVersion(target, CONFIGMAP)!;
      mutate(mutated);
      writeBack(mutated, CONFIGMAP, target, DEFAULT_GATES);
      assert.equal(JSON.stringify(target), want);
      assert.equal(target.metadata, meta, 'the metadata object is the same object');
    });
  }
});

describe('toWebhookVersion', () => {
  const source = (): ApiObject => JSON.parse('{"data":{"k":"v"},"apiVersion":"v1","__proto__":{"x":1},"kind":"ConfigMap","metadata":{"name":"cm"}}') as ApiObject;
  for (const copy of [true, false]) {
    it(`writes kind and apiVersion first, the members in order, an own "__proto__" kept a member (${copy ? 'a deep copy' : 'members shared'})`, () => {
      const src = source();
      const out = toWebhookVersion(src, CONFIGMAP, copy)!;
      assert.equal(JSON.stringify(out), '{"kind":"ConfigMap","apiVersion":"v1","data":{"k":"v"},"__proto__":{"x":1},"metadata":{"name":"cm"}}');
      assert.equal(Object.getPrototypeOf(out), Object.prototype);
      assert.equal(out.data === (src as unknown as Record<string, unknown>).data, !copy);
      assert.equal(JSON.stringify(src), JSON.stringify(source()), 'the source is not changed');
    });
  }
});
