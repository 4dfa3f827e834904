import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServedResource } from '../registry/registry.js';
import { managedFieldsConverter } from './versioning.js';

const served = (group: string, version: string, resource: string, kind: string, storageVersion: string, sharesStorageWith?: ServedResource['sharesStorageWith']): ServedResource => ({
  group, version, resource, kind, storageVersion, namespaced: true, verbs: [], subresources: [], ...(sharesStorageWith ? { sharesStorageWith } : {}),
});

describe('managedFieldsConverter', () => {
  const hpa = managedFieldsConverter(served('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'v2'));
  const deployments = managedFieldsConverter(served('apps', 'v1', 'deployments', 'Deployment', 'v1'));
  const events = managedFieldsConverter(served('events.svc.io', 'v1', 'events', 'Event', 'v1', { group: '', resource: 'events', kind: 'Event' }));
  const flowschemas = managedFieldsConverter(served('flowcontrol.apiserver.svc.io', 'v1beta2', 'flowschemas', 'FlowSchema', 'v1beta3'));

  it('tells which apiVersions read alike', () => {
    const cases: [typeof hpa, string, string, boolean][] = [
      [hpa, 'autoscaling/v1', 'autoscaling/v1', true],
      [hpa, 'autoscaling/v1', 'autoscaling/v2', false], // fields differ: converted
      [hpa, 'autoscaling/v2', 'autoscaling/v2beta2', true], // a version this server does not convert, same group: read as is
      [deployments, 'apps/v1', 'apps/v1beta2', true],
      [deployments, 'apps/v1', 'extensions/v1beta1', false], // another group: dropped
      [events, 'events.svc.io/v1', 'events.k8s.io/v1', true], // two spellings of one group
      [events, 'events.svc.io/v1', 'v1', false], // core Events: converted
      [flowschemas, 'flowcontrol.apiserver.k8s.io/v1beta2', 'flowcontrol.apiserver.svc.io/v1beta3', true], // the same fields
    ];
    for (const [c, a, b, want] of cases) assert.equal(c.same(a, b), want, `${a} ~ ${b}`);
  });

  it('converts between versions of the kind, and to nothing for another group', () => {
    const v2 = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] } };
    const v1 = hpa.convert(v2, 'autoscaling/v2', 'autoscaling/v1');
    assert.deepEqual(v1?.spec, { maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
    assert.equal(v1?.apiVersion, 'autoscaling/v1');
    assert.equal(deployments.convert({ apiVersion: 'apps/v1', kind: 'Deployment' }, 'apps/v1', 'extensions/v1beta1'), undefined);
    assert.deepEqual(deployments.convert({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 1 } }, 'apps/v1', 'apps/v1beta2'), { apiVersion: 'apps/v1beta2', kind: 'Deployment', spec: { replicas: 1 } });
    const core = events.convert({ apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: 'e' }, note: 'hi' }, 'events.svc.io/v1', 'v1');
    assert.equal(core?.message, 'hi');
  });

  it('gives each version its schema', () => {
    assert.ok(hpa.schemaOf('autoscaling/v2')?.properties?.spec);
    assert.notEqual(hpa.schemaOf('autoscaling/v2'), hpa.schemaOf('autoscaling/v1'));
  });
});
