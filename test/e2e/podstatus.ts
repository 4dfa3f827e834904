// Pod status written as a node would write it, for controller suites that run
// without nodes: the test stands in for the kubelet.
import assert from 'node:assert/strict';
import type { TestServer } from './harness.js';

/** Marks a pod Running and Ready (retried on conflicts with the controllers' writes). */
export async function markReady(t: TestServer, ns: string, name: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  for (;;) {
    const pod = await t.req('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
    if (pod.status === 404) return; // deleted meanwhile (scaled down)
    assert.equal(pod.status, 200, pod.text);
    pod.body.status = { ...pod.body.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] };
    const put = await t.req('PUT', `/api/v1/namespaces/${ns}/pods/${name}/status`, pod.body);
    if (put.status === 409 || put.status === 404) continue;
    assert.equal(put.status, 200, put.text);
    return;
  }
}
