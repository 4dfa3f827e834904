import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import { WebhookSource } from './source.js';

const config = (name: string, ...hooks: string[]): ApiObject => ({
  apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name },
  webhooks: hooks.map((h) => ({ name: h, clientConfig: { url: 'https://example.com' }, sideEffects: 'None', admissionReviewVersions: ['v1'] })),
} as unknown as ApiObject);

test('WebhookSource.current: the webhooks without waiting when the store has its list at hand, else undefined', async () => {
  const b = config('b', 'b1.example.com');
  const a = config('a', 'a1.example.com', 'a2.example.com');
  const cases: [string, readonly ApiObject[] | undefined, string[] | undefined][] = [
    ['no list at hand: ask webhooks()', undefined, undefined],
    ['no configuration', [], []],
    ['sorted by configuration name, webhooks in list order', [b, a], ['a/a1.example.com', 'a/a2.example.com', 'b/b1.example.com']],
  ];
  for (const [name, peeked, want] of cases) {
    let lists = 0;
    const source = new WebhookSource(async () => (lists++, [b]), 'validating', () => peeked);
    const now = source.current();
    assert.deepEqual(now?.map((w) => `${w.configuration}/${w.name}`), want, name);
    assert.equal(lists, 0, `${name}: current() never lists`);
    // webhooks() still reads the lister (the list it answers may be newer)
    assert.deepEqual((await source.webhooks()).map((w) => w.name), ['b1.example.com'], name);
    assert.equal(lists, 1, name);
  }
});

test('WebhookSource: the same list is compiled once; a new list (new objects) is compiled again', () => {
  let items: readonly ApiObject[] = [config('a', 'a1.example.com')];
  const source = new WebhookSource(async () => items, 'mutating', () => items);
  const first = source.current();
  assert.equal(source.current(), first, 'same items: the same compiled array');
  items = [config('a', 'a1.example.com', 'a2.example.com')];
  assert.deepEqual(source.current()?.map((w) => w.name), ['a1.example.com', 'a2.example.com']);
  assert.equal(new WebhookSource(async () => [], 'mutating').current(), undefined, 'without a peek: undefined');
});

test('WebhookSource.dispatch: run only with webhooks; none at hand answers without a promise', async () => {
  const a = config('a', 'a1.example.com');
  const cases: [string, readonly ApiObject[] | undefined, readonly ApiObject[], string[] | undefined, boolean][] = [
    // name, peeked, listed, run's webhooks (undefined: not run), answered synchronously
    ['none registered, list at hand', [], [a], undefined, true],
    ['registered, list at hand', [a], [], ['a1.example.com'], false],
    ['no list at hand, the lister has none', undefined, [], undefined, false],
    ['no list at hand, the lister has some', undefined, [a], ['a1.example.com'], false],
  ];
  for (const [name, peeked, listed, want, sync] of cases) {
    let got: string[] | undefined;
    const source = new WebhookSource(async () => listed, 'validating', () => peeked);
    const r = source.dispatch('attrs', async (attrs, hooks) => {
      assert.equal(attrs, 'attrs', name);
      got = hooks.map((w) => w.name);
    });
    assert.equal(r === undefined, sync, name);
    await r;
    assert.deepEqual(got, want, name);
  }
});
