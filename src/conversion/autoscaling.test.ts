// HorizontalPodAutoscaler autoscaling/v2 (storage) ⇄ autoscaling/v1: what
// Kubernetes v1.27 writes (fields and the exact annotation text), what it
// reads back, and round trips that lose nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convert } from './index.js';
import { schemaProblems } from './testing.js';

type O = Record<string, unknown>;
const V1 = { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' };
const V2 = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' };
const toV1 = (o: O) => convert(o, V1);
const toV2 = (o: O) => convert(o, V2);

const META = { name: 'web', namespace: 'shop', annotations: { 'owner.example.com/team': 'payments' } };
const REF = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const hpa = (version: 'v1' | 'v2', rest: O, metadata: O = META): O => ({ kind: 'HorizontalPodAutoscaler', apiVersion: `autoscaling/${version}`, metadata, ...rest });

const cpu = (u: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: u } } });
const cpuNow = (u: number, v: string) => ({ type: 'Resource', resource: { name: 'cpu', current: { averageValue: v, averageUtilization: u } } });
const pods = { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, target: { type: 'AverageValue', averageValue: '1k' } } };
const ingress = { kind: 'Ingress', name: 'main-route', apiVersion: 'networking.k8s.io/v1' };
const object = { type: 'Object', object: { describedObject: ingress, target: { type: 'Value', value: '10k' }, metric: { name: 'requests-per-second' } } };
const queue = { name: 'queue_messages_ready', selector: { matchLabels: { queue: 'worker_tasks', env: 'prod' } } };
const queueSorted = { name: 'queue_messages_ready', selector: { matchLabels: { env: 'prod', queue: 'worker_tasks' } } };
const external = { type: 'External', external: { metric: queueSorted, target: { type: 'AverageValue', averageValue: '30' } } };
const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } };
const sidecar = { type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 }, container: 'app' } };
const BEHAVIOR = {
  scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
  scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
};
const ABLE = { type: 'AbleToScale', status: 'True', lastTransitionTime: '2023-06-01T08:00:00Z', reason: 'ReadyForNewScale', message: 'recommended size matches current size' };

