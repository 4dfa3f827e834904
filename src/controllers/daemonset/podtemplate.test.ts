// The daemon pod's template, node-name affinity and target node (kube's
// daemon/util), and the revision data kubectl rollout reads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { createPodTemplate, isPodUpdated, replaceNodeNameAffinity, targetNodeName, templateGenerationOf } from './podtemplate.js';
import { revisionMatches, templatePatch } from './revisions.js';
import { rawData } from '../history/index.js';
import { pod } from './testing.js';

type Obj = Record<string, unknown>;
const nameTerm = (n: string) => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values: [n] }] });

describe('replaceNodeNameAffinity', () => {
  const rows: { name: string; have: unknown; want: Obj }[] = [
    { name: 'no affinity', have: undefined, want: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [nameTerm('n1')] } } } },
    {
      name: 'pod affinity kept, node affinity added', have: { podAffinity: { x: 1 } },
      want: { podAffinity: { x: 1 }, nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [nameTerm('n1')] } } },
    },
    {
      name: 'preferred terms kept', have: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }] } },
      want: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }], requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [nameTerm('n1')] } } },
    },
    {
      name: 'required terms replaced', have: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, nameTerm('n9')] } } },
      want: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [nameTerm('n1')] } } },
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const before = structuredClone(r.have);
      assert.deepEqual(replaceNodeNameAffinity(r.have, 'n1'), r.want);
      assert.deepEqual(r.have, before, 'the template is not changed');
    });
  }
});

describe('targetNodeName', () => {
  const withTerms = (terms: unknown[], nodeName?: string): ApiObject => ({
    metadata: { name: 'p' }, spec: { ...(nodeName ? { nodeName } : {}), affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } },
  });
  const rows: { name: string; pod: ApiObject; want: string | undefined }[] = [
    { name: 'bound: spec.nodeName', pod: withTerms([nameTerm('a')], 'b'), want: 'b' },
    { name: 'unbound: the affinity\'s node', pod: withTerms([nameTerm('a')]), want: 'a' },
    { name: 'a later term', pod: withTerms([{ matchExpressions: [] }, nameTerm('c')]), want: 'c' },
    { name: 'several values: none', pod: withTerms([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }]), want: undefined },
    { name: 'NotIn is no target', pod: withTerms([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['a'] }] }]), want: undefined },
    { name: 'no affinity', pod: { metadata: { name: 'p' }, spec: {} }, want: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.equal(targetNodeName(r.pod), r.want));
});

describe('the daemon pod template', () => {
  it('tolerations added, the hash and generation labels set; the DaemonSet\'s template untouched', () => {
    const template = { metadata: { labels: { app: 'x' }, annotations: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const t = createPodTemplate(template, 7n, 'h4sh');
    assert.deepEqual((t.metadata as Obj).labels, { app: 'x', 'pod-template-generation': '7', 'controller-revision-hash': 'h4sh' });
    assert.deepEqual((t.metadata as Obj).annotations, { a: 'b' });
    assert.equal(((t.spec as Obj).tolerations as unknown[]).length, 12);
    assert.equal((template.spec as Obj).tolerations, undefined);
    assert.deepEqual((createPodTemplate(template, undefined, '').metadata as Obj).labels, { app: 'x' });
  });
  it('the template generation from the annotation (absent or malformed: none)', () => {
    const ds = (v?: string): ApiObject => ({ metadata: { name: 'd', ...(v !== undefined ? { annotations: { 'deprecated.daemonset.template.generation': v } } : {}) } });
    assert.equal(templateGenerationOf(ds('3')), 3n);
    assert.equal(templateGenerationOf(ds()), undefined);
    assert.equal(templateGenerationOf(ds('x')), undefined);
  });
  const rows: { name: string; hash?: string; generation?: string; want: boolean }[] = [
    { name: 'the current hash', hash: 'cur', want: true },
    { name: 'the current generation', hash: 'old', generation: '2', want: true },
    { name: 'neither', hash: 'old', generation: '1', want: false },
    { name: 'no labels', want: false },
  ];
  for (const r of rows) it(`isPodUpdated: ${r.name}`, () => assert.equal(isPodUpdated(pod({ name: 'p', ...(r.hash ? { hash: r.hash } : {}), ...(r.generation ? { generation: r.generation } : {}) }), 'cur', 2n), r.want));
});

describe('revision data', () => {
  const ds = (image: string): ApiObject => ({
    metadata: { name: 'd' },
    spec: { selector: {}, template: { spec: { containers: [{ name: 'c', image, resources: {} }] }, metadata: { labels: { b: '1', a: '2' }, creationTimestamp: null } } },
  });
  it('the template as a replace patch, keys in Go\'s order, written as Go writes it', () => {
    const patch = templatePatch(ds('a<b'));
    assert.equal(rawData(patch), '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"a":"2","b":"1"}},"spec":{"containers":[{"image":"a\\u003cb","name":"c","resources":{}}]}}}}');
    assert.deepEqual(Object.keys((patch.spec as Obj).template as Obj), ['$patch', 'metadata', 'spec']);
  });
  it('a revision matches the DaemonSet with the same template only', () => {
    const rev = { metadata: { name: 'r' }, data: templatePatch(ds('one')) } as ApiObject;
    assert.equal(revisionMatches(ds('one'), rev), true);
    assert.equal(revisionMatches(ds('two'), rev), false);
  });
});
