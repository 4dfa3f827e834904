import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdmissionAttributes, AdmissionOperation } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import type { ResourceRequestInfo } from '../../../endpoints/requestinfo.js';
import { outcome } from '../testutil.js';

import { EventRateLimitConfigError, type Limit } from './config.js';
import { eventRateLimit, eventRateLimitFromConfig } from './index.js';
import { KEY_FUNCS } from './keys.js';

function clock() {
  let t = 5_000;
  return { now: () => t, step: (s: number) => { t += s * 1000; } };
}

interface Req {
  ns?: string;
  user?: string;
  /** source.component */
  source?: string;
  event?: Record<string, unknown>;
  kind?: 'Event' | 'ConfigMap';
  /** The group the request was sent to ('' core; events.svc.io shares the core store). */
  requestGroup?: string;
  operation?: AdmissionOperation;
  dryRun?: boolean;
  /** Seconds the clock moves before the request. */
  wait?: number;
  /** Expected refusal message (without "Too many requests: "); absent: admitted. */
  refused?: string;
}

function attributes(r: Req): AdmissionAttributes {
  const ns = r.ns ?? 'default';
  const kind = r.kind ?? 'Event';
  const object = { apiVersion: 'v1', kind, metadata: { name: 'x', namespace: ns }, ...(r.source !== undefined ? { source: { component: r.source } } : {}), ...r.event } as ApiObject;
  const requestGroup = r.requestGroup ?? '';
  return {
    operation: r.operation ?? 'CREATE', object, oldObject: undefined,
    resource: { group: '', version: 'v1', resource: kind === 'Event' ? 'events' : 'configmaps', kind },
    namespace: ns, name: 'x', namespaced: true, dryRun: r.dryRun ?? false,
    user: r.user === undefined ? undefined : { name: r.user, groups: [] },
    requestInfo: { apiGroup: requestGroup, apiVersion: 'v1', resource: kind === 'Event' ? 'events' : 'configmaps' } as ResourceRequestInfo,
  };
}

const L = (type: Limit['type'], burst: number, cacheSize = 0, qps = 1): Limit => ({ type, qps, burst, cacheSize });