describe('autoscaling v2 → v1: fields and annotation text as Kubernetes writes them', () => {
  const rows: { name: string; v2: O; spec: O; status?: O; annotations: Record<string, string> | undefined }[] = [
    {
      name: 'cpu target and a pods metric: the cpu one becomes targetCPUUtilizationPercentage, the other an annotation',
      v2: hpa('v2', {
        spec: { scaleTargetRef: REF, minReplicas: 2, maxReplicas: 10, metrics: [cpu(50), pods] },
        status: { currentReplicas: 3, desiredReplicas: 3, currentMetrics: [cpuNow(42, '210m')] },
      }),
      spec: { scaleTargetRef: REF, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 50 },
      status: { currentReplicas: 3, desiredReplicas: 3, currentCPUUtilizationPercentage: 42 },
      annotations: {
        'owner.example.com/team': 'payments',
        'autoscaling.alpha.svc.io/metrics': '[{"type":"Pods","pods":{"metricName":"packets-per-second","targetAverageValue":"1k"}}]',
        'autoscaling.alpha.svc.io/current-metrics': '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":42,"currentAverageValue":"210m"}}]',
      },
    },
    {
      name: 'object and external metrics: Go field order, sorted selector labels, "0" for an unset quantity, HTML-safe escapes',
      v2: hpa('v2', {
        spec: { scaleTargetRef: REF, maxReplicas: 5, metrics: [object, { ...external, external: { ...external.external, metric: queue } }] },
        status: {
          desiredReplicas: 1,
          currentMetrics: [
            { type: 'External', external: { metric: queue, current: { averageValue: '16m' } } },
            { type: 'Object', object: { metric: { name: 'requests-per-second' }, current: { value: '2500m' }, describedObject: ingress } },
          ],
          conditions: [
            { type: 'ScalingActive', status: 'False', lastTransitionTime: '2023-06-01T08:00:00Z', reason: 'FailedGetExternalMetric', message: 'no metric for &LabelSelector{<nil>}' },
            { type: 'AbleToScale', status: 'True' },
          ],
        },
      }),
      spec: { scaleTargetRef: REF, maxReplicas: 5 },
      status: { currentReplicas: 0, desiredReplicas: 1 },
      annotations: {
        'owner.example.com/team': 'payments',
        'autoscaling.alpha.svc.io/metrics':
          '[{"type":"Object","object":{"target":{"kind":"Ingress","name":"main-route","apiVersion":"networking.k8s.io/v1"},"metricName":"requests-per-second","targetValue":"10k"}},' +
          '{"type":"External","external":{"metricName":"queue_messages_ready","metricSelector":{"matchLabels":{"env":"prod","queue":"worker_tasks"}},"targetAverageValue":"30"}}]',
        'autoscaling.alpha.svc.io/current-metrics':
          '[{"type":"External","external":{"metricName":"queue_messages_ready","metricSelector":{"matchLabels":{"env":"prod","queue":"worker_tasks"}},"currentValue":"0","currentAverageValue":"16m"}},' +
          '{"type":"Object","object":{"target":{"kind":"Ingress","name":"main-route","apiVersion":"networking.k8s.io/v1"},"metricName":"requests-per-second","currentValue":"2500m"}}]',
        'autoscaling.alpha.svc.io/conditions':
          '[{"type":"ScalingActive","status":"False","lastTransitionTime":"2023-06-01T08:00:00Z","reason":"FailedGetExternalMetric","message":"no metric for \\u0026LabelSelector{\\u003cnil\\u003e}"},' +
          '{"type":"AbleToScale","status":"True","lastTransitionTime":null}]',
      },
    },
    {
      name: 'behavior: the internal Go type, field names capitalized, an unset direction or window null',
      v2: hpa('v2', {
        spec: { scaleTargetRef: REF, maxReplicas: 3, metrics: [cpu(70)], behavior: { scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } } },
      }),
      spec: { scaleTargetRef: REF, maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
      annotations: {
        'owner.example.com/team': 'payments',
        'autoscaling.alpha.svc.io/behavior': '{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}',
      },
    },
    {
      name: 'containerResource and a memory Resource metric; a cpu metric by average value is not the cpu target',
      v2: hpa('v2', {
        spec: { scaleTargetRef: REF, maxReplicas: 3, metrics: [sidecar, memory, { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '0.5' } } }] },
      }, { name: 'web' }),
      spec: { scaleTargetRef: REF, maxReplicas: 3 },
      annotations: {
        'autoscaling.alpha.svc.io/metrics':
          '[{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":60,"container":"app"}},' +
          '{"type":"Resource","resource":{"name":"memory","targetAverageValue":"512Mi"}},{"type":"Resource","resource":{"name":"cpu","targetAverageValue":"500m"}}]',
      },
    },
    {
      name: 'only a cpu target: no annotations at all (none added to an object that had none); v1 writes a zero currentReplicas',
      v2: hpa('v2', { spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, metrics: [cpu(80)] }, status: { desiredReplicas: 0 } }, { name: 'web' }),
      spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 80 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
      annotations: undefined,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const v1 = toV1(r.v2);
      assert.deepEqual(v1.spec, r.spec);
      assert.deepEqual(v1.status, r.status);
      assert.deepEqual((v1.metadata as O).annotations, r.annotations);
      assert.deepEqual(schemaProblems(v1), []);
    });
  }
  it('answers kind and apiVersion first, then the object', () => {
    assert.deepEqual(Object.keys(toV1(rows[0]!.v2)).slice(0, 3), ['kind', 'apiVersion', 'metadata']);
    assert.equal(toV1(rows[0]!.v2).apiVersion, 'autoscaling/v1');
  });
});

