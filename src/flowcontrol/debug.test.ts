// The debug dumps: kube's columns, Go's tabwriter alignment, <none> for
// exempt levels, waiting requests with their details, Go duration strings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './clock.js';
import { FlowControlConfig } from './config.js';
import { dumpPriorityLevels, dumpQueues, dumpRequests, tabwrite } from './debug.js';
import type { ApiObject } from '../registry/object.js';

describe('debug dumps', () => {
  it('aligns like text/tabwriter (minwidth 8, padding 1)', () => {
    assert.equal(tabwrite([['ab,', 'c'], ['longer-name,', 'd']]), 'ab,          c\nlonger-name, d\n');
  });

  const config = new FlowControlConfig(new FakeClock(), 2);
  config.apply([], [{
    metadata: { name: 'small', uid: 'u' },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 100, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 1, queueLengthLimit: 5 } } } },
  } as ApiObject]);
  const qs = config.level('small')!.qs;
  const one = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
  qs.start({ flowSchema: 'fs', distinguisher: 'alice', estimate: one, maxWaitMs: 1000 });
  qs.start({ flowSchema: 'fs', distinguisher: 'alice', estimate: one, maxWaitMs: 1000 });
  qs.start({
    flowSchema: 'fs', distinguisher: 'alice', estimate: { initialSeats: 1, finalSeats: 2, additionalLatencyMs: 5 }, maxWaitMs: 1000, user: 'alice',
    info: { isResourceRequest: true, verb: 'list', apiPrefix: 'apis', apiGroup: 'apps', apiVersion: 'v1', namespace: 'ns', resource: 'deployments', subresource: '', name: '', parts: [], path: '/apis/apps/v1/namespaces/ns/deployments' },
  });

  it('priority levels', () => {
    const lines = dumpPriorityLevels(config).split('\n');
    assert.equal(lines[0], 'PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests');
    assert.equal(lines[1], 'catch-all,         0,            true,   false,       0,               0');
    assert.equal(lines[2], 'exempt,            <none>,       <none>, <none>,      <none>,          <none>');
    assert.equal(lines[3], 'small,             1,            false,  false,       1,               2');
  });

  it('queues', () => {
    const lines = dumpQueues(config).split('\n').filter((l) => l.startsWith('small'));
    assert.equal(lines.length, 2);
    assert.ok(lines.some((l) => /^small, +\d, +1, +\d, +\d, +\d+\.\d{9}ss, +1, +2, +3\.010000000ss$/.test(l)), lines.join('\n'));
  });

  it('requests, with details on request', () => {
    const plain = dumpRequests(config, false).split('\n');
    assert.match(plain[1]!, /^small, +fs, +\d, +0, +alice, +\d{4}-\d\d-\d\dT[\d:.]+Z, +1, +2, +5ms$/);
    const detailed = dumpRequests(config, true).split('\n');
    assert.match(detailed[0]!, /AdditionalLatency, UserName, +Verb, +APIPath, +Namespace, +Name, +APIVersion, +Resource, +SubResource$/);
    assert.match(detailed[1]!, /5ms, +alice, +list, +\/apis\/apps\/v1\/namespaces\/ns\/deployments, +ns, +, +apps\/v1, +deployments, +$/);
  });
});
