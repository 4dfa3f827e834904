// TaintNodesByCondition: the not-ready taint on new nodes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { taintNodesByCondition } from './taintnodesbycondition.js';
import { attrs } from './testutil.js';

const NOT_READY = { key: 'node.svc.io/not-ready', effect: 'NoSchedule' };
const node = (taints?: unknown[]): ApiObject => ({ metadata: { name: 'n1' }, ...(taints ? { spec: { taints } } : {}) });

describe('TaintNodesByCondition', () => {
  const plugin = taintNodesByCondition();
  const rows: [string, Parameters<typeof attrs>[0], unknown][] = [
    ['a new node without spec', { object: node() }, [NOT_READY]],
    ['after its own taints', { object: node([{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }]) }, [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }, NOT_READY]],
    ['already there', { object: node([NOT_READY]) }, [NOT_READY]],
    ['already there in the kubernetes.io spelling', { object: node([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]) }, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]],
    ['a NoExecute not-ready taint does not count', { object: node([{ key: 'node.svc.io/not-ready', effect: 'NoExecute' }]) }, [{ key: 'node.svc.io/not-ready', effect: 'NoExecute' }, NOT_READY]],
    ['not on update', { operation: 'UPDATE', object: node([]) }, []],
    ['not on the status subresource', { subresource: 'status', object: node([]) }, []],
  ];
  for (const [what, init, want] of rows) {
    it(what, async () => {
      const a = attrs({ resource: 'nodes', namespace: '', ...init });
      await plugin.admit(a);
      assert.deepEqual((a.object!.spec as Record<string, unknown>).taints, want);
    });
  }
});