describe('autoscaling v1 → v2: what Kubernetes stores for a v1 write', () => {
  const rows: { name: string; v1: O; spec: O; status?: O; annotations?: O }[] = [
    {
      name: 'targetCPUUtilizationPercentage becomes a Resource cpu Utilization metric',
      v1: hpa('v1', { spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 65 } }),
      spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, metrics: [cpu(65)] },
      annotations: META.annotations,
    },
    {
      name: 'no target and no metrics annotation: cpu at 80% (v1\'s implied default made explicit)',
      v1: hpa('v1', { spec: { scaleTargetRef: REF, maxReplicas: 4 } }),
      spec: { scaleTargetRef: REF, maxReplicas: 4, metrics: [cpu(80)] },
      annotations: META.annotations,
    },
    {
      name: 'annotated metrics first, then the cpu target; the annotations are consumed',
      v1: hpa('v1', { spec: { scaleTargetRef: REF, maxReplicas: 4, targetCPUUtilizationPercentage: 50 } }, {
        name: 'web',
        annotations: { 'autoscaling.alpha.svc.io/metrics': '[{"type":"Pods","pods":{"metricName":"packets-per-second","targetAverageValue":"1000"}}]' },
      }),
      spec: { scaleTargetRef: REF, maxReplicas: 4, metrics: [pods, cpu(50)] },
    },
    {
      name: 'current-metrics replaces currentCPUUtilizationPercentage; conditions and behavior move to their fields',
      v1: hpa('v1', { spec: { scaleTargetRef: REF, maxReplicas: 4 }, status: { currentReplicas: 1, desiredReplicas: 2, currentCPUUtilizationPercentage: 10 } }, {
        name: 'web',
        annotations: {
          'autoscaling.alpha.svc.io/current-metrics': '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":12,"currentAverageValue":"60m"}}]',
          'autoscaling.alpha.svc.io/conditions': '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2023-06-01T10:00:00+02:00","reason":"ReadyForNewScale","message":"recommended size matches current size"}]',
          'autoscaling.alpha.svc.io/behavior': '{"scaleUp":{"stabilizationWindowSeconds":30}}',
        },
      }),
      spec: { scaleTargetRef: REF, maxReplicas: 4, metrics: [cpu(80)], behavior: { scaleUp: { stabilizationWindowSeconds: 30 } } },
      status: { currentReplicas: 1, desiredReplicas: 2, currentMetrics: [cpuNow(12, '60m')], conditions: [ABLE] },
    },
    {
      name: 'pods/object/external read back with the target types Kubernetes infers',
      v1: hpa('v1', { spec: { scaleTargetRef: REF, maxReplicas: 4 } }, {
        name: 'web',
        annotations: {
          'autoscaling.alpha.svc.io/metrics':
            '[{"type":"External","external":{"metricName":"q","targetValue":"100"}},{"type":"External","external":{"metricName":"q","targetAverageValue":"2"}},' +
            '{"type":"Object","object":{"target":{"kind":"Service","name":"s"},"metricName":"m","targetValue":"1","averageValue":"250m"}}]',
        },
      }),
      spec: {
        scaleTargetRef: REF, maxReplicas: 4, metrics: [
          { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '100' } } },
          { type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '2' } } },
          { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, target: { type: 'AverageValue', value: '1', averageValue: '250m' }, metric: { name: 'm' } } },
        ],
      },
    },
    {
      name: 'annotations Go would fail to decode are ignored and dropped; an empty behavior is no behavior',
      v1: hpa('v1', { spec: { scaleTargetRef: REF, maxReplicas: 4, targetCPUUtilizationPercentage: 50 }, status: { desiredReplicas: 1 } }, {
        name: 'web',
        annotations: {
          keep: 'me',
          'autoscaling.alpha.svc.io/metrics': 'not json',
          'autoscaling.alpha.svc.io/current-metrics': '[{"type":"Pods","pods":{"metricName":"x","currentAverageValue":"lots"}}]',
          'autoscaling.alpha.svc.io/conditions': '[{"type":"AbleToScale","status":"True","lastTransitionTime":"yesterday"}]',
          'autoscaling.alpha.svc.io/behavior': '{}',
        },
      }),
      spec: { scaleTargetRef: REF, maxReplicas: 4, metrics: [cpu(50)] },
      status: { desiredReplicas: 1 },
      annotations: { keep: 'me' },
    },
    {
      name: 'Kubernetes\' own spelling of the keys is an ordinary annotation here',
      v1: hpa('v1', { spec: { scaleTargetRef: REF, maxReplicas: 4, targetCPUUtilizationPercentage: 50 } }, {
        name: 'web', annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"x","targetAverageValue":"1"}}]' },
      }),
      spec: { scaleTargetRef: REF, maxReplicas: 4, metrics: [cpu(50)] },
      annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"x","targetAverageValue":"1"}}]' },
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const v2 = toV2(r.v1);
      assert.deepEqual(v2.spec, r.spec);
      assert.deepEqual(v2.status, r.status);
      assert.deepEqual((v2.metadata as O).annotations, r.annotations);
      assert.deepEqual(schemaProblems(v2), []);
    });
  }
});

