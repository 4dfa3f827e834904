// pods/log through a node agent: the real API server proxies to the agent's
// HTTPS server (src/agent/server, with a fake host serving log files) found
// through the Node's status.addresses and daemonEndpoints; the agent
// authenticates the API server by its client certificate (the generated
// cluster CA as --client-ca-file) and authorizes it by SubjectAccessReview
// against the same API server. kubectl 1.27 reads through it (logs, logs -f).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing, until } from './kubectlcli.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { freePort } from '../../src/testing/ports.js';
import { parseCertificateBundle } from '../../src/server/pki.js';
import { startAgentServer, type RunningAgentServer } from '../../src/agent/server/server.js';
import { servingTls } from '../../src/agent/server/tls.js';
import { LogUnavailable, type AgentHost } from '../../src/agent/server/host.js';
import type { ReviewApi } from '../../src/agent/server/authn.js';
import type { ApiObject } from '../../src/registry/object.js';

describe('pods/log through the node agent', () => {
  let t: TestServer;
  let agent: RunningAgentServer;
  const dir = tempDir('svc-agent-logs-');
  const logFile = join(dir, '0.log');
  let running = true;
  const sars: Record<string, any>[] = [];
  const pods: ApiObject[] = [];
  const kubectl = kubectlFor(() => t);

  const host: AgentHost = {
    pods: () => pods,
    logPath: async (_ns, _pod, container) => {
      if (container === 'waiting') throw new LogUnavailable('container "waiting" in pod "web" is waiting to start: ContainerCreating');
      return { path: logFile, running: async () => running };
    },
  };
  const post = async (path: string, body: unknown) => {
    const r = await t.req('POST', path, body);
    assert.equal(r.status, 201, r.text);
    return r.body as ApiObject;
  };
  const node = (name: string, status: Record<string, unknown>) => post('/api/v1/nodes', { metadata: { name }, status });
  const pod = async (name: string, nodeName: string, containers = ['app']) => {
    const p = await post('/api/v1/namespaces/default/pods', { metadata: { name }, spec: { nodeName, containers: containers.map((c) => ({ name: c, image: 'busybox' })) } });
    pods.push(p);
  };

  before(async () => {
    t = await startTestServer();
    writeFileSync(logFile, '2026-01-01T00:00:01Z stdout F one\n2026-01-01T00:00:02.5Z stderr F two\n2026-01-01T00:00:03Z stdout F three\n');
    // The agent asks the API server its SubjectAccessReviews as admin (the node's own AgentApi in a real agent).
    const api: ReviewApi = {
      create: async (target, _ns, body) => {
        const r = await t.req('POST', `/apis/${target.group}/${target.version}/${target.resource}`, body);
        assert.equal(r.status, 201, r.text);
        if (target.resource === 'subjectaccessreviews') sars.push((body as Record<string, any>).spec);
        return r.body as ApiObject;
      },
    };
    agent = await startAgentServer({
      host, nodeName: 'node-a', address: '127.0.0.1', port: 0,
      tls: await servingTls({ certDir: join(dir, 'pki'), hostname: 'node-a' }),
      authentication: { anonymous: false, clientCAs: parseCertificateBundle(readFileSync(join(t.dataDir, 'pki', 'ca.crt'), 'utf8')) },
      authorization: { mode: 'Webhook', api, authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 },
      logCheckIntervalMs: 50,
    });
    await node('node-a', { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }, { type: 'Hostname', address: 'localhost' }], daemonEndpoints: { kubeletEndpoint: { Port: agent.port } } });
    await node('node-down', { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: await freePort() } } });
    await node('node-nowhere', { addresses: [] });
    await pod('web', 'node-a', ['app', 'waiting']);
    await pod('solo', 'node-a');
    await pod('down', 'node-down');
    await pod('nowhere', 'node-nowhere');
    // on the node in the API, but not (yet) known to the agent
    await post('/api/v1/namespaces/default/pods', { metadata: { name: 'ghost' }, spec: { nodeName: 'node-a', containers: [{ name: 'app', image: 'busybox' }] } });
  });
  after(async () => {
    await agent?.close();
    await t?.stop();
    kubectl.cleanup();
  });

  it('answers the log as text/plain, with the options passed to the agent; the agent sees the API server\'s kubelet-client identity', async () => {
    const rows: [string, string][] = [
      ['/api/v1/namespaces/default/pods/solo/log', 'one\ntwo\nthree\n'],
      ['/api/v1/namespaces/default/pods/web/log?container=app&tailLines=1&timestamps=true', '2026-01-01T00:00:03Z three\n'],
      ['/api/v1/namespaces/default/pods/solo/log?sinceTime=2026-01-01T00:00:02Z', 'two\nthree\n'],
      ['/api/v1/namespaces/default/pods/solo/log?limitBytes=5', 'one\nt'],
    ];
    for (const [path, want] of rows) {
      const r = await t.req('GET', path);
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      assert.equal(r.headers['content-type'], 'text/plain', path);
      assert.equal(r.text, want, path);
    }
    assert.ok(sars.length >= 1);
    assert.equal(sars[0]!.user, 'kube-apiserver-kubelet-client');
    assert.deepEqual(sars[0]!.resourceAttributes, { namespace: '', verb: 'get', group: '', version: 'v1', resource: 'nodes', subresource: 'proxy', name: 'node-a' });
  });

  it('errors as kube-apiserver reports them', async () => {
    const rows: { path: string; code: number; reason?: string; message: string }[] = [
      { path: 'web/log?container=waiting', code: 400, reason: 'BadRequest', message: 'container "waiting" in pod "web" is waiting to start: ContainerCreating' },
      { path: 'ghost/log', code: 404, reason: 'NotFound', message: 'the server could not find the requested resource ( pods/log ghost)' },
      { path: 'nowhere/log', code: 500, message: 'no preferred addresses found; known addresses: []' },
    ];
    for (const r of rows) {
      const got = await t.req('GET', `/api/v1/namespaces/default/pods/${r.path}`);
      assert.equal(got.status, r.code, `${r.path}: ${got.text}`);
      assert.equal(got.body.kind, 'Status');
      assert.equal(got.body.reason, r.reason, r.path);
      assert.equal(got.body.message, r.message, r.path);
    }
    const down = await t.req('GET', '/api/v1/namespaces/default/pods/down/log?follow=true');
    assert.equal(down.status, 500);
    assert.equal(down.body.reason, undefined);
    assert.match(down.body.message, /^Get "https:\/\/127\.0\.0\.1:\d+\/containerLogs\/default\/down\/app\?follow=true": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/);
  });

  it('kubectl logs and kubectl logs -f (kubectl 1.27)', { skip: kubectlMissing }, async () => {
    const plain = await kubectl('logs', 'solo');
    assert.equal(plain.code, 0, plain.err);
    assert.equal(plain.out, 'one\ntwo\nthree\n');
    const tail = await kubectl('logs', 'web', '-c', 'app', '--tail=2', '--timestamps');
    assert.equal(tail.out, '2026-01-01T00:00:02.5Z two\n2026-01-01T00:00:03Z three\n');
    const waiting = await kubectl('logs', 'web', '-c', 'waiting');
    assert.equal(waiting.code, 1);
    assert.equal(waiting.err, 'Error from server (BadRequest): container "waiting" in pod "web" is waiting to start: ContainerCreating\n');
    const down = await kubectl('logs', 'down');
    assert.equal(down.code, 1);
    assert.match(down.err, /^Error from server: Get "https:\/\/127\.0\.0\.1:\d+\/containerLogs\/default\/down\/app": dial tcp 127\.0\.0\.1:\d+: connect: connection refused\n$/);

    running = true;
    const follow = kubectl.start('logs', '-f', 'solo', '--tail=1');
    await until(() => follow.out() === 'three\n', () => `kubectl logs -f printed ${JSON.stringify(follow.out())} ${follow.err()}`);
    appendFileSync(logFile, '2026-01-01T00:00:04Z stdout P fo');
    appendFileSync(logFile, 'ur\n2026-01-01T00:00:04Z stdout F \n');
    await until(() => follow.out() === 'three\nfour\n', () => `kubectl logs -f printed ${JSON.stringify(follow.out())}`);
    running = false; // the container stops: the agent ends the stream, the API server ends its answer, kubectl exits
    const end = await follow.done;
    assert.equal(end.code, 0, end.err);
    assert.equal(end.out, 'three\nfour\n');
    await until(() => agent.openLogStreams() === 0, () => 'the agent\'s stream ends with the container');

    // the client leaving ends the API server's request to the agent, and the agent's stream
    running = true;
    const leaving = kubectl.start('logs', '-f', 'solo', '--tail=2'); // the last two file lines are the two parts of "four"
    await until(() => leaving.out() === 'four\n', () => `kubectl logs -f printed ${JSON.stringify(leaving.out())} ${leaving.err()}`);
    assert.equal(agent.openLogStreams(), 1);
    leaving.proc.kill('SIGINT');
    await leaving.done;
    await until(() => agent.openLogStreams() === 0, () => 'the agent\'s stream ends when kubectl leaves');
    running = false;
  });
});
