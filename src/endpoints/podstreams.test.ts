import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError, newNotFound } from '../api/meta/index.js';
import type { RequestContext } from '../server/context.js';
import type { ApiObject } from '../registry/object.js';
import { resolveRequestInfo, type ResourceRequestInfo } from './requestinfo.js';
import { servePodStream, type PodStreamDeps } from './podstreams.js';

const containers = (...names: string[]) => names.map((name) => ({ name, image: 'busybox' }));
const PODS: Record<string, ApiObject> = {
  pending: { metadata: { name: 'pending', namespace: 'default' }, spec: { containers: containers('c') } },
  placed: { metadata: { name: 'placed', namespace: 'default' }, spec: { nodeName: 'n1', containers: containers('c') } },
  lost: { metadata: { name: 'lost', namespace: 'default' }, spec: { nodeName: 'n2', containers: containers('c') } },
  multi: { metadata: { name: 'multi', namespace: 'default' }, spec: { initContainers: containers('init'), containers: containers('a', 'b') } },
  empty: { metadata: { name: 'empty', namespace: 'default' }, spec: { containers: [] } },
};
const deps: PodStreamDeps = {
  pod: async (_ns, name) => {
    const p = PODS[name];
    if (!p) throw newNotFound({ group: '', resource: 'pods' }, name);
    return structuredClone(p);
  },
  node: async (name) => {
    if (name !== 'n1') throw newNotFound({ group: '', resource: 'nodes' }, name);
    return { metadata: { name } };
  },
};

/** Runs one request; the answer's code and message (or the 204 written). */
async function serve(method: string, target: string): Promise<{ code: number; reason?: string; message?: string }> {
  const res = { statusCode: 200, ended: false, end() { this.ended = true; } };
  const ctx = { req: { method, url: target, headers: {} }, res, url: new URL(target, 'https://x') } as unknown as RequestContext;
  const info = resolveRequestInfo({ method, url: target }) as ResourceRequestInfo;
  try {
    await servePodStream(ctx, info, deps);
    assert.ok(res.ended, 'a success ends the response');
    return { code: res.statusCode };
  } catch (err) {
    assert.ok(isStatusError(err), String(err));
    return { code: err.status.code!, reason: err.status.reason!, message: err.status.message! };
  }
}

const base = '/api/v1/namespaces/default/pods';

describe('pod streaming subresources without a node agent', () => {
  // [method, target, code, reason, message]
  const cases: [string, string, number, string?, string?][] = [
    ['GET', `${base}/pending/log`, 204],
    ['GET', `${base}/pending/log?follow=true&container=c`, 204],
    ['GET', `${base}/pending/log?container=x`, 400, 'BadRequest', 'container x is not valid for pod pending'],
    ['GET', `${base}/multi/log`, 400, 'BadRequest', 'a container name must be specified for pod multi, choose one of: [a b init]'],
    ['GET', `${base}/multi/log?container=init`, 204],
    ['GET', `${base}/empty/log`, 400, 'BadRequest', 'a container name must be specified for pod empty'],
    ['GET', `${base}/pending/log?tailLines=-1&limitBytes=0`, 422, 'Invalid', 'PodLogOptions "pending" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0]'],
    ['GET', `${base}/pending/log?sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z`, 422, 'Invalid', 'PodLogOptions "pending" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified'],
    ['GET', `${base}/pending/log?sinceSeconds=0`, 422, 'Invalid', 'PodLogOptions "pending" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0'],
    ['GET', `${base}/pending/log?tailLines=ten`, 400, 'BadRequest', 'tailLines: invalid integer "ten"'],
    ['GET', `${base}/nobody/log`, 404, 'NotFound', 'pods "nobody" not found'],
    ['GET', `${base}/placed/log`, 503, 'ServiceUnavailable', 'pod placed runs on node n1, but this server has no node agent to reach it: reading container logs is not available'],
    ['GET', `${base}/lost/log`, 404, 'NotFound', 'nodes "n2" not found'],
    ['POST', `${base}/pending/exec?command=ls&stdout=true`, 400, 'BadRequest', 'pod pending does not have a host assigned'],
    ['GET', `${base}/pending/exec?command=ls&stdout=true`, 400, 'BadRequest', 'pod pending does not have a host assigned'],
    ['POST', `${base}/pending/exec?container=nope&command=ls`, 400, 'BadRequest', 'container nope is not valid for pod pending'],
    ['POST', `${base}/placed/exec?command=ls`, 503, 'ServiceUnavailable', 'pod placed runs on node n1, but this server has no node agent to reach it: exec is not available'],
    ['POST', `${base}/pending/attach?stdout=true`, 400, 'BadRequest', 'pod pending does not have a host assigned'],
    ['POST', `${base}/placed/attach?stdout=true`, 503, 'ServiceUnavailable', 'pod placed runs on node n1, but this server has no node agent to reach it: attach is not available'],
    ['POST', `${base}/multi/attach`, 400, 'BadRequest', 'a container name must be specified for pod multi, choose one of: [a b init]'],
    ['POST', `${base}/multi/portforward?ports=80`, 400, 'BadRequest', 'pod multi does not have a host assigned'],
    ['POST', `${base}/placed/portforward?ports=80`, 503, 'ServiceUnavailable', 'pod placed runs on node n1, but this server has no node agent to reach it: port forwarding is not available'],
    ['POST', `${base}/lost/portforward`, 404, 'NotFound', 'nodes "n2" not found'],
  ];
  for (const [method, target, code, reason, message] of cases) {
    it(`${method} ${target.slice(base.length)} → ${code}`, async () => {
      const r = await serve(method, target);
      assert.equal(r.code, code);
      assert.equal(r.reason, reason);
      assert.equal(r.message, message);
    });
  }
});
