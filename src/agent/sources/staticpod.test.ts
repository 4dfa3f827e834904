import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePods, staticPod } from './manifest.js';
import { ManifestError, rfc3339Nano } from './staticpod.js';

const FILE = { nodeName: 'node-a', source: 'file' as const, origin: '/etc/svc/manifests/web.yaml' };
const manifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: { app: web }
spec:
  containers:
  - name: c
    image: busybox
    command: [sleep, "3600"]
`;

test('a file manifest made into a static pod, as kube defaults it', () => {
  const [pod] = decodePods(manifest, FILE);
  assert.equal(pod!.metadata.name, 'web-node-a');
  assert.equal(pod!.metadata.namespace, 'default');
  assert.match(pod!.metadata.uid!, /^[0-9a-f]{32}$/);
  assert.deepEqual(pod!.metadata.annotations, { 'kubernetes.io/config.hash': pod!.metadata.uid, 'svc.io/config.hash': pod!.metadata.uid });
  const spec = pod!.spec as Record<string, any>;
  assert.equal(spec.nodeName, 'node-a');
  assert.deepEqual(spec.tolerations, [{ operator: 'Exists', effect: 'NoExecute' }]);
  assert.equal(spec.restartPolicy, 'Always', 'API defaults applied');
  assert.equal(spec.containers[0].imagePullPolicy, 'Always');
  assert.deepEqual(pod!.status, { phase: 'Pending' });
});

test('the UID is a hash of the node, the origin and the content', () => {
  const uid = (text: string, o = FILE) => decodePods(text, o)[0]!.metadata.uid;
  const a = uid(manifest);
  assert.equal(uid(manifest), a, 'stable');
  assert.equal(uid(JSON.stringify({ kind: 'Pod', apiVersion: 'v1', metadata: { labels: { app: 'web' }, name: 'web' }, spec: { containers: [{ command: ['sleep', '3600'], image: 'busybox', name: 'c' }] } })), a, 'same pod in JSON, other key order');
  assert.notEqual(uid(manifest.replace('3600', '60')), a, 'content');
  assert.notEqual(uid(manifest, { ...FILE, nodeName: 'node-b' }), a, 'node');
  assert.notEqual(uid(manifest, { ...FILE, origin: '/other.yaml' }), a, 'file');
  assert.equal(uid(manifest.replace('  name: web\n', '  name: web\n  uid: given-uid\n')), 'given-uid');
  const http = decodePods(manifest, { nodeName: 'node-a', source: 'http', origin: 'http://x/pods' })[0]!;
  assert.equal((http.spec as any).tolerations, undefined, 'only file pods get the toleration');
});

test('a PodList from a URL; errors for what is not a valid pod', () => {
  const list = JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'a', namespace: 'kube' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }, { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }] });
  assert.deepEqual(decodePods(list, { nodeName: 'n', source: 'http', origin: 'u' }).map((p) => `${p.metadata.namespace}/${p.metadata.name}`), ['kube/a-n', 'default/b-n']);
  const bad: [string, RegExp][] = [
    ['kind: Pod\napiVersion: v1\nmetadata: {name: x}\nspec: {containers: []}\n', /invalid pod: spec.containers: Required value/],
    ['apiVersion: v1\nmetadata: {name: x}\n', /Object 'Kind' is missing/],
    ['apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n', /not a v1 Pod/],
    ['kind: Pod\napiVersion: v1\nspec: {containers: [{name: c, image: busybox}]}\n', /metadata.name: Required value/],
    ['{ not yaml: [', /error converting YAML to JSON/],
  ];
  for (const [text, want] of bad) assert.throws(() => decodePods(text, FILE), (e: unknown) => e instanceof ManifestError && want.test(e.message), text);
  assert.throws(() => staticPod(null, FILE), ManifestError);
});

test('config.seen is RFC 3339 with nanoseconds, trailing zeros trimmed', () => {
  assert.equal(rfc3339Nano(Date.parse('2026-01-01T00:00:00.120Z')), '2026-01-01T00:00:00.12Z');
  assert.equal(rfc3339Nano(Date.parse('2026-01-01T00:00:10Z')), '2026-01-01T00:00:10Z');
});
