// The rolling update's arithmetic and steps (kube's SurgeCount,
// UnavailableCount, updatedDesiredNodeCounts, rollingUpdate).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { allowsSurge, rollingLimits, rollingUpdateStep, surgeCount, unavailableCount } from './rolling.js';
import { byNode, daemonSet, NOW, pod, type PodFixture } from './testing.js';

const rolling = (maxUnavailable: unknown, maxSurge: unknown) => ({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge } });
const nodes = (n: number, except: string[] = []) => new Map(Array.from({ length: n }, (_, i) => [`n${i}`, !except.includes(`n${i}`)]));

describe('surge and unavailability counts', () => {
  const rows: { name: string; strategy: Record<string, unknown>; of: number; surge: number; unavailable: number }[] = [
    { name: 'integers as given', strategy: rolling(2, 0), of: 10, surge: 0, unavailable: 2 },
    { name: 'percentages rounded up, both', strategy: rolling('25%', '10%'), of: 10, surge: 1, unavailable: 3 },
    { name: 'a percentage of no nodes is 0', strategy: rolling('50%', 0), of: 0, surge: 0, unavailable: 0 },
    { name: 'OnDelete: neither', strategy: { type: 'OnDelete' }, of: 10, surge: 0, unavailable: 0 },
    { name: 'RollingUpdate without limits: neither', strategy: { type: 'RollingUpdate' }, of: 10, surge: 0, unavailable: 0 },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.equal(surgeCount(daemonSet(r.strategy), r.of), r.surge);
      assert.equal(unavailableCount(daemonSet(r.strategy), r.of), r.unavailable);
    });
  }
  it('a malformed percentage is an error; allowsSurge says no', () => {
    assert.throws(() => surgeCount(daemonSet(rolling(1, 'x')), 3), /invalid value for IntOrString/);
    assert.equal(allowsSurge(daemonSet(rolling(1, 'x'))), false);
    assert.equal(allowsSurge(daemonSet(rolling(0, '1%'))), true, '1% of one node rounds up to 1');
    assert.equal(allowsSurge(daemonSet(rolling(1, 0))), false);
  });
  it('limits against the nodes that should run the daemon; both 0 → one unavailable', () => {
    assert.deepEqual(rollingLimits(daemonSet(rolling('50%', 0)), nodes(5, ['n0'])), { maxSurge: 0, maxUnavailable: 2, desired: 4 });
    assert.deepEqual(rollingLimits(daemonSet(rolling(0, 0)), nodes(3)), { maxSurge: 0, maxUnavailable: 1, desired: 3 });
    assert.deepEqual(rollingLimits(daemonSet(rolling(0, 0)), nodes(0)), { maxSurge: 0, maxUnavailable: 0, desired: 0 });
    assert.throws(() => rollingLimits(daemonSet(rolling('x', 0)), nodes(1)), /^Error: invalid value for MaxUnavailable: /);
  });
});

describe('rolling update step', () => {
  const OLD = 'old';
  const NEW = 'new';
  const rows: { name: string; strategy: Record<string, unknown>; minReady?: number; nodes: number; except?: string[]; pods: PodFixture[]; delete: string[]; create: string[] }[] = [
    {
      name: 'maxUnavailable 1: one available old pod deleted at a time', strategy: rolling(1, 0), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: OLD, ready: 60 }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: ['a'], create: [],
    },
    {
      name: 'maxUnavailable 2', strategy: rolling(2, 0), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: OLD, ready: 60 }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: ['a', 'b'], create: [],
    },
    {
      name: 'a node still without its new pod uses up the budget', strategy: rolling(1, 0), nodes: 3,
      pods: [{ name: 'b', node: 'n1', hash: OLD, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: [], create: [],
    },
    {
      name: 'a new pod not yet available counts as unavailable', strategy: rolling(1, 0), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: NEW }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: [], create: [],
    },
    {
      name: 'an unavailable old pod is replaced whatever the budget', strategy: rolling(1, 0), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: NEW }, { name: 'b', node: 'n1', hash: OLD }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: ['b'], create: [],
    },
    {
      name: 'minReadySeconds: ready but not long enough is unavailable', strategy: rolling(1, 0), minReady: 30, nodes: 2,
      pods: [{ name: 'a', node: 'n0', hash: NEW, ready: 10 }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }],
      delete: [], create: [],
    },
    {
      name: 'the template generation label also makes a pod new', strategy: rolling(1, 0), nodes: 2,
      pods: [{ name: 'a', node: 'n0', hash: OLD, generation: '2', ready: 60 }, { name: 'b', node: 'n1', hash: OLD, generation: '1', ready: 60 }],
      delete: ['b'], create: [],
    },
    {
      name: 'pods being deleted are not counted as old or new', strategy: rolling(1, 0), nodes: 2,
      pods: [{ name: 'a', node: 'n0', hash: OLD, ready: 60, deleting: true }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }],
      delete: [], create: [],
    },
    {
      name: 'maxSurge 1: a new pod beside one available old pod', strategy: rolling(0, 1), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: OLD, ready: 60 }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: [], create: ['n0'],
    },
    {
      name: 'maxSurge: the old pod goes once the new one is available; the next node surges', strategy: rolling(0, 1), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: OLD, ready: 60 }, { name: 'a2', node: 'n0', hash: NEW, ready: 5 }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: ['a'], create: ['n1'],
    },
    {
      name: 'maxSurge: a new pod still waiting uses up the surge', strategy: rolling(0, 1), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: OLD, ready: 60 }, { name: 'a2', node: 'n0', hash: NEW }, { name: 'b', node: 'n1', hash: OLD, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: [], create: [],
    },
    {
      name: 'maxSurge: an unavailable old pod gets its new pod beyond the surge', strategy: rolling(0, 1), nodes: 3,
      pods: [{ name: 'a', node: 'n0', hash: OLD, ready: 60 }, { name: 'a2', node: 'n0', hash: NEW }, { name: 'b', node: 'n1', hash: OLD }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: [], create: ['n1'],
    },
    {
      name: 'maxSurge: an old pod on a node that should no longer run it goes only while more are available than desired', strategy: rolling(0, 1), nodes: 3, except: ['n2'],
      pods: [{ name: 'a', node: 'n0', hash: NEW, ready: 60 }, { name: 'b', node: 'n1', hash: NEW, ready: 60 }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: ['c'], create: [],
    },
    {
      name: 'maxSurge: … and stays while the desired ones are not yet available', strategy: rolling(0, 1), nodes: 3, except: ['n2'],
      pods: [{ name: 'a', node: 'n0', hash: NEW, ready: 60 }, { name: 'b', node: 'n1', hash: NEW }, { name: 'c', node: 'n2', hash: OLD, ready: 60 }],
      delete: [], create: [],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const pods: ApiObject[] = r.pods.map(pod);
      const step = rollingUpdateStep({ ds: daemonSet(r.strategy, r.minReady ?? 0), shouldRun: nodes(r.nodes, r.except), podsByNode: byNode(pods), hash: NEW, generation: 2n, now: NOW });
      assert.deepEqual(step, { deletePods: r.delete, createOnNodes: r.create });
    });
  }
});
