import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { containerResourceValue, downwardAPIPayload, podFieldValue } from './downwardapi.js';

const pod: ApiObject = {
  metadata: {
    name: 'web', namespace: 'shop', uid: 'u-42',
    labels: { app: 'web', 'svc.io/tier': 'front' },
    annotations: { note: 'say "hi"\tnow', empty: '' },
  },
  spec: {
    containers: [
      { name: 'main', resources: { limits: { cpu: '250m', memory: '64Mi' }, requests: { cpu: '100m', memory: '32Mi', 'ephemeral-storage': '1Gi' } } },
      { name: 'bare' },
    ],
    initContainers: [{ name: 'init', resources: { limits: { memory: '1G', 'hugepages-2Mi': '4Mi' } } }],
  },
};
const alloc = { cpu: '3', memory: '8Gi', 'ephemeral-storage': '100Gi' };

describe('podFieldValue', () => {
  const rows: [string, string][] = [
    ['metadata.name', 'web'],
    ['metadata.namespace', 'shop'],
    ['metadata.uid', 'u-42'],
    ['metadata.labels', 'app="web"\nsvc.io/tier="front"'],
    ['metadata.annotations', 'empty=""\nnote="say \\"hi\\"\\tnow"'],
    ["metadata.labels['app']", 'web'],
    ["metadata.labels['missing']", ''],
    ["metadata.annotations['note']", 'say "hi"\tnow'],
  ];
  for (const [path, want] of rows) it(path, () => assert.equal(podFieldValue(pod, path), want));

  it('refuses other paths as kube does', () => {
    assert.throws(() => podFieldValue(pod, 'spec.nodeName'), { message: 'unsupported fieldPath: spec.nodeName' });
    assert.throws(() => podFieldValue(pod, "metadata.name['x']"), { message: `fieldPath "metadata.name['x']" does not support subscript` });
  });
});

describe('containerResourceValue', () => {
  const rows: [string, string, string | undefined, string][] = [
    ['main', 'limits.cpu', undefined, '1'],
    ['main', 'limits.cpu', '1m', '250'],
    ['main', 'requests.cpu', '1m', '100'],
    ['main', 'limits.memory', undefined, String(64 * 1024 * 1024)],
    ['main', 'limits.memory', '1Mi', '64'],
    ['main', 'requests.memory', '1Mi', '32'],
    ['main', 'requests.memory', '1M', '34'],
    ['main', 'requests.ephemeral-storage', '1Gi', '1'],
    ['main', 'limits.ephemeral-storage', '1Gi', '100'],
    ['bare', 'limits.cpu', undefined, '3'],
    ['bare', 'limits.cpu', '1m', '3000'],
    ['bare', 'limits.memory', '1Gi', '8'],
    ['bare', 'requests.cpu', undefined, '0'],
    ['init', 'limits.memory', '1Mi', '954'],
    ['init', 'limits.hugepages-2Mi', '1Mi', '4'],
  ];
  for (const [c, r, d, want] of rows) {
    it(`${c} ${r} / ${d ?? '1'}`, () => assert.equal(containerResourceValue(pod, { containerName: c, resource: r, ...(d ? { divisor: d } : {}) }, alloc), want));
  }
  it('errors as kube words them', () => {
    assert.throws(() => containerResourceValue(pod, { containerName: 'nope', resource: 'limits.cpu' }, alloc), { message: 'container nope not found' });
    assert.throws(() => containerResourceValue(pod, { containerName: 'main', resource: 'limits.gpu' }, alloc), { message: 'unsupported container resource : limits.gpu' });
  });
});

describe('downwardAPIPayload', () => {
  it('writes every item with its mode or the default', () => {
    const out = downwardAPIPayload(pod, [
      { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
      { path: 'dir/../labels', fieldRef: { fieldPath: 'metadata.labels' }, mode: 0o400 },
      { path: 'mem', resourceFieldRef: { containerName: 'main', resource: 'limits.memory', divisor: '1Mi' } },
    ], 0o644, () => alloc);
    assert.deepEqual([...out.keys()], ['name', 'labels', 'mem']);
    assert.equal(out.get('name')!.mode, 0o644);
    assert.equal(out.get('labels')!.mode, 0o400);
    assert.equal(Buffer.from(out.get('mem')!.data).toString(), '64');
  });
  it('gathers the errors of every item', () => {
    assert.throws(
      () => downwardAPIPayload(pod, [
        { path: 'a', fieldRef: { fieldPath: 'spec.x' } },
        { path: 'b', resourceFieldRef: { containerName: 'zz', resource: 'limits.cpu' } },
      ], 0o644, () => alloc),
      { message: '[unsupported fieldPath: spec.x, container zz not found]' },
    );
  });
});
