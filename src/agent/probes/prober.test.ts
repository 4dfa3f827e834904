// One probe with events, as kube's prober.probe records them.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { InvolvedObject } from '../../controllers/events/reference.js';
import { CriError } from '../cri/types.js';
import { MAX_PROBE_RETRIES, Prober, containerRef } from './prober.js';
import { probeSpecOf } from './spec.js';
import { FakeExecRuntime, execResult } from './testing.js';
import type { Json, Pod, ProbeKind } from './types.js';

interface Recorded { ref: InvolvedObject; type: string; reason: string; message: string }
const sink = (out: Recorded[]) => ({ event: (ref: InvolvedObject, type: string, reason: string, message: string) => void out.push({ ref, type, reason, message }) });

let server: Server;
let port = 0;
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/500') res.writeHead(500).end();
    else if (req.url === '/away') res.writeHead(302, { location: `http://localhost:${port}/` }).end('gone');
    else res.end('fine');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

const pod = (container: Json): Pod => ({ metadata: { name: 'web-1', namespace: 'prod', uid: 'u1', resourceVersion: '7' }, spec: { containers: [container] } });

async function run(kind: ProbeKind, container: Json, runtime = new FakeExecRuntime()) {
  const events: Recorded[] = [];
  const prober = new Prober(runtime, sink(events));
  const spec = probeSpecOf(container, kind)!;
  const res = await prober.probe(kind, spec, { pod: pod(container), container, containerId: 'containerd://c1', podIP: '127.0.0.1' });
  return { res, events, runtime };
}

describe('Prober events', () => {
  const rows: { name: string; kind: ProbeKind; probe: () => Json; result: string; event?: [reason: string, message: string] }[] = [
    { name: 'success: no event', kind: 'liveness', probe: () => ({ httpGet: { path: '/', port } }), result: 'Success' },
    { name: 'liveness HTTP failure', kind: 'liveness', probe: () => ({ httpGet: { path: '/500', port } }), result: 'Failure',
      event: ['Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 500'] },
    { name: 'readiness HTTP failure', kind: 'readiness', probe: () => ({ httpGet: { path: '/500', port } }), result: 'Failure',
      event: ['Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 500'] },
    { name: 'startup failure', kind: 'startup', probe: () => ({ httpGet: { path: '/500', port } }), result: 'Failure',
      event: ['Unhealthy', 'Startup probe failed: HTTP probe failed with statuscode: 500'] },
    { name: 'a redirect away is a success with a ProbeWarning', kind: 'readiness', probe: () => ({ httpGet: { path: '/away', port } }), result: 'Success',
      event: ['ProbeWarning', 'Readiness probe warning: Probe terminated redirects, Response body: gone'] },
    { name: 'a port name the container lacks: errored', kind: 'liveness', probe: () => ({ tcpSocket: { port: 'metrics' } }), result: 'Failure',
      event: ['Unhealthy', 'Liveness probe errored: strconv.Atoi: parsing "metrics": invalid syntax'] },
    { name: 'no handler: errored', kind: 'readiness', probe: () => ({}), result: 'Failure',
      event: ['Unhealthy', 'Readiness probe errored: missing probe handler for web-1_prod(u1):app'] },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const { res, events } = await run(row.kind, { name: 'app', livenessProbe: row.probe(), readinessProbe: row.probe(), startupProbe: row.probe() });
      assert.equal(res.result, row.result);
      assert.deepEqual(events.map((e) => [e.reason, e.message]), row.event ? [row.event] : []);
      for (const e of events) assert.equal(e.type, 'Warning');
    });
  }
  it('events are about the container', async () => {
    const { events } = await run('liveness', { name: 'app', livenessProbe: { httpGet: { path: '/500', port } } });
    assert.deepEqual(events[0]!.ref, containerRef(pod({ name: 'app' }), 'app'));
    assert.deepEqual(events[0]!.ref, { apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: 'prod', uid: 'u1', resourceVersion: '7', fieldPath: 'spec.containers{app}' });
  });
  it('a handler error is retried, then thrown away as an error', async () => {
    const rt = new FakeExecRuntime(new Map([['c1', new CriError(14, 'connection closed', 'ExecSync')]]));
    const { res, events } = await run('liveness', { name: 'app', livenessProbe: { exec: { command: ['true'] } } }, rt);
    assert.equal(rt.calls.length, MAX_PROBE_RETRIES);
    assert.equal(res.error, 'rpc error: code = Unavailable desc = connection closed');
    assert.deepEqual(events.map((e) => e.message), ['Liveness probe errored: rpc error: code = Unavailable desc = connection closed']);
  });
  it('a failed result is not retried; exec output is the event text', async () => {
    const rt = new FakeExecRuntime(new Map([['c1', execResult(1, '', 'not healthy')]]));
    const { res, events } = await run('liveness', { name: 'app', livenessProbe: { exec: { command: ['check'] } } }, rt);
    assert.equal(rt.calls.length, 1);
    assert.equal(res.result, 'Failure');
    assert.deepEqual(events.map((e) => e.message), ['Liveness probe failed: not healthy']);
  });
  it('exec commands see the container\'s literal env', async () => {
    const rt = new FakeExecRuntime(new Map([['c1', execResult(0)]]));
    await run('readiness', {
      name: 'app', env: [{ name: 'FILE', value: '/tmp/ready' }, { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
      readinessProbe: { exec: { command: ['test', '-f', '$(FILE)', '$(TOKEN)'] }, timeoutSeconds: 4 },
    }, rt);
    assert.deepEqual(rt.calls, [{ id: 'c1', cmd: ['test', '-f', '/tmp/ready', ''], timeoutSeconds: 4 }]);
  });
});
