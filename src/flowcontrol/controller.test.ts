// The Dangling condition (kube's messages and reasons, lastTransitionTime
// kept while the status holds) and dangling schemas left out of matching.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { danglingCondition, withDangling } from './controller.js';
import { FlowControlConfig } from './config.js';
import { FakeClock } from './clock.js';

const fs = (status?: unknown): ApiObject => ({ metadata: { name: 'f' }, ...(status ? { status } : {}) }) as ApiObject;
const T0 = Date.UTC(2026, 0, 1);

describe('Dangling condition', () => {
  it('kube\'s wording', () => {
    assert.deepEqual(danglingCondition('x', true), {
      type: 'Dangling', status: 'True', reason: 'NotFound', message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" but there is no such object',
    });
    assert.deepEqual(danglingCondition('x', false), {
      type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" and it exists',
    });
  });
  it('set when missing, unchanged when equal, the transition time moving only with the status', () => {
    const first = withDangling(fs(), danglingCondition('x', false), T0)!;
    assert.deepEqual(first, { conditions: [{ ...danglingCondition('x', false), lastTransitionTime: '2026-01-01T00:00:00Z' }] });
    assert.equal(withDangling(fs(first), danglingCondition('x', false), T0 + 5000), undefined);
    const flipped = withDangling(fs(first), danglingCondition('x', true), T0 + 5000)!;
    assert.equal((flipped.conditions as { lastTransitionTime: string }[])[0]!.lastTransitionTime, '2026-01-01T00:00:05Z');
    const renamed = withDangling(fs(first), danglingCondition('y', false), T0 + 9000)!;
    assert.equal((renamed.conditions as { lastTransitionTime: string }[])[0]!.lastTransitionTime, '2026-01-01T00:00:00Z');
  });
  it('a schema whose level does not exist is dangling and matches nothing', () => {
    const config = new FlowControlConfig(new FakeClock(), 10);
    const schema = { metadata: { name: 'lost' }, spec: { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 5, rules: [] } } as unknown as ApiObject;
    config.apply([schema], []);
    assert.deepEqual(config.dangling.get('lost'), { level: 'nowhere', dangling: true });
    assert.deepEqual(config.ordered.map((c) => c.schema.name), ['exempt', 'catch-all']);
    // the mandatory objects are used while storage lacks them, and not reported
    assert.equal(config.dangling.has('catch-all'), false);
  });
});
