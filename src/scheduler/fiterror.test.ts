// The FailedScheduling message as kube's FitError.Error() writes it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitErrorMessage } from './fiterror.js';
import type { Status } from './framework.js';

const s = (code: Status['code'], ...reasons: string[]): Status => ({ code, reasons });

describe('fitErrorMessage', () => {
  const rows: { name: string; nodes: number; statuses: [string, Status][]; pre?: string; post?: string; want: string }[] = [
    {
      name: 'a histogram of reasons, sorted as strings, then preemption',
      nodes: 3,
      statuses: [['a', s('UnschedulableAndUnresolvable', 'node(s) had untolerated taint {k: v}')], ['b', s('Unschedulable', 'Insufficient cpu')], ['c', s('Unschedulable', 'Insufficient cpu')]],
      post: 'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
      want: '0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod..',
    },
    {
      name: 'several reasons of one node each count',
      nodes: 2,
      statuses: [['a', s('Unschedulable', 'Insufficient cpu', 'Insufficient memory')], ['b', s('Unschedulable', 'Insufficient memory')]],
      want: '0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.',
    },
    {
      name: 'a PreFilter message replaces the histogram',
      nodes: 2,
      statuses: [['a', s('UnschedulableAndUnresolvable', 'x')], ['b', s('UnschedulableAndUnresolvable', 'x')]],
      pre: "node(s) didn't match Pod's node affinity/selector",
      want: "0/2 nodes are available: node(s) didn't match Pod's node affinity/selector.",
    },
    { name: 'no nodes, no reasons', nodes: 0, statuses: [], want: '0/0 nodes are available:' },
    { name: 'counts above nine sort as strings (kube sorts "10 …" before "2 …")', nodes: 12, statuses: [...Array.from({ length: 10 }, (_, i): [string, Status] => [`a${i}`, s('Unschedulable', 'Insufficient cpu')]), ['b', s('Unschedulable', 'Too many pods')], ['c', s('Unschedulable', 'Too many pods')]], want: '0/12 nodes are available: 10 Insufficient cpu, 2 Too many pods.' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.equal(fitErrorMessage(r.nodes, { nodeStatuses: new Map(r.statuses), ...(r.pre ? { preFilterMsg: r.pre } : {}), ...(r.post ? { postFilterMsg: r.post } : {}) }), r.want);
    });
  }
});
