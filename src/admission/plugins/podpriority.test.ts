// Priority (kube v1.27 plugin/pkg/admission/priority): pods get their class's
// priority — or the default class's — and keep it on update; one default class.
// Each case runs with the classes read asynchronously and known at once (a
// current watch cache), which must answer the same, the latter without a promise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import type { GenericStore } from '../../registry/store.js';
import { defaultPriorityClass, priorityPlugin } from './podpriority.js';
import { attrs, outcome, type AttrsInit } from './testutil.js';

const pc = (name: string, value: number, more: Record<string, unknown> = {}): ApiObject =>
  ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...more }) as ApiObject;

function storeOf(classes: ApiObject[], atOnce: boolean): () => GenericStore {
  const byName = (name: string) => classes.find((c) => c.metadata.name === name);
  return () => ({
    getShared: async (_ns: string, name: string) => byName(name) ?? Promise.reject(newNotFound({ group: 'scheduling.svc.io', resource: 'priorityclasses' }, name)),
    listShared: async () => classes,
    getSharedNow: (_ns: string, name: string) => (atOnce ? byName(name) : undefined),
    listSharedNow: () => (atOnce ? classes : undefined),
  }) as unknown as GenericStore;
}

const pod = (name: string, spec: Record<string, unknown> = {}): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } });
const specOf = (o: ApiObject | undefined) => o!.spec as Record<string, unknown>;
const forbidden = (name: string, why: string) => `pods "${name}" is forbidden: ${why}`;

const HIGH = pc('high', 1000, { preemptionPolicy: 'Never' });
const DEFAULT = pc('everyday', 100, { globalDefault: true });
const LOWER_DEFAULT = pc('lower', 50, { globalDefault: true });

describe('Priority plugin', () => {
  const podRows: [string, ApiObject[], AttrsInit, string | undefined, [unknown, unknown, unknown]?][] = [
    // what, classes, request, refusal, [priorityClassName, priority, preemptionPolicy] after
    ['no class, no default class: 0 and PreemptLowerPriority', [HIGH], { object: pod('a') }, undefined, [undefined, 0, 'PreemptLowerPriority']],
    ['no class: the default class, its name too', [HIGH, DEFAULT], { object: pod('a') }, undefined, ['everyday', 100, 'PreemptLowerPriority']],
    ['two default classes (a race): the lowest value', [DEFAULT, LOWER_DEFAULT], { object: pod('a') }, undefined, ['lower', 50, 'PreemptLowerPriority']],
    ['a class: its value and preemptionPolicy', [HIGH, DEFAULT], { object: pod('a', { priorityClassName: 'high' }) }, undefined, ['high', 1000, 'Never']],
    ['a built-in class', [], { object: pod('a', { priorityClassName: 'system-node-critical' }) }, undefined, ['system-node-critical', 2000001000, 'PreemptLowerPriority']],
    ['a missing class', [DEFAULT], { object: pod('a', { priorityClassName: 'nope' }) }, forbidden('a', 'no PriorityClass with name nope was found')],
    ['a priority the default class does not give', [DEFAULT], { object: pod('a', { priority: 5 }) },
      forbidden('a', 'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 100 from the given PriorityClass name')],
    ['an update keeps what the create set', [DEFAULT], { operation: 'UPDATE', object: pod('a'), oldObject: pod('a', { priority: 100, preemptionPolicy: 'Never' }) }, undefined, [undefined, 100, 'Never']],
    ['a subresource is not the pod', [DEFAULT], { operation: 'UPDATE', subresource: 'status', object: pod('a'), oldObject: pod('a', { priority: 7 }) }, undefined, [undefined, undefined, undefined]],
  ];
  for (const [what, classes, init, refusal, after] of podRows) {
    it(what, async () => {
      for (const atOnce of [false, true]) {
        const a = attrs(structuredClone(init));
        const status = await outcome(() => priorityPlugin(storeOf(classes, atOnce)).admit(a));
        assert.equal(status?.message, refusal, `atOnce=${atOnce}`);
        if (after) assert.deepEqual([specOf(a.object).priorityClassName, specOf(a.object).priority, specOf(a.object).preemptionPolicy], after, `atOnce=${atOnce}`);
        if (atOnce && !refusal) assert.equal(priorityPlugin(storeOf(classes, true)).admit(attrs(structuredClone(init))), undefined, 'known at once: no promise');
      }
    });
  }

  const classRows: [string, ApiObject[], AttrsInit, string | undefined][] = [
    ['a second default class', [DEFAULT], { group: 'scheduling.svc.io', resource: 'priorityclasses', namespace: '', object: pc('another', 5, { globalDefault: true }) },
      'priorityclasses.scheduling.svc.io "another" is forbidden: PriorityClass another is marked as default, but another default PriorityClass everyday already exists'],
    ['another class made the default', [DEFAULT, HIGH], { operation: 'UPDATE', group: 'scheduling.svc.io', resource: 'priorityclasses', namespace: '', object: { ...HIGH, globalDefault: true }, oldObject: HIGH },
      'priorityclasses.scheduling.svc.io "high" is forbidden: PriorityClass high is marked as default, but another default PriorityClass everyday already exists'],
    ['the default class updated', [DEFAULT], { operation: 'UPDATE', group: 'scheduling.svc.io', resource: 'priorityclasses', namespace: '', object: { ...DEFAULT, description: 'd' }, oldObject: DEFAULT }, undefined],
    ['the first default class', [HIGH], { group: 'scheduling.svc.io', resource: 'priorityclasses', namespace: '', object: pc('first', 5, { globalDefault: true }) }, undefined],
    ['a class that is not a default', [DEFAULT], { group: 'scheduling.svc.io', resource: 'priorityclasses', namespace: '', object: pc('plain', 5) }, undefined],
  ];
  for (const [what, classes, init, refusal] of classRows) {
    it(`PriorityClass: ${what}`, async () => {
      for (const atOnce of [false, true]) {
        const status = await outcome(() => priorityPlugin(storeOf(classes, atOnce)).validate!(attrs(init)));
        assert.equal(status?.message, refusal, `atOnce=${atOnce}`);
        if (refusal) assert.equal(status?.code, 403);
      }
    });
  }

  it('defaultPriorityClass: none without globalDefault', () => {
    assert.equal(defaultPriorityClass([HIGH, pc('x', 1, { globalDefault: false })]), undefined);
  });
});
