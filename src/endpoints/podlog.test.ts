import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeletDialError, kubeletClient, NoPreferredAddress } from './kubeletclient.js';
import { checkResponse, logLocation, proxyPodLog } from './podlog.js';
import { StatusError } from '../api/meta/index.js';
import { ServerClosing } from '../server/closing.js';
import { fakeContext } from '../testing/fakecontext.js';
import type { ApiObject } from '../registry/object.js';
import { join } from 'node:path';
import { tempDir } from '../testing/tempdir.js';
import { servingTls } from '../agent/server/tls.js';
import { startAgentServer } from '../agent/server/server.js';
import { newCertificateAuthority } from '../server/pki.js';

const node = (status: Record<string, unknown>): ApiObject => ({ metadata: { name: 'n' }, status });

test('kubelet client: the first address of the preferred types (InternalIP first by default, as kubeadm), the kubelet port or 10250', () => {
  const c = kubeletClient();
  const rows: { status: Record<string, unknown>; host: string; port: number }[] = [
    { status: { addresses: [{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '10.0.0.1' }] }, host: '10.0.0.1', port: 10250 },
    { status: { addresses: [{ type: 'ExternalIP', address: '1.2.3.4' }, { type: 'InternalIP', address: '10.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: 10300 } } }, host: '10.0.0.1', port: 10300 },
    { status: { addresses: [{ type: 'ExternalDNS', address: 'n.example' }, { type: 'ExternalIP', address: '1.2.3.4' }], daemonEndpoints: { kubeletEndpoint: { Port: 0 } } }, host: '1.2.3.4', port: 10250 },
  ];
  for (const r of rows) assert.deepEqual(c.connection(node(r.status)), { host: r.host, port: r.port });
  const hostnameFirst = kubeletClient({ preferredAddressTypes: ['Hostname', 'InternalIP'] });
  assert.equal(hostnameFirst.connection(node(rows[0]!.status)).host, 'n1');
  assert.throws(() => c.connection(node({ addresses: [{ type: 'Weird', address: 'x' }] })), (e: unknown) => e instanceof NoPreferredAddress && e.message === 'no preferred addresses found; known addresses: [{Weird x}]');
  assert.throws(() => c.connection(node({})), /known addresses: \[\]$/);
});

test('logLocation: the agent URL with the given options in Go\'s sorted order', () => {
  const c = kubeletClient();
  const n = node({ addresses: [{ type: 'InternalIP', address: 'fd00::1' }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } });
  const rows: [string, string][] = [
    ['', 'https://[fd00::1]:10250/containerLogs/ns/p/c'],
    ['follow=true&tailLines=10&timestamps=1&previous=false&container=c', 'https://[fd00::1]:10250/containerLogs/ns/p/c?follow=true&tailLines=10&timestamps=true'],
    ['limitBytes=+5&sinceSeconds=30&previous=True', 'https://[fd00::1]:10250/containerLogs/ns/p/c?limitBytes=5&previous=true&sinceSeconds=30'],
    ['sinceTime=2026-01-01T10:00:00.5%2B02:00', 'https://[fd00::1]:10250/containerLogs/ns/p/c?sinceTime=2026-01-01T08%3A00%3A00Z'],
  ];
  for (const [q, want] of rows) assert.equal(logLocation(c, n, 'ns', 'p', 'c', new URLSearchParams(q)).href, want, q);
});

test('checkResponse: the agent\'s refusals as kube\'s generic response checker makes them', () => {
  const rows: { code: number; body: string; reason?: string; message: string; kind?: string }[] = [
    { code: 400, body: 'container "a" in pod "p" is waiting to start: ContainerCreating', reason: 'BadRequest', message: 'container "a" in pod "p" is waiting to start: ContainerCreating' },
    { code: 500, body: 'boom', reason: 'InternalError', message: 'Internal error occurred: boom' },
    { code: 404, body: 'pod "p" does not exist', reason: 'NotFound', message: 'the server could not find the requested resource ( pods/log p)', kind: 'pods/log' },
    { code: 401, body: 'Unauthorized', reason: 'Unauthorized', message: 'the server has asked for the client to provide credentials ( pods/log p)', kind: 'pods/log' },
    { code: 403, body: 'Forbidden (user=x, verb=get, resource=nodes, subresource=proxy)', reason: 'Forbidden', message: 'Forbidden (user=x, verb=get, resource=nodes, subresource=proxy) ( pods/log p)', kind: 'pods/log' },
    { code: 422, body: '{"message": "Invalid request."}', reason: 'Invalid', message: 'the server rejected our request due to an error in our request ( pods/log p)', kind: 'pods/log' },
    { code: 502, body: 'bad gateway', reason: 'InternalError', message: 'an error on the server ("bad gateway") has prevented the request from succeeding ( pods/log p)', kind: 'pods/log' },
    { code: 302, body: '', message: 'the server responded with the status code 302 but did not return more information ( pods/log p)', kind: 'pods/log' },
  ];
  for (const r of rows) {
    const s = checkResponse(r.code, r.body, 'p').status;
    assert.equal(s.code, r.code, String(r.code));
    assert.equal(s.reason, r.reason, String(r.code));
    assert.equal(s.message, r.message, String(r.code));
    if (r.kind) assert.deepEqual(s.details, { name: 'p', kind: r.kind });
  }
});

test('kubelet client against a real agent: verified with --kubelet-certificate-authority, Go\'s x509 texts when not', async () => {
  const tls = await servingTls({ certDir: join(tempDir('svc-kubelet-client-'), 'pki'), hostname: 'localhost' });
  const agent = await startAgentServer({
    host: { pods: () => [], logPath: async () => { throw new Error('none'); } }, nodeName: 'n', address: '127.0.0.1', port: 0, tls,
    authentication: { anonymous: true }, authorization: { mode: 'AlwaysAllow' },
  });
  try {
    const body = async (url: string, ca?: string) => {
      const res = await kubeletClient(ca ? { ca } : {}).get(new URL(url), new AbortController().signal);
      let text = '';
      for await (const c of res) text += String(c);
      return `${res.statusCode} ${text}`;
    };
    const byName = `https://localhost:${agent.port}/healthz`;
    const byIP = `https://127.0.0.1:${agent.port}/healthz`;
    assert.equal(await body(byIP), '200 ok'); // no CA: not verified, as kube
    assert.equal(await body(byName, tls.cert), '200 ok');
    const other = (await newCertificateAuthority()).cert;
    const rows: [string, string | undefined, string][] = [
      [byName, other, `Get "${byName}": tls: failed to verify certificate: x509: certificate signed by unknown authority`],
      [byIP, tls.cert, `Get "${byIP}": tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs`],
    ];
    for (const [url, ca, want] of rows) await assert.rejects(body(url, ca), (e: unknown) => e instanceof Error && e.message === want, url);
  } finally {
    await agent.close();
  }
});

test('proxyPodLog: the server\'s shutdown ends a log request still waiting for the agent with 503; a client gone before it asked gets nothing', { timeout: 10_000 }, async () => {
  const asked: AbortSignal[] = [];
  // an agent that never answers: the request ends only when its signal aborts (as the real client's does)
  const client = {
    connection: () => ({ host: '127.0.0.1', port: 1 }),
    get: (_url: URL, signal: AbortSignal) => new Promise<never>((_, reject) => {
      asked.push(signal);
      const fail = () => reject(new KubeletDialError('Get "https://127.0.0.1:1/containerLogs/default/p/c": context canceled'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail);
    }),
  };
  const url = new URL('https://127.0.0.1:1/containerLogs/default/p/c?follow=true');

  const closing = new ServerClosing();
  const ctx = Object.assign(fakeContext('GET', '/api/v1/namespaces/default/pods/p/log?follow=true'), { closing });
  const waiting = proxyPodLog(ctx, client as never, url, 'p');
  await new Promise((r) => setImmediate(r));
  assert.equal(asked.length, 1);
  closing.begin();
  await assert.rejects(waiting, (e: unknown) => e instanceof StatusError && e.status.code === 503 && e.status.message === 'the apiserver is shutting down');

  const gone = fakeContext('GET', '/api/v1/namespaces/default/pods/p/log');
  Object.assign(gone.res, { destroyed: true });
  await proxyPodLog(gone, client as never, url, 'p');
  assert.equal(asked.length, 2);
  assert.equal(asked[1]!.aborted, true, 'asked with a signal already aborted');
});