/** Stored (v2) objects in the form Kubernetes keeps them: every one is a fixed point of v2 → v1 → v2. */
const STORED: [string, O][] = [
  ['minimal, defaulted', hpa('v2', { spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 3, metrics: [cpu(80)] } })],
  ['every metric source, behavior, statuses, conditions, user annotations', hpa('v2', {
    spec: { scaleTargetRef: REF, minReplicas: 2, maxReplicas: 20, metrics: [pods, object, external, sidecar, memory, cpu(75)], behavior: BEHAVIOR },
    status: {
      observedGeneration: 4, lastScaleTime: '2023-06-01T09:00:00Z', currentReplicas: 5, desiredReplicas: 6,
      currentMetrics: [
        { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, current: { averageValue: '1200' } } },
        { type: 'Object', object: { metric: { name: 'requests-per-second', selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] } }, current: { value: '9k' }, describedObject: ingress } },
        { type: 'External', external: { metric: queueSorted, current: { value: '0', averageValue: '31' } } },
        { type: 'ContainerResource', containerResource: { name: 'cpu', current: { averageValue: '300m', averageUtilization: 61 }, container: 'app' } },
        { type: 'Resource', resource: { name: 'memory', current: { averageValue: '400Mi' } } },
        cpuNow(74, '370m'),
      ],
      conditions: [ABLE, { type: 'ScalingLimited', status: 'False', lastTransitionTime: '2023-06-01T08:30:00Z', reason: 'DesiredWithinRange' }],
    },
  }, { ...META, labels: { app: 'web' }, annotations: { ...META.annotations, note: 'a & b <c>' } })],
  ['external by value, object metric with a selector, no cpu metric', hpa('v2', {
    spec: {
      scaleTargetRef: REF, maxReplicas: 3, metrics: [
        { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '100' } } },
        { type: 'Object', object: { describedObject: ingress, target: { type: 'Value', value: '2' }, metric: { name: 'm', selector: { matchLabels: { a: 'b' } } } } },
      ],
    },
  })],
];

describe('autoscaling round trips', () => {
  for (const [name, stored] of STORED) {
    it(`storage → v1 → storage loses nothing: ${name}`, () => {
      const v1 = toV1(stored);
      assert.deepEqual(schemaProblems(v1), []);
      assert.deepEqual(toV2(v1), stored);
    });
    it(`v1 → storage → v1 loses nothing: ${name}`, () => {
      const v1 = toV1(stored);
      assert.deepEqual(toV1(toV2(v1)), v1);
    });
  }
  it('a v1 object a client wrote (own annotations, zero replica counts) round-trips', () => {
    const v1 = hpa('v1', { spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 0, desiredReplicas: 0 } });
    assert.deepEqual(toV2(v1).status, { desiredReplicas: 0 });
    assert.deepEqual(toV1(toV2(v1)), v1);
  });
  it('Kubernetes\' own reshaping: a cpu target moves after the other metrics; an object AverageValue target gains value "0"', () => {
    const avg = { type: 'Object', object: { describedObject: ingress, target: { type: 'AverageValue', averageValue: '5' }, metric: { name: 'm' } } };
    const stored = hpa('v2', { spec: { scaleTargetRef: REF, maxReplicas: 3, metrics: [cpu(50), avg] } });
    const back = toV2(toV1(stored));
    assert.deepEqual((back.spec as O).metrics, [
      { type: 'Object', object: { describedObject: ingress, target: { type: 'AverageValue', value: '0', averageValue: '5' }, metric: { name: 'm' } } },
      cpu(50),
    ]);
  });
});

describe('autoscaling round-trip annotations a client sets', () => {
  const planted = { ...META.annotations, 'autoscaling.alpha.svc.io/metrics': '[{"type":"Pods","pods":{"metricName":"planted","targetAverageValue":"1"}}]', 'autoscaling.alpha.svc.io/behavior': '{"ScaleUp":{}}' };
  it('are dropped from a v2 object (v2 → v2), as Kubernetes drops them on every v2 decode', () => {
    const v2 = hpa('v2', { spec: { scaleTargetRef: REF, maxReplicas: 3, metrics: [cpu(80)] } }, { name: 'web', annotations: planted });
    assert.deepEqual(convert(v2, V2).metadata, { name: 'web', annotations: META.annotations });
  });
  it('are replaced by the conversion\'s own on v2 → v1', () => {
    const v2 = hpa('v2', { spec: { scaleTargetRef: REF, maxReplicas: 3, metrics: [cpu(80)] } }, { name: 'web', annotations: planted });
    assert.deepEqual((toV1(v2).metadata as O).annotations, META.annotations);
  });
  it('do not change the input object', () => {
    const v2 = hpa('v2', { spec: { scaleTargetRef: REF, maxReplicas: 3, metrics: [cpu(80), pods] } }, { name: 'web', annotations: planted });
    const before = structuredClone(v2);
    const v1 = toV1(v2);
    ((v1.metadata as O).annotations as O).x = 'y';
    assert.deepEqual(v2, before);
  });
});