/** Runs the requests in order against one plugin; each is admitted or refused with the message given. */
async function run(limits: Limit[], reqs: Req[]): Promise<void> {
  const c = clock();
  const plugin = eventRateLimit({ limits }, c.now);
  for (const [i, r] of reqs.entries()) {
    if (r.wait) c.step(r.wait);
    const s = await outcome(() => plugin.admit(attributes(r)));
    if (r.refused === undefined) {
      assert.equal(s, undefined, `request ${i} should pass: ${s?.message}`);
    } else {
      assert.deepEqual(s, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Too many requests: ${r.refused}`, reason: 'TooManyRequests', code: 429 }, `request ${i}`);
    }
  }
}

const SERVER = 'limit reached on type Server for key ';
const ns = (n: string) => `limit reached on type Namespace for key ${n}`;
const src = (k: string) => `limit reached on type SourceAndObject for key ${k}`;
const rep = (n: number, r: Req): Req[] => Array.from({ length: n }, () => r);

describe('EventRateLimit', () => {
  const table: [string, Limit[], Req[]][] = [
    ['Server: burst events pass, the next is refused', [L('Server', 3)], [...rep(3, {}), { refused: SERVER }]],
    ['Server: a token comes back after 1/qps seconds', [L('Server', 3)], [...rep(3, {}), { refused: SERVER }, { wait: 1 }, { refused: SERVER }]],
    ['other kinds neither count nor are refused', [L('Server', 2)], [{}, { kind: 'ConfigMap' }, {}, { kind: 'ConfigMap' }, { refused: SERVER }]],
    ['updates count as creates do', [L('Server', 2)], [{ operation: 'UPDATE' }, {}, { operation: 'UPDATE', refused: SERVER }]],
    ['deletes pass and do not count', [L('Server', 1)], [{ operation: 'DELETE' }, {}, { operation: 'DELETE' }, { refused: SERVER }]],
    ['dry runs neither count nor are refused (kube skips them)', [L('Server', 1)], [{ dryRun: true }, { dryRun: true }, {}, { dryRun: true }, { refused: SERVER }]],
    ['Events sent to events.svc.io (or events.k8s.io) are not counted: kube compares the request\'s kind with core Event',
      [L('Server', 1)], [{ requestGroup: 'events.svc.io' }, { requestGroup: 'events.k8s.io' }, {}, { requestGroup: 'events.svc.io' }, { refused: SERVER }]],
    ['Namespace: a bucket per namespace', [L('Server', 100), L('Namespace', 2, 10)],
      [{ ns: 'a' }, { ns: 'a' }, { ns: 'b' }, { ns: 'a', refused: ns('a') }, { ns: 'b' }, { ns: 'b', refused: ns('b') }, { ns: 'c' }]],
    ['Namespace: the least recently used bucket is dropped past cacheSize', [L('Namespace', 3, 2)], [
      { ns: 'a' }, { ns: 'a' }, { ns: 'b' }, { ns: 'b' }, { ns: 'b' }, { ns: 'a' },
      { ns: 'b', refused: ns('b') }, { ns: 'a', refused: ns('a') },
      { ns: 'c' }, // b was the least recently used: dropped
      { ns: 'a', refused: ns('a') }, { ns: 'b' },
    ]],
    ['User: a bucket per user name', [L('User', 2)], [
      { user: 'alice' }, { user: 'alice' }, { user: 'bob' }, { user: 'alice', refused: 'limit reached on type User for key alice' }, { user: 'bob' },
    ]],
    ['SourceAndObject: a bucket per source and involved object', [L('SourceAndObject', 2)], [
      { source: 'kubelet' }, { source: 'kubelet' }, { source: 'scheduler' }, { source: 'kubelet', refused: src('kubelet') },
    ]],
    ['several empty buckets: every reason, aggregated; every limit is counted', [L('Server', 2), L('Namespace', 1), L('User', 5)], [
      { ns: 'a', user: 'u' }, { ns: 'b', user: 'u' }, { ns: 'a', user: 'u', refused: `[${SERVER}, ${ns('a')}]` },
      { ns: 'c', user: 'u', refused: SERVER }, { ns: 'c', user: 'u', refused: `[${SERVER}, ${ns('c')}]` },
      { ns: 'd', user: 'u', refused: `[${SERVER}, limit reached on type User for key u]` },
    ]],
    ['two limits of one type are both enforced; one message each, shown once', [L('Server', 3), L('Server', 1)], [{}, { refused: SERVER }]],
  ];
  for (const [what, limits, reqs] of table) it(what, () => run(limits, reqs));

  it('default cacheSize: 4096 buckets', () => {
    const p = eventRateLimit({ limits: [L('Namespace', 1)] }, clock().now);
    for (let i = 0; i < 4097; i++) p.admit(attributes({ ns: `n${i}` }));
    assert.equal(p.enforcers[0]!.buckets!.length, 4096);
    assert.equal(p.enforcers[0]!.buckets!.has('n0'), false);
  });

  it('without a configuration, or with a bad one, the plugin is not built (kube\'s start-up message)', () => {
    assert.throws(() => eventRateLimitFromConfig(undefined), (e: unknown) => e instanceof EventRateLimitConfigError
      && e.message === 'couldn\'t init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty');
    assert.throws(() => eventRateLimitFromConfig({ apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'User', qps: 0, burst: 1 }] }),
      /^EventRateLimitConfigError: couldn't init admission plugin "EventRateLimit": limits\[0\]\.qps: Invalid value: 0: must be positive$/);
  });
});

describe('EventRateLimit bucket keys', () => {
  const base = attributes({ ns: 'ns1', user: 'alice' });
  const event = (e: Record<string, unknown>) => ({ ...base, object: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'x' }, ...e } as ApiObject });
  const rows: [string, keyof typeof KEY_FUNCS, AdmissionAttributes, string][] = [
    ['Server: one key', 'Server', base, ''],
    ['Namespace: the namespace', 'Namespace', base, 'ns1'],
    ['User: the user name', 'User', base, 'alice'],
    ['User: no user', 'User', { ...base, user: undefined }, ''],
    ['SourceAndObject: component, host, kind, namespace, name, uid, apiVersion joined with nothing', 'SourceAndObject', event({
      source: { component: 'kubelet', host: 'node-1' }, involvedObject: { kind: 'Pod', namespace: 'ns1', name: 'p', uid: 'u-1', apiVersion: 'v1', fieldPath: 'ignored' },
    }), 'kubeletnode-1Podns1pu-1v1'],
    ['SourceAndObject: absent parts are empty', 'SourceAndObject', event({ involvedObject: { name: 'p' } }), 'p'],
    ['SourceAndObject: no object', 'SourceAndObject', { ...base, object: undefined }, ''],
  ];
  for (const [what, type, a, key] of rows) it(what, () => assert.equal(KEY_FUNCS[type](a), key));
});
