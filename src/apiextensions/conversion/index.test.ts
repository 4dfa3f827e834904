// converterFor: which strategy, kube's checks of versions before any
// conversion, and the None strategy (apiVersion rewritten).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../types.js';
import { crontabs } from './testcrd.js';
import type { CallbackCaller } from '../../webhook/callback.js';
import { converterFor, CrConversionError } from './index.js';


const tab = (apiVersion: string, name = 'a', extra: Record<string, unknown> = {}) => ({ apiVersion, kind: 'CronTab', metadata: { name, namespace: 'ns' }, spec: { cron: '*' }, ...extra });
const failing: CallbackCaller = { call: () => Promise.reject(new Error('no call expected')) };

describe('converterFor', () => {
  it('None (and an absent strategy) rewrites apiVersion only, synchronously', () => {
    for (const conversion of [undefined, { strategy: 'None' }]) {
      const c = converterFor(crontabs(conversion));
      assert.equal(c.converts, false);
      assert.equal(c.strategy, 'None');
      if (c.converts) assert.fail('None converts nothing');
      const v1 = tab('stable.example.com/v1');
      const [out] = c.convertSync([v1], 'stable.example.com/v2');
      assert.deepEqual(out, tab('stable.example.com/v2'));
      assert.equal(v1.apiVersion, 'stable.example.com/v1', 'the input is not modified');
    }
  });

  it('a single-version Webhook CRD never calls its webhook', async () => {
    const c = converterFor(crontabs({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://x' } } }, ['v1']), { caller: failing });
    assert.equal(c.converts, false);
    assert.equal(c.strategy, 'Webhook');
    const o = tab('stable.example.com/v1');
    assert.deepEqual(await c.convert([o], 'stable.example.com/v1'), [o]);
  });

  it('a multi-version Webhook CRD converts through its webhook', () => {
    const c = converterFor(crontabs({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://x' } } }), { caller: failing });
    assert.equal(c.converts, true);
  });

  const refused: { name: string; crd: CustomResourceDefinition; caller?: CallbackCaller; want: string }[] = [
    { name: 'an unknown strategy', crd: crontabs({ strategy: 'Magic' }), want: 'unknown conversion strategy "Magic" for CRD crontabs.stable.example.com' },
    { name: 'Webhook without its webhook', crd: crontabs({ strategy: 'Webhook' }), caller: failing, want: 'conversion webhook for CRD crontabs.stable.example.com has no clientConfig' },
    { name: 'Webhook without a callback client', crd: crontabs({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://x' } } }), want: 'conversion webhook for CRD crontabs.stable.example.com: no callback client' },
  ];
  for (const r of refused) {
    it(`refuses ${r.name}`, () => {
      assert.throws(() => converterFor(r.crd, r.caller ? { caller: r.caller } : {}), (err: unknown) => err instanceof CrConversionError && err.message === r.want);
    });
  }
});

describe('None conversion', () => {
  const c = converterFor(crontabs({ strategy: 'None' }));
  const rows: { name: string; objects: object[]; to: string; list?: boolean; want: object[] | string }[] = [
    { name: 'one object to another version', objects: [tab('stable.example.com/v1')], to: 'stable.example.com/v2', want: [tab('stable.example.com/v2')] },
    { name: 'one object already in the version', objects: [tab('stable.example.com/v2')], to: 'stable.example.com/v2', want: [tab('stable.example.com/v2')] },
    { name: 'a list of mixed versions', objects: [tab('stable.example.com/v1', 'a'), tab('stable.example.com/v2', 'b')], to: 'stable.example.com/v1', want: [tab('stable.example.com/v1', 'a'), tab('stable.example.com/v1', 'b')] },
    { name: 'an empty list', objects: [], to: 'stable.example.com/v2', want: [] },
    { name: 'a list of one', objects: [tab('stable.example.com/v1')], to: 'stable.example.com/v2', list: true, want: [tab('stable.example.com/v2')] },
    { name: 'a target version the CRD does not have', objects: [tab('stable.example.com/v1')], to: 'stable.example.com/v3', want: 'request to convert CR to an invalid group/version: stable.example.com/v3' },
    { name: 'an object of a version the CRD does not have', objects: [tab('stable.example.com/v0')], to: 'stable.example.com/v2', want: 'request to convert CR from an invalid group/version: stable.example.com/v0' },
    { name: 'a target of another group', objects: [tab('stable.example.com/v1')], to: 'other.example.com/v1', want: 'stable.example.com/v1, Kind=CronTab is unstructured and is not suitable for converting to "other.example.com/v1"' },
    { name: 'a target without group', objects: [tab('stable.example.com/v1')], to: 'v1', want: 'stable.example.com/v1, Kind=CronTab is unstructured and is not suitable for converting to "v1"' },
    { name: 'a list item of another version', objects: [tab('stable.example.com/v1'), tab('stable.example.com/v9')], to: 'stable.example.com/v2', want: 'request to convert CR list failed, list index 1 has invalid group/version: stable.example.com/v9' },
    { name: 'a list item of another group', objects: [tab('stable.example.com/v1'), tab('x.example.com/v1')], to: 'stable.example.com/v2', want: 'request to convert CR list failed, list index 1 has invalid group/version: x.example.com/v1' },
    { name: 'a list item without apiVersion', objects: [{ kind: 'CronTab' }, tab('stable.example.com/v1')], to: 'stable.example.com/v2', want: 'request to convert CR list failed, list index 0 has invalid group/version: ' },
    { name: 'a list to another group', objects: [tab('stable.example.com/v1'), tab('stable.example.com/v1')], to: 'x.example.com/v1', want: 'request to convert CR to an invalid group/version: x.example.com/v1' },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const opts = r.list !== undefined ? { list: r.list } : undefined;
      if (typeof r.want === 'string') {
        const want = r.want;
        const check = (err: unknown) => {
          assert.ok(err instanceof CrConversionError, String(err));
          assert.deepEqual(err.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: want, code: 500 });
          return true;
        };
        if (!c.converts) assert.throws(() => c.convertSync(r.objects, r.to, opts), check);
        await assert.rejects(c.convert(r.objects, r.to, opts), check);
      } else {
        if (!c.converts) assert.deepEqual(c.convertSync(r.objects, r.to, opts), r.want);
        assert.deepEqual(await c.convert(r.objects, r.to, opts), r.want);
      }
    });
  }
});
