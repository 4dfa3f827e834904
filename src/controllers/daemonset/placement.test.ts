// Which nodes run a daemon pod (kube's NodeShouldRunDaemonPod), and the
// tolerations every daemon pod gets (AddOrUpdateDaemonPodTolerations).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { nodeShouldRunDaemonPod } from './placement.js';
import { addDaemonPodTolerations, addOrUpdateToleration, daemonTolerations } from './tolerations.js';

type Obj = Record<string, unknown>;

const node = (taints: Obj[] = [], labels: Record<string, string> = {}): ApiObject => ({
  metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1', ...labels } }, spec: { taints },
});
const ds = (podSpec: Obj = {}): ApiObject => ({
  metadata: { name: 'd', namespace: 'ns' },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...podSpec } } },
});
const taint = (key: string, effect: string, value?: string) => ({ key, effect, ...(value ? { value } : {}) });
const affinity = (expr: Obj) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr] }] } } } });

describe('nodeShouldRunDaemonPod', () => {
  const rows: { name: string; node: ApiObject; pod?: Obj; run: boolean; keep: boolean }[] = [
    { name: 'an untainted node', node: node(), run: true, keep: true },
    { name: 'template nodeName names this node', node: node(), pod: { nodeName: 'n1' }, run: true, keep: true },
    { name: 'template nodeName names another node', node: node(), pod: { nodeName: 'n2' }, run: false, keep: false },
    { name: 'nodeSelector matches', node: node([], { role: 'edge' }), pod: { nodeSelector: { role: 'edge' } }, run: true, keep: true },
    { name: 'nodeSelector does not match', node: node(), pod: { nodeSelector: { role: 'edge' } }, run: false, keep: false },
    { name: 'required node affinity matches', node: node([], { zone: 'a' }), pod: affinity({ key: 'zone', operator: 'In', values: ['a'] }), run: true, keep: true },
    { name: 'required node affinity does not match', node: node([], { zone: 'b' }), pod: affinity({ key: 'zone', operator: 'In', values: ['a'] }), run: false, keep: false },
    { name: 'untolerated NoSchedule: no new pod, a running one stays', node: node([taint('dedicated', 'NoSchedule', 'infra')]), run: false, keep: true },
    { name: 'untolerated NoExecute: neither', node: node([taint('dedicated', 'NoExecute', 'infra')]), run: false, keep: false },
    { name: 'PreferNoSchedule is no obstacle', node: node([taint('dedicated', 'PreferNoSchedule')]), run: true, keep: true },
    {
      name: 'tolerated NoSchedule', node: node([taint('dedicated', 'NoSchedule', 'infra')]),
      pod: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' }] }, run: true, keep: true,
    },
    {
      name: 'a toleration of the wrong value', node: node([taint('dedicated', 'NoSchedule', 'infra')]),
      pod: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }, run: false, keep: true,
    },
    { name: 'not-ready NoExecute (our spelling) is tolerated', node: node([taint('node.svc.io/not-ready', 'NoExecute')]), run: true, keep: true },
    { name: 'unreachable NoExecute (kube spelling) is tolerated', node: node([taint('node.kubernetes.io/unreachable', 'NoExecute')]), run: true, keep: true },
    { name: 'the registration taint not-ready NoSchedule is not', node: node([taint('node.svc.io/not-ready', 'NoSchedule')]), run: false, keep: true },
    { name: 'cordoned (unschedulable NoSchedule) is tolerated', node: node([taint('node.svc.io/unschedulable', 'NoSchedule')]), run: true, keep: true },
    { name: 'memory pressure is tolerated', node: node([taint('node.kubernetes.io/memory-pressure', 'NoSchedule')]), run: true, keep: true },
    { name: 'disk pressure is tolerated', node: node([taint('node.svc.io/disk-pressure', 'NoSchedule')]), run: true, keep: true },
    { name: 'pid pressure is tolerated', node: node([taint('node.svc.io/pid-pressure', 'NoSchedule')]), run: true, keep: true },
    { name: 'network unavailable: not for a pod network pod', node: node([taint('node.svc.io/network-unavailable', 'NoSchedule')]), run: false, keep: true },
    { name: 'network unavailable: tolerated by a hostNetwork pod', node: node([taint('node.svc.io/network-unavailable', 'NoSchedule')]), pod: { hostNetwork: true }, run: true, keep: true },
  ];
  for (const r of rows) {
    it(r.name, () => assert.deepEqual(nodeShouldRunDaemonPod(r.node, ds(r.pod)), { shouldRun: r.run, shouldContinueRunning: r.keep }));
  }
});

describe('daemon pod tolerations', () => {
  it('kube\'s list in order, each in both spellings, Exists without tolerationSeconds; network-unavailable only with hostNetwork', () => {
    const keys = (l: ReturnType<typeof daemonTolerations>) => l.map((t) => `${t.key}:${t.effect}`);
    assert.deepEqual(keys(daemonTolerations(false)), [
      'node.kubernetes.io/not-ready:NoExecute', 'node.svc.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute', 'node.svc.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule', 'node.svc.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule', 'node.svc.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule', 'node.svc.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule', 'node.svc.io/unschedulable:NoSchedule',
    ]);
    assert.deepEqual(keys(daemonTolerations(true)).slice(-2), ['node.kubernetes.io/network-unavailable:NoSchedule', 'node.svc.io/network-unavailable:NoSchedule']);
    assert.ok(daemonTolerations(true).every((t) => t.operator === 'Exists' && t.tolerationSeconds === undefined));
  });

  const rows: { name: string; have: Obj[]; add: Obj; want: Obj[] }[] = [
    { name: 'appended when absent', have: [{ key: 'a', operator: 'Exists' }], add: { key: 'b', operator: 'Exists', effect: 'NoSchedule' }, want: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists', effect: 'NoSchedule' }] },
    {
      name: 'the same key, operator, value and effect replaced in place (tolerationSeconds dropped)',
      have: [{ key: 'x', operator: 'Exists' }, { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }, { key: 'z', operator: 'Exists' }],
      add: { key: 'k', operator: 'Exists', effect: 'NoExecute' },
      want: [{ key: 'x', operator: 'Exists' }, { key: 'k', operator: 'Exists', effect: 'NoExecute' }, { key: 'z', operator: 'Exists' }],
    },
    {
      name: 'another effect is another toleration',
      have: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }], add: { key: 'k', operator: 'Exists', effect: 'NoExecute' },
      want: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }, { key: 'k', operator: 'Exists', effect: 'NoExecute' }],
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(addOrUpdateToleration(r.have, r.add), r.want));

  it('a pod\'s 300 s not-ready toleration (DefaultTolerationSeconds) becomes unbounded; other tolerations stay first', () => {
    const spec: Obj = { tolerations: [{ key: 'dedicated', operator: 'Exists' }, { key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
    addDaemonPodTolerations(spec);
    const list = spec.tolerations as Obj[];
    assert.deepEqual(list[0], { key: 'dedicated', operator: 'Exists' });
    assert.deepEqual(list[1], { key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute' });
    assert.equal(list.length, 13);
  });
});
