import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BucketCache, TokenBucket } from './bucket.js';
import { eventRateLimitPlugin, parseEventRateLimitConfiguration } from './index.js';
import type { AdmissionAttributes } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { isStatusError } from '../../../api/meta/index.js';

const V = 'eventratelimit.admission.k8s.io/v1alpha1';
const PREFIX = 'couldn\'t init admission plugin "EventRateLimit": ';

describe('EventRateLimit configuration (kube\'s ValidateConfiguration)', () => {
  const rows: [string, unknown, string | undefined][] = [
    ['a valid configuration', { apiVersion: V, kind: 'Configuration', limits: [{ type: 'Namespace', qps: 5, burst: 10, cacheSize: 100 }] }, undefined],
    ['the svc.io spelling, YAML text', `apiVersion: eventratelimit.admission.svc.io/v1alpha1\nkind: Configuration\nlimits:\n- {type: Server, qps: 1, burst: 1}\n`, undefined],
    ['none at all (kube\'s default is empty)', undefined, 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty'],
    ['an empty list', { apiVersion: V, kind: 'Configuration', limits: [] }, 'limits: Invalid value: []eventratelimit.Limit{}: must not be empty'],
    ['an unknown type', { apiVersion: V, kind: 'Configuration', limits: [{ type: 'Pod', qps: 1, burst: 1 }] }, 'limits[0].type: Unsupported value: "Pod": supported values: "Server", "Namespace", "User", "SourceAndObject"'],
    ['zero qps and burst, negative cacheSize', { apiVersion: V, kind: 'Configuration', limits: [{ type: 'User', qps: 0, burst: 0, cacheSize: -1 }] },
      '[limits[0].burst: Invalid value: 0: must be positive, limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative]'],
    ['a negative cacheSize is not checked for Server', { apiVersion: V, kind: 'Configuration', limits: [{ type: 'Server', qps: 1, burst: 1, cacheSize: -1 }] }, undefined],
    ['a wrong kind', { apiVersion: V, kind: 'Config', limits: [] }, `no kind "Config" is registered for version "${V}"`],
    ['a fractional qps', { apiVersion: V, kind: 'Configuration', limits: [{ type: 'Server', qps: 0.5, burst: 1 }] }, 'json: cannot unmarshal number into Go struct field Limit.limits.qps of type int32'],
  ];
  for (const [what, config, error] of rows) {
    it(what, () => {
      if (error === undefined) assert.doesNotThrow(() => parseEventRateLimitConfiguration(config));
      else assert.throws(() => parseEventRateLimitConfiguration(config), (e: unknown) => (e as Error).message === PREFIX + error);
    });
  }
});

describe('token buckets (x/time/rate semantics)', () => {
  it('start full with burst tokens and refill at qps up to burst', () => {
    const b = new TokenBucket(2, 3, 0);
    assert.deepEqual([b.tryAccept(0), b.tryAccept(0), b.tryAccept(0), b.tryAccept(0)], [true, true, true, false]);
    assert.equal(b.tryAccept(400), false, '0.8 token after 400 ms at 2/s');
    assert.equal(b.tryAccept(500), true, 'one token after 500 ms');
    assert.deepEqual([b.tryAccept(10_000), b.tryAccept(10_000), b.tryAccept(10_000), b.tryAccept(10_000)], [true, true, true, false], 'never more than burst');
  });
  it('an LRU of buckets drops the least recently used', () => {
    let made = 0;
    const c = new BucketCache(2, () => (made++, new TokenBucket(1, 1, 0)));
    const a = c.get('a');
    c.get('b');
    assert.equal(c.get('a'), a);
    c.get('c'); // drops b, the least recently used
    assert.equal(c.count, 2);
    assert.equal(c.get('a'), a);
    c.get('b');
    assert.equal(made, 4);
  });
});

describe('EventRateLimit admission', () => {
  const event = (ns: string, component = 'kubelet', name = 'p'): ApiObject => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: `${name}.1`, namespace: ns }, source: { component, host: 'n1' }, involvedObject: { kind: 'Pod', namespace: ns, name, uid: 'u1', apiVersion: 'v1' } } as ApiObject);
  const attrs = (obj: ApiObject, user = 'alice', over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
    operation: 'CREATE', object: obj, oldObject: undefined, resource: { group: '', version: 'v1', resource: 'events', kind: 'Event' },
    namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', namespaced: true, dryRun: false, user: { name: user, groups: [] }, ...over,
  });
  const plugin = (type: string, clock: { t: number }) => eventRateLimitPlugin(parseEventRateLimitConfiguration({ apiVersion: V, kind: 'Configuration', limits: [{ type, qps: 1, burst: 2 }] }), () => clock.t);
  const outcome = (p: ReturnType<typeof plugin>, a: AdmissionAttributes): string => {
    try {
      p.admit(a);
      return 'ok';
    } catch (err) {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 429);
      assert.equal(err.status.reason, 'TooManyRequests');
      assert.equal(err.status.details, undefined);
      return err.status.message!;
    }
  };

  const rows: [string, string, [ApiObject, string][], string[]][] = [
    ['Server: one bucket for everything', 'Server', [[event('a'), 'alice'], [event('b'), 'bob'], [event('c'), 'carol']], ['ok', 'ok', 'Too many requests: limit reached on type Server for key ']],
    ['Namespace: a bucket per namespace', 'Namespace', [[event('a'), 'alice'], [event('a'), 'alice'], [event('a'), 'alice'], [event('b'), 'alice']], ['ok', 'ok', 'Too many requests: limit reached on type Namespace for key a', 'ok']],
    ['User: a bucket per user', 'User', [[event('a'), 'alice'], [event('b'), 'alice'], [event('c'), 'alice'], [event('a'), 'bob']], ['ok', 'ok', 'Too many requests: limit reached on type User for key alice', 'ok']],
    ['SourceAndObject: by source and involved object', 'SourceAndObject', [[event('a'), 'alice'], [event('a'), 'bob'], [event('a'), 'carol'], [event('a', 'scheduler'), 'alice']],
      ['ok', 'ok', 'Too many requests: limit reached on type SourceAndObject for key kubeletn1Podapu1v1', 'ok']],
  ];
  for (const [what, type, calls, want] of rows) {
    it(what, () => {
      const clock = { t: 0 };
      const p = plugin(type, clock);
      assert.deepEqual(calls.map(([e, u]) => outcome(p, attrs(e, u))), want);
      clock.t = 1000;
      assert.equal(outcome(p, attrs(calls[2]![0], calls[2]![1])), 'ok', 'a token comes back after 1 s at 1 qps');
    });
  }

  it('only core Events on create and update count: other kinds, deletes and events.svc.io requests pass', () => {
    const p = plugin('Server', { t: 0 });
    const e = event('a');
    for (let i = 0; i < 5; i++) {
      assert.equal(outcome(p, attrs(e, 'alice', { operation: 'DELETE', object: undefined, oldObject: e })), 'ok');
      assert.equal(outcome(p, attrs({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'a' } } as ApiObject, 'alice', { resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' } })), 'ok');
      assert.equal(outcome(p, attrs(e, 'alice', { requestInfo: { apiGroup: 'events.k8s.io' } as AdmissionAttributes['requestInfo'] })), 'ok');
    }
    assert.equal(outcome(p, attrs(e)), 'ok');
    assert.equal(outcome(p, attrs(e, 'alice', { operation: 'UPDATE', oldObject: e })), 'ok');
    assert.match(outcome(p, attrs(e)), /limit reached on type Server/);
  });
});
