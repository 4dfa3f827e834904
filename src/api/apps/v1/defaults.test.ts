// apps/v1 defaulting, case by case (v1.27 behaviour).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeatureGates } from '../../../features/gates.js';
import type { Json } from '../../core/v1/defaults.js';
import { defaulters } from './defaults.js';

const DEFAULT_GATES = new FeatureGates();
const SPEC = { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' };
const C = { resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' };
const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image: 'x:1' }] } };
const templateOut = { metadata: { labels: { app: 'a' } }, spec: { ...SPEC, containers: [{ name: 'a', image: 'x:1', ...C }] } };

const rows: [kind: string, name: string, input: Json, want: Json, gates?: string][] = [
  ['Deployment', 'everything', { spec: { template } }, {
    spec: { replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, template: templateOut },
  }],
  ['Deployment', 'Recreate gets no rollingUpdate; given values kept', { spec: { replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0, template } }, {
    spec: { replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0, progressDeadlineSeconds: 600, template: templateOut },
  }],
  ['Deployment', 'a partial rollingUpdate is completed', { spec: { strategy: { rollingUpdate: { maxSurge: 1 } }, template } }, {
    spec: { replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, template: templateOut },
  }],
  ['DaemonSet', 'everything (and the template-generation annotation as decoding writes it)', { spec: { template } }, {
    metadata: { annotations: { 'deprecated.daemonset.template.generation': '0' } },
    spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10, template: templateOut },
  }],
  ['DaemonSet', 'OnDelete', { metadata: { annotations: { 'deprecated.daemonset.template.generation': '2' } }, spec: { updateStrategy: { type: 'OnDelete' }, template } }, {
    metadata: { annotations: { 'deprecated.daemonset.template.generation': '2' } }, spec: { updateStrategy: { type: 'OnDelete' }, revisionHistoryLimit: 10, template: templateOut },
  }],
  ['StatefulSet', 'everything, claim templates included', { spec: { template, volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: {} }] } }, {
    spec: {
      podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' }, replicas: 1, revisionHistoryLimit: 10, template: templateOut,
      volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
    },
  }],
  ['StatefulSet', 'an explicit RollingUpdate without rollingUpdate stays so', { spec: { updateStrategy: { type: 'RollingUpdate' }, template } }, {
    spec: { podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate' }, replicas: 1, revisionHistoryLimit: 10, template: templateOut },
  }, 'StatefulSetAutoDeletePVC=false'],
  ['StatefulSet', 'gated defaults', { spec: { template } }, {
    spec: {
      podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' }, replicas: 1, revisionHistoryLimit: 10, template: templateOut,
    },
  }, 'MaxUnavailableStatefulSet=true'],
  ['ReplicaSet', 'replicas and template', { spec: { template } }, { spec: { replicas: 1, template: templateOut } }],
];

describe('apps/v1 defaults', () => {
  for (const [kind, name, input, want, gates] of rows) {
    it(`${kind}: ${name}`, () => {
      const obj = structuredClone(input);
      defaulters[kind]!(obj, gates ? FeatureGates.parse(gates) : DEFAULT_GATES);
      assert.deepEqual(obj, want);
    });
  }
  it('ControllerRevision has none', () => assert.equal(defaulters.ControllerRevision, undefined));
});
