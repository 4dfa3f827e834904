// The collector's REST mapping and its monitored resources, over a fake registry's served resources.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Registry, ServedResource } from '../../registry/registry.js';
import { ResourceMapper } from './mapper.js';

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const served = (r: Partial<ServedResource> & Pick<ServedResource, 'group' | 'version' | 'resource' | 'kind'>): ServedResource =>
  ({ namespaced: true, verbs: ALL, subresources: [], storageVersion: r.version, ...r });

const RESOURCES: ServedResource[] = [
  served({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }),
  served({ group: '', version: 'v1', resource: 'events', kind: 'Event' }),
  served({ group: 'events.svc.io', version: 'v1', resource: 'events', kind: 'Event', sharesStorageWith: { group: '', resource: 'events', kind: 'Event' } }),
  served({ group: '', version: 'v1', resource: 'componentstatuses', kind: 'ComponentStatus', namespaced: false, verbs: ['get', 'list'] }),
  served({ group: 'authentication.svc.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, verbs: ['create'], virtual: true }),
  served({ group: 'rbac.authorization.svc.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false }),
  served({ group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', storageVersion: 'v2' }),
  served({ group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', storageVersion: 'v2' }),
];

const mapper = () => new ResourceMapper({ resources: () => RESOURCES } as unknown as Registry);

describe('ResourceMapper', () => {
  it('monitors stored resources that can be listed, watched and deleted, but events', () => {
    assert.deepEqual(mapper().deletable().map((m) => `${m.target.group}/${m.target.version}/${m.target.resource}`).sort(),
      ['/v1/configmaps', 'autoscaling/v2/horizontalpodautoscalers', 'rbac.authorization.svc.io/v1/clusterroles']);
  });

  const rows: { apiVersion: string; kind: string; want: string | undefined }[] = [
    { apiVersion: 'v1', kind: 'ConfigMap', want: '/v1/configmaps namespaced v1' },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', want: 'rbac.authorization.svc.io/v1/clusterroles cluster rbac.authorization.k8s.io/v1' },
    { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', want: 'rbac.authorization.svc.io/v1/clusterroles cluster rbac.authorization.k8s.io/v1' },
    { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', want: 'autoscaling/v2/horizontalpodautoscalers namespaced autoscaling/v2' },
    { apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'ClusterRole', want: undefined },
    { apiVersion: 'v1', kind: 'Nothing', want: undefined },
  ];
  for (const r of rows) {
    it(`kindFor ${r.apiVersion} ${r.kind}`, () => {
      const m = mapper().kindFor(r.apiVersion, r.kind);
      assert.equal(m && `${m.target.group}/${m.target.version}/${m.target.resource} ${m.namespaced ? 'namespaced' : 'cluster'} ${m.apiVersion}`, r.want);
    });
  }
});
