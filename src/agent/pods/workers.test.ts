import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import { PodWorkers, type PodSyncer, type SyncOutcome } from './workers.js';

const pod = (uid: string, gen = 1): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${uid}`, namespace: 'ns', uid, generation: gen }, spec: {} });

class Recorder implements PodSyncer {
  calls: string[] = [];
  outcome: SyncOutcome = {};
  gate: Promise<void> | undefined;
  async syncPod(p: ApiObject): Promise<SyncOutcome> {
    this.calls.push(`sync ${p.metadata.uid} g${p.metadata.generation}`);
    if (this.gate) await this.gate;
    return this.outcome;
  }
  async syncTerminatingPod(p: ApiObject, grace: number | undefined): Promise<void> {
    this.calls.push(`terminating ${p.metadata.uid} grace=${grace}`);
  }
  async syncTerminatedPod(p: ApiObject): Promise<void> {
    this.calls.push(`terminated ${p.metadata.uid}`);
  }
}

test('a pod is synced, then killed: terminating with the grace period, then terminated; later updates are ignored', async () => {
  const r = new Recorder();
  const w = new PodWorkers(r, { resyncMs: 60_000 });
  w.update({ pod: pod('a'), type: 'sync' });
  await w.idle();
  w.update({ pod: pod('a'), type: 'kill', gracePeriodSeconds: 30 });
  await w.idle();
  w.update({ pod: pod('a', 2), type: 'sync' });
  await w.idle();
  assert.deepEqual(r.calls, ['sync a g1', 'terminating a grace=30', 'terminated a']);
  assert.equal(w.stageOf('a'), 'terminated');
  w.forget(pod('a'));
  assert.equal(w.stageOf('a'), undefined);
  w.stop();
});

test('a terminal phase moves the pod to terminating without a kill', async () => {
  const r = new Recorder();
  r.outcome = { terminal: true };
  const w = new PodWorkers(r, { resyncMs: 60_000 });
  w.update({ pod: pod('b'), type: 'sync' });
  await w.idle();
  assert.deepEqual(r.calls, ['sync b g1', 'terminating b grace=undefined', 'terminated b']);
  w.stop();
});

test('updates during a sync are coalesced to the newest; a kill is not replaced by a sync and the shorter grace wins', async () => {
  const r = new Recorder();
  let open!: () => void;
  r.gate = new Promise((resolve) => { open = resolve; });
  const w = new PodWorkers(r, { resyncMs: 60_000 });
  w.update({ pod: pod('c', 1), type: 'sync' });
  w.update({ pod: pod('c', 2), type: 'sync' });
  w.update({ pod: pod('c', 3), type: 'sync' });
  w.update({ pod: pod('c', 4), type: 'kill', gracePeriodSeconds: 30 });
  w.update({ pod: pod('c', 5), type: 'kill', gracePeriodSeconds: 5 });
  w.update({ pod: pod('c', 6), type: 'sync' });
  r.gate = undefined;
  open();
  await w.idle();
  assert.deepEqual(r.calls, ['sync c g1', 'terminating c grace=5', 'terminated c']);
  w.stop();
});

test('forgetting a running pod kills it and drops the lane', async () => {
  const r = new Recorder();
  const w = new PodWorkers(r, { resyncMs: 60_000 });
  w.update({ pod: pod('d'), type: 'sync' });
  await w.idle();
  w.forget(pod('d'));
  await w.idle();
  assert.deepEqual(r.calls, ['sync d g1', 'terminating d grace=undefined', 'terminated d']);
  assert.equal(w.stageOf('d'), undefined);
  w.stop();
});

test('a failed sync is reported and retried', async () => {
  const r = new Recorder();
  let fail = true;
  const errors: string[] = [];
  const syncer: PodSyncer = {
    ...r,
    syncPod: async (p) => {
      r.calls.push(`sync ${p.metadata.uid}`);
      if (fail) { fail = false; throw new Error('runtime down'); }
      return {};
    },
    syncTerminatingPod: r.syncTerminatingPod.bind(r),
    syncTerminatedPod: r.syncTerminatedPod.bind(r),
  };
  const w = new PodWorkers(syncer, { resyncMs: 60_000, errorBackoffMs: 1, onError: (_p, e) => errors.push((e as Error).message) });
  w.update({ pod: pod('e'), type: 'sync' });
  await w.idle();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await w.idle();
  assert.deepEqual(errors, ['runtime down']);
  assert.deepEqual(r.calls, ['sync e', 'sync e']);
  w.stop();
});

test('reconcile: the lane\'s next sync gets the newest object, and no sync runs for it', async () => {
  const r = new Recorder();
  const w = new PodWorkers(r, { resyncMs: 60_000 });
  w.update({ pod: pod('r'), type: 'sync' });
  await w.idle();
  w.reconcile(pod('r', 2));
  await w.idle();
  assert.deepEqual(r.calls, ['sync r g1']);
  w.resync('r');
  await w.idle();
  assert.deepEqual(r.calls, ['sync r g1', 'sync r g2']);
  w.stop();
});
