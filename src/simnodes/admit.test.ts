import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResourceList } from '../quota/resources.js';
import { admitPod } from './admit.js';

const ALLOCATABLE = parseResourceList({ cpu: '4', memory: '16284Mi', pods: '3', 'ephemeral-storage': '90Gi', 'example.com/gpu': '1' });

describe('kubelet resource admission of simulated nodes', () => {
  const table: { name: string; request: Record<string, string>; used: Record<string, string>; pods: number; want?: [string, string] }[] = [
    { name: 'an empty pod fits', request: {}, used: {}, pods: 0 },
    { name: 'fits exactly', request: { cpu: '1500m' }, used: { cpu: '2500m' }, pods: 2 },
    { name: 'too many pods first', request: { cpu: '100' }, used: {}, pods: 3, want: ['OutOfpods', "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3"] },
    { name: 'cpu in millicores', request: { cpu: '1' }, used: { cpu: '3500m' }, pods: 1, want: ['OutOfcpu', "Node didn't have enough resource: cpu, requested: 1000, used: 3500, capacity: 4000"] },
    { name: 'memory in bytes', request: { memory: '16Gi' }, used: {}, pods: 0, want: ['OutOfmemory', "Node didn't have enough resource: memory, requested: 17179869184, used: 0, capacity: 17075011584"] },
    { name: 'cpu before memory', request: { cpu: '5', memory: '32Gi' }, used: {}, pods: 0, want: ['OutOfcpu', "Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000"] },
    { name: 'extended resources', request: { 'example.com/gpu': '2' }, used: {}, pods: 0, want: ['OutOfexample.com/gpu', "Node didn't have enough resource: example.com/gpu, requested: 2, used: 0, capacity: 1"] },
    { name: 'a resource the node lacks', request: { 'example.com/fpga': '1' }, used: {}, pods: 0, want: ['OutOfexample.com/fpga', "Node didn't have enough resource: example.com/fpga, requested: 1, used: 0, capacity: 0"] },
  ];
  for (const c of table) {
    it(c.name, () => {
      const r = admitPod(parseResourceList(c.request), parseResourceList(c.used), c.pods, ALLOCATABLE);
      assert.deepEqual(r && [r.reason, r.message], c.want);
    });
  }
});
