// The latency trackers: how each layer adds up (mutating webhooks summed,
// validating ones and the APF wait the longest), what the SLI leaves out, and
// the audit annotations of slow requests (kube's keys, threshold, Go text).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { excludedLatencyMs, latencyAnnotations, timed, timedStorage, trackApfQueueWait, trackMutatingWebhook, trackValidatingWebhook, type LatencyTrackers } from './latencytrackers.js';

describe('latency trackers', () => {
  it('sum the mutating webhooks, keep the longest validating webhook and APF wait; the SLI leaves all three out', () => {
    const t: LatencyTrackers = {};
    for (const ms of [10, 20]) trackMutatingWebhook(t, ms);
    for (const ms of [5, 40, 7]) trackValidatingWebhook(t, ms);
    for (const ms of [3, 1]) trackApfQueueWait(t, ms);
    assert.deepEqual(t, { mutatingWebhookMs: 30, validatingWebhookMs: 40, apfQueueWaitMs: 3 });
    assert.equal(excludedLatencyMs(t), 73);
    assert.equal(excludedLatencyMs({}), 0);
    trackMutatingWebhook(undefined, 5); // no trackers (the server's own writes): nothing to note
  });

  it('sum the storage calls and the response steps, answering what they answer (also when they throw); no trackers: just the call', async () => {
    const t: LatencyTrackers = {};
    const wait = (ms: number) => new Promise<string>((r) => setTimeout(() => r('v'), ms));
    assert.equal(await timedStorage(t, () => wait(20)), 'v');
    await assert.rejects(timedStorage(t, async () => (await wait(20), Promise.reject(new Error('gone')))), /gone/);
    assert.ok(t.storageMs! >= 35, `two calls of ≥ 20 ms: ${t.storageMs}`);
    assert.equal(timed(t, 'serializeMs', () => JSON.stringify({ a: 1 })), '{"a":1}');
    assert.throws(() => timed(t, 'responseWriteMs', () => { throw new Error('closed'); }), /closed/);
    assert.ok(t.serializeMs! >= 0 && t.responseWriteMs! >= 0 && t.transformMs === undefined);
    assert.equal(await timedStorage(undefined, () => wait(1)), 'v');
    assert.equal(timed(undefined, 'transformMs', () => 3), 3);
  });

  const rows: [name: string, t: LatencyTrackers, totalMs: number, want: Record<string, string>][] = [
    ['at the threshold: nothing', { mutatingWebhookMs: 100 }, 500, {}],
    ['slow, but no tracked layer took time: nothing', { apfQueueWaitMs: 400 }, 900, {}],
    ['slow: the layers that took time, and the total', { mutatingWebhookMs: 0.25, validatingWebhookMs: 61_500 }, 75_000.5, {
      'apiserver.latency.k8s.io/mutating-webhook': '250µs', 'apiserver.latency.svc.io/mutating-webhook': '250µs',
      'apiserver.latency.k8s.io/validating-webhook': '1m1.5s', 'apiserver.latency.svc.io/validating-webhook': '1m1.5s',
      'apiserver.latency.k8s.io/total': '1m15.0005s', 'apiserver.latency.svc.io/total': '1m15.0005s',
    }],
    ['slow in storage and in writing the answer: kube\'s etcd, transform, serialize and response-write keys', { storageMs: 600, transformMs: 2, serializeMs: 0.5, responseWriteMs: 1.25 }, 700, Object.fromEntries(['k8s.io', 'svc.io'].flatMap((d) => [
      [`apiserver.latency.${d}/etcd`, '600ms'], [`apiserver.latency.${d}/transform-response-object`, '2ms'], [`apiserver.latency.${d}/serialize-response-object`, '500µs'],
      [`apiserver.latency.${d}/response-write`, '1.25ms'], [`apiserver.latency.${d}/total`, '700ms'],
    ]))],
  ];
  for (const [name, t, total, want] of rows) {
    it(`audit annotations: ${name}`, () => assert.deepEqual(Object.fromEntries(latencyAnnotations(t, total)), want));
  }
});
