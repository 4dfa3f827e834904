// The endpoint controllers end to end on a real server: a Service with a
// selector and its pods (IPs and readiness written by the admin, as a node
// agent would) → an Endpoints object and EndpointSlices with kube's
// addresses, ports (named targetPorts resolved per pod), conditions, zones,
// labels and owners; readiness flips, terminating and deleted pods, headless
// services, publishNotReadyAddresses, a selector-less Service's Endpoints
// mirrored into slices (and the skip-mirror label), the Endpoints going with
// the Service (and at start, without one), Endpoints deleted by hand
// recreated, and `kubectl get endpoints,endpointslices` (kubectl 1.27).
// The main flow runs on SQLite and on etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Controller } from '../../src/controllers/context.js';
import { startEndpointsController } from '../../src/controllers/endpoints/controller.js';
import { startEndpointSliceController } from '../../src/controllers/endpointslice/controller.js';
import { startEndpointSliceMirroringController } from '../../src/controllers/endpointslicemirroring/controller.js';
import { BACKENDS } from './backends.js';
import { eventually, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

const NS = 'default';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function pod(name: string, labels: Record<string, string>, ports: { name: string; containerPort: number }[], extra: Json = {}): Json {
  return {
    metadata: { name, labels },
    spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx', ports }], ...extra },
  };
}

class Cluster {
  constructor(readonly t: TestServer) {}

  async ok(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Json> {
    const res = await this.t.req(method, path, body, headers ? { headers } : {});
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  /** What a node agent writes: the pod's IP, phase and readiness. */
  async podStatus(name: string, ip: string, ready: boolean): Promise<void> {
    await this.ok('PATCH', `/api/v1/namespaces/${NS}/pods/${name}/status`, {
      status: {
        phase: 'Running', podIP: ip, podIPs: [{ ip }],
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }],
      },
    }, { 'content-type': 'application/merge-patch+json' });
  }

  async endpoints(name: string): Promise<Json | undefined> {
    const res = await this.t.req('GET', `/api/v1/namespaces/${NS}/endpoints/${name}`);
    return res.status === 200 ? res.body : undefined;
  }

  async slices(service: string): Promise<Json[]> {
    const sel = encodeURIComponent(`kubernetes.io/service-name=${service}`);
    return (await this.ok('GET', `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices?labelSelector=${sel}`)).items;
  }

  /** Waits until `check` passes on the current state (its last failure is the error). */
  async until(check: () => Promise<void>): Promise<void> {
    let last: unknown;
    try {
      await eventually(async () => {
        try {
          await check();
          return true;
        } catch (err) {
          last = err;
          return false;
        }
      }, 15_000);
    } catch {
      throw last;
    }
  }
}

/** The (ip, ready) pairs and ports of an Endpoints object, sorted. */
function summary(ep: Json): { ready: string[]; notReady: string[] } {
  const ready: string[] = [];
  const notReady: string[] = [];
  for (const s of ep?.subsets ?? []) {
    const ports = (s.ports ?? []).map((p: Json) => `${p.name ?? ''}/${p.port}`).sort().join(',');
    for (const a of s.addresses ?? []) ready.push(`${a.ip}:${ports}`);
    for (const a of s.notReadyAddresses ?? []) notReady.push(`${a.ip}:${ports}`);
  }
  return { ready: ready.sort(), notReady: notReady.sort() };
}

/** The endpoints of a service's slices as `ip ready/serving/terminating ports`, sorted. */
function sliceSummary(slices: Json[]): string[] {
  const out: string[] = [];
  for (const s of slices) {
    const ports = (s.ports ?? []).map((p: Json) => `${p.name}/${p.port}`).sort().join(',');
    for (const e of s.endpoints ?? []) {
      const c = e.conditions ?? {};
      out.push(`${e.addresses.join(',')} ${c.ready}/${c.serving}/${c.terminating} ${ports}`);
    }
  }
  return out.sort();
}

function startControllers(t: TestServer): Controller[] {
  const ctx = t.server.controllerContext;
  // at most 4 addresses per Endpoints object here (kube: 1000), so truncation is cheap to see
  const cs = [startEndpointsController(ctx, { retryMs: 100, maxAddresses: 4 }), startEndpointSliceController(ctx, { retryMs: 100 }), startEndpointSliceMirroringController(ctx, { retryMs: 100 })];
  for (const c of cs) void c.start();
  return cs;
}

for (const backend of BACKENDS) {
  describe(`endpoint controllers (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    let c: Cluster;
    let controllers: Controller[] = [];
    before(async () => {
      t = await backend.start();
      c = new Cluster(t);
      // an Endpoints object whose Service is gone (deleted while no controller ran), and a leader-election record
      await c.ok('POST', `/api/v1/namespaces/${NS}/endpoints`, { metadata: { name: 'orphan' }, subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ port: 1 }] }] });
      await c.ok('POST', `/api/v1/namespaces/${NS}/endpoints`, { metadata: { name: 'leader', annotations: { 'control-plane.alpha.kubernetes.io/leader': '{}' } } });
      controllers = startControllers(t);
      await c.ok('POST', '/api/v1/nodes', { metadata: { name: 'node-a', labels: { 'topology.kubernetes.io/zone': 'zone-1' } } });
    });
    after(async () => {
      for (const ctl of controllers) await ctl.stop();
      await t?.stop();
    });

    it('a Service with a selector: Endpoints and EndpointSlices of its pods, named ports resolved per pod', async () => {
      const svc = await c.ok('POST', `/api/v1/namespaces/${NS}/services`, {
        metadata: { name: 'web', labels: { tier: 'front' } },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      });
      await c.ok('POST', `/api/v1/namespaces/${NS}/pods`, pod('web-1', { app: 'web' }, [{ name: 'http', containerPort: 8080 }]));
      await c.ok('POST', `/api/v1/namespaces/${NS}/pods`, pod('web-2', { app: 'web' }, [{ name: 'http', containerPort: 9090 }]));
      await c.ok('POST', `/api/v1/namespaces/${NS}/pods`, pod('other', { app: 'other' }, [{ name: 'http', containerPort: 8080 }]));
      await c.podStatus('web-1', '10.244.0.11', true);
      await c.podStatus('web-2', '10.244.0.12', true);
      await c.podStatus('other', '10.244.0.13', true);

      await c.until(async () => {
        const ep = await c.endpoints('web');
        assert.deepEqual(summary(ep), { ready: ['10.244.0.11:http/8080', '10.244.0.12:http/9090'], notReady: [] });
      });
      const ep = await c.endpoints('web');
      assert.deepEqual(ep.metadata.labels, { tier: 'front' }, 'the service\'s labels; not headless');
      assert.match(ep.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const addr = ep.subsets.flatMap((s: Json) => s.addresses).find((a: Json) => a.ip === '10.244.0.11');
      assert.equal(addr.nodeName, 'node-a');
      assert.deepEqual({ ...addr.targetRef, uid: undefined }, { kind: 'Pod', namespace: NS, name: 'web-1', uid: undefined });
      assert.equal(ep.subsets.length, 2, 'one subset per port set');

      await c.until(async () => {
        assert.deepEqual(sliceSummary(await c.slices('web')), ['10.244.0.11 true/true/false http/8080', '10.244.0.12 true/true/false http/9090']);
      });
      const slices = await c.slices('web');
      assert.equal(slices.length, 2, 'a slice per port set');
      for (const s of slices) {
        assert.equal(s.addressType, 'IPv4');
        assert.match(s.metadata.name, /^web-[a-z0-9]{5}$/);
        assert.equal(s.metadata.generateName, 'web-');
        assert.deepEqual(s.metadata.labels, { tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
        assert.deepEqual(s.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
        const e = s.endpoints[0];
        assert.equal(e.nodeName, 'node-a');
        assert.equal(e.zone, 'zone-1');
        assert.equal(e.targetRef.kind, 'Pod');
        assert.equal(s.ports[0].protocol, 'TCP');
        assert.match(s.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
    });

    it('a readiness flip moves the address to notReadyAddresses; a terminating pod leaves the Endpoints and shows terminating in its slice; a deleted one goes', async () => {
      await c.podStatus('web-1', '10.244.0.11', false);
      await c.until(async () => {
        assert.deepEqual(summary(await c.endpoints('web')), { ready: ['10.244.0.12:http/9090'], notReady: ['10.244.0.11:http/8080'] });
        assert.deepEqual(sliceSummary(await c.slices('web')), ['10.244.0.11 false/false/false http/8080', '10.244.0.12 true/true/false http/9090']);
      });
      await c.podStatus('web-1', '10.244.0.11', true);
      await c.until(async () => assert.deepEqual(summary(await c.endpoints('web')).notReady, []));

      // a pod on a node is deleted gracefully: it terminates first
      await c.ok('DELETE', `/api/v1/namespaces/${NS}/pods/web-2`);
      await c.until(async () => {
        assert.deepEqual(summary(await c.endpoints('web')), { ready: ['10.244.0.11:http/8080'], notReady: [] });
        assert.deepEqual(sliceSummary(await c.slices('web')), ['10.244.0.11 true/true/false http/8080', '10.244.0.12 false/true/true http/9090']);
      });
      await c.ok('DELETE', `/api/v1/namespaces/${NS}/pods/web-2`, { gracePeriodSeconds: 0 });
      await c.until(async () => {
        assert.deepEqual(sliceSummary(await c.slices('web')), ['10.244.0.11 true/true/false http/8080']);
        assert.equal((await c.slices('web')).length, 1, 'the emptied slice is deleted');
      });
    });

    it('a node\'s new zone reaches its endpoints', async () => {
      await c.ok('PATCH', '/api/v1/nodes/node-a', { metadata: { labels: { 'topology.kubernetes.io/zone': 'zone-2' } } }, { 'content-type': 'application/merge-patch+json' });
      await c.until(async () => assert.deepEqual((await c.slices('web')).flatMap((s: Json) => s.endpoints.map((e: Json) => e.zone)), ['zone-2']));
    });

    it('a headless Service: the headless label, subsets without ports; publishNotReadyAddresses publishes unready pods as ready', async () => {
      await c.ok('POST', `/api/v1/namespaces/${NS}/services`, {
        metadata: { name: 'db' }, spec: { clusterIP: 'None', selector: { app: 'db' }, publishNotReadyAddresses: true },
      });
      await c.ok('POST', `/api/v1/namespaces/${NS}/pods`, pod('db-0', { app: 'db' }, [], { hostname: 'db-0', subdomain: 'db' }));
      await c.podStatus('db-0', '10.244.0.21', false);
      await c.until(async () => {
        const ep = await c.endpoints('db');
        assert.deepEqual(ep.metadata.labels, { 'service.kubernetes.io/headless': '' });
        assert.deepEqual(ep.subsets, [{ addresses: [{ ip: '10.244.0.21', hostname: 'db-0', nodeName: 'node-a', targetRef: ep.subsets[0].addresses[0].targetRef }] }]);
      });
      await c.until(async () => {
        const [s, more] = await c.slices('db');
        assert.equal(more, undefined);
        assert.equal(s.metadata.labels['service.kubernetes.io/headless'], '');
        assert.deepEqual(sliceSummary([s]), ['10.244.0.21 true/false/false ']);
        assert.equal(s.endpoints[0].hostname, 'db-0');
      });
    });

    it('a pod on a node that does not exist: left out of the slices with a Warning event, added once the node appears', async () => {
      await c.ok('POST', `/api/v1/namespaces/${NS}/services`, { metadata: { name: 'lost' }, spec: { selector: { app: 'lost' }, ports: [{ port: 80 }] } });
      await c.ok('POST', `/api/v1/namespaces/${NS}/pods`, pod('lost-1', { app: 'lost' }, [], { nodeName: 'node-late' }));
      await c.podStatus('lost-1', '10.244.0.31', true);
      await c.until(async () => {
        const events = (await c.ok('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name%3Dlost`)).items;
        const e = events.find((x: Json) => x.reason === 'FailedToUpdateEndpointSlices');
        assert.ok(e, JSON.stringify(events.map((x: Json) => x.reason)));
        assert.equal(e.type, 'Warning');
        assert.equal(e.source.component, 'endpoint-slice-controller');
        assert.equal(e.involvedObject.kind, 'Service');
        assert.equal(e.message, 'Error updating Endpoint Slices for Service default/lost: skipping Pod lost-1 for Service default/lost: Node node-late Not Found');
      });
      assert.deepEqual(sliceSummary(await c.slices('lost')), []);
      assert.deepEqual(summary(await c.endpoints('lost')).ready, ['10.244.0.31:/80'], 'the Endpoints do not look at nodes');
      await c.ok('POST', '/api/v1/nodes', { metadata: { name: 'node-late' } });
      await c.until(async () => assert.deepEqual(sliceSummary(await c.slices('lost')), ['10.244.0.31 true/true/false /80']));
    });

    it('an ExternalName Service gets neither Endpoints nor slices, even with a selector', async () => {
      await c.ok('POST', `/api/v1/namespaces/${NS}/services`, { metadata: { name: 'cname' }, spec: { type: 'ExternalName', externalName: 'example.com', selector: { app: 'web' } } });
      // a Service created after it is handled: the controllers have passed the ExternalName one by then
      await c.ok('POST', `/api/v1/namespaces/${NS}/services`, { metadata: { name: 'marker' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
      await c.until(async () => {
        assert.ok(await c.endpoints('marker'));
        assert.equal((await c.slices('marker')).length, 1);
      });
      assert.equal(await c.endpoints('cname'), undefined);
      assert.deepEqual(await c.slices('cname'), []);
      await c.ok('DELETE', `/api/v1/namespaces/${NS}/services/marker`);
    });

    it('past its capacity an Endpoints object is truncated (ready addresses kept first) and says so; the slices hold them all', async () => {
      await c.ok('POST', `/api/v1/namespaces/${NS}/services`, { metadata: { name: 'big' }, spec: { selector: { app: 'big' }, ports: [{ port: 80 }] } });
      for (let i = 1; i <= 5; i++) {
        await c.ok('POST', `/api/v1/namespaces/${NS}/pods`, pod(`big-${i}`, { app: 'big' }, []));
        await c.podStatus(`big-${i}`, `10.244.1.${i}`, i !== 5);
      }
      await c.until(async () => {
        const ep = await c.endpoints('big');
        assert.deepEqual(summary(ep), { ready: ['10.244.1.1:/80', '10.244.1.2:/80', '10.244.1.3:/80', '10.244.1.4:/80'], notReady: [] });
        assert.equal(ep.metadata.annotations['endpoints.kubernetes.io/over-capacity'], 'truncated');
        assert.equal(sliceSummary(await c.slices('big')).length, 5);
      });
      await c.ok('DELETE', `/api/v1/namespaces/${NS}/pods/big-5`, { gracePeriodSeconds: 0 });
      await c.until(async () => {
        const ep = await c.endpoints('big');
        assert.equal(summary(ep).ready.length, 4);
        assert.equal(ep.metadata.annotations?.['endpoints.kubernetes.io/over-capacity'], undefined);
      });
    });

    it('a Service without pods gets an empty placeholder slice and an Endpoints without subsets', async () => {
      await c.ok('POST', `/api/v1/namespaces/${NS}/services`, { metadata: { name: 'empty' }, spec: { selector: { app: 'none' }, ports: [{ port: 80 }] } });
      await c.until(async () => {
        const ep = await c.endpoints('empty');
        assert.ok(ep, 'Endpoints created');
        assert.equal(ep.subsets, undefined);
        const slices = await c.slices('empty');
        assert.equal(slices.length, 1);
        assert.deepEqual(slices[0].endpoints ?? [], []);
      });
    });

    it('a selector-less Service: its Endpoints are left alone and mirrored into slices; skip-mirror is honoured', async () => {
      await c.ok('POST', `/api/v1/namespaces/${NS}/services`, { metadata: { name: 'ext' }, spec: { ports: [{ name: 'https', port: 443 }] } });
      const ep = await c.ok('POST', `/api/v1/namespaces/${NS}/endpoints`, {
        metadata: { name: 'ext', labels: { team: 'a' }, annotations: { note: 'x' } },
        subsets: [{ addresses: [{ ip: '192.168.10.1' }], notReadyAddresses: [{ ip: '192.168.10.2' }], ports: [{ name: 'https', port: 8443 }] }],
      });
      await c.until(async () => {
        const slices = await c.slices('ext');
        assert.equal(slices.length, 1);
        const s = slices[0];
        assert.deepEqual(s.metadata.labels, { team: 'a', 'kubernetes.io/service-name': 'ext', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' });
        assert.deepEqual(s.metadata.annotations, { note: 'x' });
        assert.deepEqual(s.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: ep.metadata.uid, controller: true, blockOwnerDeletion: true }]);
        assert.deepEqual(s.ports, [{ name: 'https', port: 8443, protocol: 'TCP' }]);
        assert.deepEqual(s.endpoints.map((e: Json) => `${e.addresses[0]} ${e.conditions.ready}`).sort(), ['192.168.10.1 true', '192.168.10.2 false']);
      });
      const endpoints = await c.endpoints('ext');
      assert.equal(endpoints.metadata.resourceVersion, ep.metadata.resourceVersion, 'the endpoints controller leaves a selector-less Service\'s Endpoints alone');

      // skip-mirror: the mirrored slices go
      await c.ok('PATCH', `/api/v1/namespaces/${NS}/endpoints/ext`, { metadata: { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } } }, { 'content-type': 'application/merge-patch+json' });
      await c.until(async () => assert.equal((await c.slices('ext')).length, 0));
      // mirrored again once the label says otherwise; gone with the Endpoints
      await c.ok('PATCH', `/api/v1/namespaces/${NS}/endpoints/ext`, { metadata: { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'false' } } }, { 'content-type': 'application/merge-patch+json' });
      await c.until(async () => assert.equal((await c.slices('ext')).length, 1));
      await c.ok('DELETE', `/api/v1/namespaces/${NS}/endpoints/ext`);
      await c.until(async () => assert.equal((await c.slices('ext')).length, 0));
    });

    it('at start, Endpoints without a Service are deleted (leader-election records kept)', async () => {
      await c.until(async () => assert.equal(await c.endpoints('orphan'), undefined));
      assert.ok(await c.endpoints('leader'));
    });

    it('Endpoints deleted by hand come back', async () => {
      const before = await c.endpoints('web');
      await c.ok('DELETE', `/api/v1/namespaces/${NS}/endpoints/web`);
      await c.until(async () => {
        const ep = await c.endpoints('web');
        assert.ok(ep && ep.metadata.uid !== before.metadata.uid, 'recreated');
        assert.deepEqual(summary(ep), summary(before));
      });
    });

    it('the Endpoints go with their Service', async () => {
      assert.ok(await c.endpoints('empty'));
      await c.ok('DELETE', `/api/v1/namespaces/${NS}/services/empty`);
      await c.until(async () => assert.equal(await c.endpoints('empty'), undefined));
    });

    // kubectl once, on SQLite
    if (backend.name === 'sqlite') it('kubectl 1.27: get endpoints,endpointslices', { skip: kubectlMissing }, async () => {
      const kubectl = kubectlFor(() => t);
      const res = await kubectl('get', 'endpoints,endpointslices', '-n', NS, '-l', 'tier=front');
      assert.equal(res.code, 0, res.err);
      assert.match(res.out, /^NAME\s+ENDPOINTS\s+AGE\nendpoints\/web\s+10\.244\.0\.11:8080\s+\S+\n/m);
      assert.match(res.out, /NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\nendpointslice\.discovery\.(k8s|svc)\.io\/web-[a-z0-9]{5}\s+IPv4\s+8080\s+10\.244\.0\.11\s+\S+/);
    });
  });
}
