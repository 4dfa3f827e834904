import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configureMetrics, exponentialBuckets, exposition, helpText, isHidden, newCounter, newGauge, newHistogram, resetMetrics, validateShowHiddenMetricsVersion } from './registry.js';
import { helpAndType, sampleSum } from '../testing/metricstext.js';

// Metrics declared once for this file (the registry is process-global).
const counter = newCounter({ name: 'svc_test_registry_total', help: 'A test counter.', labelNames: ['a', 'b'] });
const plain = newCounter({ name: 'svc_test_registry_plain_total', help: 'No labels.' });
const hist = newHistogram({ name: 'svc_test_registry_seconds', help: 'A test histogram.', labelNames: ['op'], buckets: [0.1, 1, 10], stabilityLevel: 'STABLE' });
const gauge = newGauge({ name: 'svc_test_registry_gauge', help: 'A test gauge.', labelNames: ['k'] });
const deprecated = newCounter({ name: 'svc_test_registry_deprecated_total', help: 'Old.', deprecatedVersion: '1.26.0' });
const hidden = newCounter({ name: 'svc_test_registry_hidden_total', help: 'Older.', deprecatedVersion: '1.25.0' });

describe('metrics registry', () => {
  it('counts by label set, through children and label objects alike', async () => {
    configureMetrics();
    const before = await exposition();
    const child = counter.child({ a: 'x', b: 'y' });
    child.inc();
    child.inc(2);
    counter.inc({ b: 'y', a: 'x' });
    counter.inc({ a: 'other' });
    const text = await exposition();
    assert.equal(sampleSum(text, 'svc_test_registry_total', { a: 'x', b: 'y' }) - sampleSum(before, 'svc_test_registry_total', { a: 'x', b: 'y' }), 4);
    assert.equal(sampleSum(text, 'svc_test_registry_total', { a: 'other', b: '' }), 1);
    assert.match(text, /^svc_test_registry_plain_total 0$/m, 'a counter without labels is exposed from the start');
    assert.deepEqual(helpAndType(text, 'svc_test_registry_total'), { help: '[ALPHA] A test counter.', type: 'counter' });
  });

  it('refuses unknown labels and decreasing counters', () => {
    assert.throws(() => counter.inc({ c: 'x' } as never), /unknown label "c"/);
    assert.throws(() => plain.inc(undefined, -1), /cannot decrease/);
  });

  it('writes histograms as Prometheus does: cumulative buckets, +Inf, _sum, _count', async () => {
    const h = hist.child({ op: 'get' });
    for (const v of [0.05, 0.5, 0.5, 5, 50]) h.observe(v);
    const text = await exposition();
    const rows: [string, number][] = [['0.1', 1], ['1', 3], ['10', 4], ['+Inf', 5]];
    for (const [le, n] of rows) assert.equal(sampleSum(text, 'svc_test_registry_seconds_bucket', { op: 'get', le }), n, `le=${le}`);
    assert.equal(sampleSum(text, 'svc_test_registry_seconds_count', { op: 'get' }), 5);
    assert.equal(sampleSum(text, 'svc_test_registry_seconds_sum', { op: 'get' }), 56.05);
    assert.deepEqual(helpAndType(text, 'svc_test_registry_seconds'), { help: '[STABLE] A test histogram.', type: 'histogram' });
  });

  it('keeps gauges in prom-client: set, inc, dec, remove', async () => {
    gauge.set({ k: 'a' }, 5);
    gauge.inc({ k: 'a' });
    gauge.dec({ k: 'a' }, 2);
    gauge.set({ k: 'b' }, 1);
    gauge.remove({ k: 'b' });
    const text = await exposition();
    assert.equal(sampleSum(text, 'svc_test_registry_gauge', { k: 'a' }), 4);
    assert.doesNotMatch(text, /svc_test_registry_gauge\{k="b"\}/);
  });

  it('the lifecycle: deprecated metrics say so in HELP; hidden ones appear only with --show-hidden-metrics-for-version', async () => {
    deprecated.inc();
    hidden.inc();
    configureMetrics();
    let text = await exposition();
    assert.equal(helpAndType(text, 'svc_test_registry_deprecated_total').help, '[ALPHA] (Deprecated since 1.26.0) Old.');
    assert.doesNotMatch(text, /svc_test_registry_hidden_total/);
    configureMetrics({ showHiddenMetricsForVersion: '1.26' });
    text = await exposition();
    assert.equal(sampleSum(text, 'svc_test_registry_hidden_total'), 1, 'recorded while hidden');
    assert.equal(helpAndType(text, 'svc_test_registry_hidden_total').help, '[ALPHA] (Deprecated since 1.25.0) Older.');
    configureMetrics();
  });

  it('reset (DELETE /metrics): labelled series are forgotten until recorded again, a counter without labels restarts at 0', async () => {
    const child = counter.child({ a: 'r', b: 'r' });
    child.inc();
    plain.inc();
    hist.observe({ op: 'reset' }, 1);
    gauge.set({ k: 'r' }, 3);
    resetMetrics();
    let text = await exposition();
    assert.doesNotMatch(text, /svc_test_registry_total\{/);
    assert.doesNotMatch(text, /svc_test_registry_seconds_count\{/);
    assert.doesNotMatch(text, /svc_test_registry_gauge\{k="r"\}/);
    assert.match(text, /^svc_test_registry_plain_total 0$/m);
    child.inc();
    text = await exposition();
    assert.equal(sampleSum(text, 'svc_test_registry_total', { a: 'r', b: 'r' }), 1, 'a kept child counts from 0 again');
    assert.doesNotMatch(text, /svc_test_registry_total\{a="x"/);
  });

  it('isHidden: deprecated before the previous minor release', () => {
    const rows: [string | undefined, boolean][] = [[undefined, false], ['1.27.0', false], ['1.26.0', false], ['1.25.0', true], ['1.20.0', true], ['0.9.0', true], ['2.0.0', false], ['junk', false]];
    for (const [v, want] of rows) assert.equal(isHidden(v), want, String(v));
  });

  it('--show-hidden-metrics-for-version: only the previous minor release, with kube\'s message', () => {
    const msg = "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed";
    const rows: [string, string | undefined][] = [['', undefined], ['1.26', undefined], ['1.25', msg], ['1.27', msg], ['v1.26', msg], ['1.26.0', msg], ['x', msg]];
    for (const [v, want] of rows) assert.equal(validateShowHiddenMetricsVersion(v), want, v);
  });

  it('helpText and exponentialBuckets', () => {
    assert.equal(helpText({ name: 'x', help: 'h', stabilityLevel: 'BETA' }), '[BETA] h');
    assert.deepEqual(exponentialBuckets(1000, 10, 3), [1000, 10000, 100000]);
    assert.deepEqual(exponentialBuckets(1024, 2, 8), [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072]);
  });
});
