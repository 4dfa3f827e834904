// LimitPodHardAntiAffinityTopology: which hard anti-affinity terms pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { limitPodHardAntiAffinityTopology } from './antiaffinity.js';
import { attrs, outcome } from './testutil.js';

const term = (topologyKey: string) => ({ labelSelector: { matchLabels: { app: 'a' } }, topologyKey });
const pod = (podAntiAffinity?: Record<string, unknown>, name = 'p'): ApiObject => ({ metadata: { name }, spec: { containers: [], ...(podAntiAffinity ? { affinity: { podAntiAffinity } } : {}) } });

describe('LimitPodHardAntiAffinityTopology', () => {
  const plugin = limitPodHardAntiAffinityTopology();
  const rows: [string, ApiObject, string | undefined, Parameters<typeof attrs>[0]?][] = [
    ['no affinity', pod(), undefined],
    ['hostname', pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('kubernetes.io/hostname')] }), undefined],
    ['the svc.io spelling', pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('svc.io/hostname')] }), undefined],
    ['a zone key', pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('kubernetes.io/hostname'), term('topology.kubernetes.io/zone')] }),
      'pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed'],
    ['a soft term may use any key', pod({ preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term('zone') }] }), undefined],
    ['on update too', pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('zone')] }), 'pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey zone but only key kubernetes.io/hostname is allowed', { operation: 'UPDATE' }],
    ['a generated name is not named', pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('zone')] }, ''), 'pods is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey zone but only key kubernetes.io/hostname is allowed'],
  ];
  for (const [what, object, want, extra] of rows) {
    it(what, async () => {
      const st = await outcome(() => plugin.admit(attrs({ object, ...extra })));
      assert.equal(st?.message, want);
      if (want) assert.equal(st?.code, 403);
    });
  }
});
