import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { probeSpecOf, resolveContainerPort } from './spec.js';
import { ProbeError } from './types.js';

describe('resolveContainerPort', () => {
  const container = { name: 'c', ports: [{ name: 'web', containerPort: 8080 }, { name: 'zero', containerPort: 0 }] };
  const ok: [number | string, number][] = [[80, 80], [65535, 65535], ['web', 8080], ['9090', 9090]];
  for (const [port, want] of ok) it(`${JSON.stringify(port)} → ${want}`, () => assert.equal(resolveContainerPort(port, container), want));
  const bad: [number | string, string][] = [
    [0, 'invalid port number: 0'],
    [65536, 'invalid port number: 65536'],
    ['zero', 'invalid port number: 0'],
    ['nope', 'strconv.Atoi: parsing "nope": invalid syntax'],
    ['', 'strconv.Atoi: parsing "": invalid syntax'],
    ['99999999999999999999', 'strconv.Atoi: parsing "99999999999999999999": value out of range'],
  ];
  for (const [port, msg] of bad) {
    it(`${JSON.stringify(port)} → ${msg}`, () => assert.throws(() => resolveContainerPort(port, container), (e: unknown) => e instanceof ProbeError && e.message === msg));
  }
});

describe('probeSpecOf', () => {
  it('applies the API defaults to fields left out', () => {
    const spec = probeSpecOf({ name: 'c', livenessProbe: { tcpSocket: { port: 80 } } }, 'liveness');
    assert.deepEqual(spec, {
      handler: { kind: 'tcpSocket', host: '', port: 80 },
      initialDelaySeconds: 0, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
    });
  });
  it('keeps given timing fields and the probe-level grace period', () => {
    const spec = probeSpecOf({
      name: 'c',
      startupProbe: { exec: { command: ['true'] }, initialDelaySeconds: 5, timeoutSeconds: 2, periodSeconds: 3, successThreshold: 1, failureThreshold: 30, terminationGracePeriodSeconds: 7 },
    }, 'startup');
    assert.equal(spec?.handler.kind, 'exec');
    assert.deepEqual({ ...spec, handler: undefined }, {
      handler: undefined, initialDelaySeconds: 5, timeoutSeconds: 2, periodSeconds: 3, successThreshold: 1, failureThreshold: 30, terminationGracePeriodSeconds: 7,
    });
  });
  it('reads each handler kind and none', () => {
    const c = {
      name: 'c',
      livenessProbe: { httpGet: { path: '/h', port: 'web', scheme: 'HTTPS', httpHeaders: [{ name: 'X', value: 'y' }] } },
      readinessProbe: { grpc: { port: 9000, service: 'svc' } },
      startupProbe: {},
    };
    assert.deepEqual(probeSpecOf(c, 'liveness')?.handler, { kind: 'httpGet', scheme: 'HTTPS', host: '', port: 'web', path: '/h', headers: [{ name: 'X', value: 'y' }] });
    assert.deepEqual(probeSpecOf(c, 'readiness')?.handler, { kind: 'grpc', port: 9000, service: 'svc' });
    assert.deepEqual(probeSpecOf(c, 'startup')?.handler, { kind: 'none' });
    assert.equal(probeSpecOf({ name: 'd' }, 'liveness'), undefined);
  });
});
