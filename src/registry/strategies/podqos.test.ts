// QoS classes of pods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podQOSClass } from './podqos.js';
import type { ApiObject } from '../object.js';

const withInit = (resources: unknown, p: ApiObject): ApiObject => ({ ...p, spec: { ...(p.spec as object), initContainers: [{ name: 'init', resources }] } }) as ApiObject;
const pod = (...resources: unknown[]): ApiObject => ({ metadata: {}, spec: { containers: resources.map((r, i) => ({ name: `c${i}`, resources: r })) } }) as ApiObject;

describe('podQOSClass', () => {
  const rows: [string, ApiObject, string][] = [
    ['nothing', pod({}), 'BestEffort'],
    ['only an extended resource', pod({ requests: { 'example.com/gpu': '1' } }), 'BestEffort'],
    ['zero requests', pod({ requests: { cpu: '0' } }), 'BestEffort'],
    ['requests only', pod({ requests: { cpu: '100m' } }), 'Burstable'],
    ['limits equal requests', pod({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1024Mi' } }), 'Guaranteed'],
    ['limits only (requests default to them)', pod({ limits: { cpu: '1', memory: '1Gi' } }, { limits: { cpu: '2', memory: '1Gi' } }), 'Guaranteed'],
    ['memory limit missing', pod({ limits: { cpu: '1' } }), 'Burstable'],
    ['one container unlimited', pod({ limits: { cpu: '1', memory: '1Gi' } }, {}), 'Burstable'],
    ['requests below limits', pod({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), 'Burstable'],
    ['an init container counts', withInit({ requests: { cpu: '100m' } }, pod({ limits: { cpu: '1', memory: '1Gi' } })), 'Burstable'],
    ['totals are compared, not containers', pod({ requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }, { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } }), 'Guaranteed'],
    ['a limited init container and a limited app container', withInit({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }, pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } })), 'Guaranteed'],
    ['requests summed over init and app containers must equal the limits', withInit({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }, pod({ limits: { cpu: '1', memory: '1Gi' } })), 'Burstable'],
  ];
  for (const [name, p, want] of rows) it(name, () => assert.equal(podQOSClass(p), want));
});
