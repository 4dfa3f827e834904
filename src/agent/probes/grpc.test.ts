// The grpc probe against a real grpc-js server implementing grpc.health.v1.Health/Check.
import assert from 'node:assert/strict';
import { Server, ServerCredentials, status as grpcStatus, type sendUnaryData, type ServerUnaryCall, type ServiceDefinition } from '@grpc/grpc-js';
import { after, before, describe, it } from 'node:test';
import { grpcProbe } from './grpc.js';
import { HEALTH_SERVICE, decodeRequest, decodeResponse, encodeRequest, encodeResponse, type HealthCheckRequest, type HealthCheckResponse } from './health.js';
import { closedPort as freePort } from './testing.js';
import type { ProbeOutcome } from './types.js';

const STATUSES = new Map<string, number>([['', 1], ['down', 2], ['weird', 9]]);
let userAgents: string[] = [];
let servers: Server[] = [];
let healthPort = 0;
let otherPort = 0;
let closedPort = 0;

async function serve(def: ServiceDefinition, impl: Record<string, (call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, cb: sendUnaryData<HealthCheckResponse>) => void>): Promise<number> {
  const s = new Server();
  s.addService(def, impl);
  const port = await new Promise<number>((resolve, reject) => s.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  servers.push(s);
  return port;
}

before(async () => {
  healthPort = await serve(HEALTH_SERVICE, {
    Check: (call, cb) => {
      userAgents.push(String(call.metadata.get('user-agent')[0] ?? ''));
      const service = call.request.service;
      if (service === 'slow') return void setTimeout(() => cb(null, { status: 1 }), 3000);
      const st = STATUSES.get(service);
      if (st === undefined) return cb({ code: grpcStatus.NOT_FOUND, details: 'unknown service' });
      cb(null, { status: st });
    },
  });
  // A server without the health service.
  const other: ServiceDefinition = { Echo: { ...HEALTH_SERVICE.Check!, path: '/test.Echo/Echo' } };
  otherPort = await serve(other, { Echo: (_call, cb) => cb(null, { status: 1 }) });
  closedPort = await freePort();
});
after(() => {
  for (const s of servers) s.forceShutdown();
  servers = [];
});

describe('health codec', () => {
  it('round-trips requests and responses, keeping unknown enum numbers', () => {
    assert.deepEqual(decodeRequest(encodeRequest({ service: 'my.Service' })), { service: 'my.Service' });
    assert.deepEqual(decodeRequest(encodeRequest({ service: '' })), { service: '' });
    assert.deepEqual(decodeResponse(encodeResponse({ status: 2 })), { status: 2 });
    assert.deepEqual(decodeResponse(encodeResponse({ status: 300 })), { status: 300 });
    assert.deepEqual(decodeResponse(Buffer.alloc(0)), { status: 0 });
    assert.deepEqual([...encodeRequest({ service: 'ab' })], [0x0a, 2, 0x61, 0x62]);
  });
});

describe('grpc probe', () => {
  const rows: { name: string; port: () => number; service: string; want: () => ProbeOutcome }[] = [
    { name: 'SERVING is success', port: () => healthPort, service: '', want: () => ({ result: 'Success', output: 'service is healthy' }) },
    { name: 'NOT_SERVING fails', port: () => healthPort, service: 'down', want: () => ({ result: 'Failure', output: 'service unhealthy (responded with "NOT_SERVING")' }) },
    { name: 'an unknown status number fails with the number', port: () => healthPort, service: 'weird', want: () => ({ result: 'Failure', output: 'service unhealthy (responded with "9")' }) },
    { name: 'an error status fails with grpc-go\'s text', port: () => healthPort, service: 'nope',
      want: () => ({ result: 'Failure', output: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' }) },
  ];
  for (const row of rows) it(row.name, async () => assert.deepEqual(await grpcProbe('127.0.0.1', row.port(), row.service, 2), row.want()));

  it('a server without the health protocol', async () => {
    const out = await grpcProbe('127.0.0.1', otherPort, '', 2);
    assert.equal(out.result, 'Failure');
    assert.match(out.output, /^error: this server does not implement the grpc health protocol \(grpc\.health\.v1\.Health\): /);
  });
  it('sends kube-probe/1.27 as the user agent', async () => {
    userAgents = [];
    await grpcProbe('127.0.0.1', healthPort, '', 2);
    assert.equal(userAgents.length, 1);
    assert.match(userAgents[0]!, /^kube-probe\/1\.27( |$)/);
  });
  it('no server: the connection times out', async () => {
    assert.deepEqual(await grpcProbe('127.0.0.1', closedPort, '', 1), {
      result: 'Failure', output: `timeout: failed to connect service "127.0.0.1:${closedPort}" within 1s: context deadline exceeded`,
    });
  });
  it('a slow answer: the call times out', async () => {
    assert.deepEqual(await grpcProbe('127.0.0.1', healthPort, 'slow', 1), { result: 'Failure', output: 'timeout: health rpc did not complete within 1s' });
  });
});
