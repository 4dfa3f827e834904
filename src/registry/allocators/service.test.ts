// Service allocation through the real generic store (strategy, validation,
// the hook seam) on a real store: SQLite in a temporary directory, and the
// concurrency case on etcd too when the etcd binary is present.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../../storage/sqlite/store.js';
import { EtcdStore } from '../../storage/etcd/store.js';
import { startEtcd, type EtcdServer } from '../../storage/etcd/testserver.js';
import { findTool } from '../../testing/tools.js';
import type { Store } from '../../storage/interface.js';
import { GenericStore } from '../store.js';
import { strategyFor } from '../strategies/index.js';
import { Admission } from '../admission.js';
import type { ApiObject } from '../object.js';
import { defaultService } from '../../api/core/v1/defaults.js';
import { isStatusError } from '../../api/meta/index.js';
import { parseClusterIPRange, parseNodePortRange, parseIPv4, SERVICE_IP_PREFIX, NODE_PORT_PREFIX, serviceHooks, type ServiceHooks } from './index.js';
import { tempDir } from '../../testing/tempdir.js';

const NS = 'default';

interface Env {
  readonly storage: Store;
  readonly services: GenericStore;
  readonly hooks: ServiceHooks;
}

function makeEnv(storage: Store, cidr = '10.0.0.0/24', ports = '30000-32767'): Env {
  const services = new GenericStore(
    { group: '', version: 'v1', resource: 'services', kind: 'Service' },
    strategyFor({ group: '', version: 'v1', resource: 'services', kind: 'Service' }, true, true),
    storage,
    new Admission(),
  );
  // Dynamic allocations start mid-range, so the fixed ports the tests request (30080, 30081) are never taken by chance.
  const hooks = serviceHooks({ storage, clusterIPRange: parseClusterIPRange(cidr), nodePortRange: parseNodePortRange(ports), releaseDeadlineMs: 5000, random: () => 0.5 });
  services.useHooks(hooks);
  return { storage, services, hooks };
}

type Spec = Record<string, unknown>;
type Port = Record<string, unknown>;

/** A Service as a client sends it, after the decoder's defaulting. */
function svc(name: string, spec: Spec): ApiObject {
  const obj: ApiObject = { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: structuredClone(spec) };
  defaultService(obj as Record<string, unknown>);
  return obj;
}

const tcp = (port: number, extra: Port = {}): Port => ({ name: `p${port}`, port, protocol: 'TCP', ...extra });
const specOf = (o: ApiObject) => o.spec as Spec;
const portsOf = (o: ApiObject) => specOf(o).ports as Port[];

async function claimed(storage: Store, prefix: string): Promise<string[]> {
  const r = await storage.range(prefix);
  return r.items.map((kv) => kv.key.slice(prefix.length)).sort();
}
const ips = (s: Store) => claimed(s, SERVICE_IP_PREFIX);
const nodePorts = (s: Store) => claimed(s, NODE_PORT_PREFIX);

async function rejects(p: Promise<unknown>, code: number, message: string | RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(isStatusError(err), `expected a StatusError, got ${String(err)}`);
    assert.equal(err.status.code, code, err.status.message);
    if (typeof message === 'string') assert.equal(err.status.message, message);
    else assert.match(err.status.message ?? '', message);
    return true;
  });
}

function inRange(ip: string, cidr: string): boolean {
  const r = parseClusterIPRange(cidr);
  const n = parseIPv4(ip);
  return n !== undefined && n > r.network && n < r.network + r.size + 1;
}

/** Opens a fresh SQLite store in a temp dir for each test group. */
function sqliteGroup(name: string, body: (get: () => Store) => void): void {
  describe(name, () => {
    let dir: string;
    let storage: SqliteStore;
    before(() => {
      dir = tempDir('svc-alloc-');
      storage = SqliteStore.open({ path: join(dir, 'state.db') });
    });
    after(async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    });
    body(() => storage);
  });
}

sqliteGroup('service create', (store) => {
  let env: Env;
  before(() => (env = makeEnv(store())));
  after(() => env.hooks.close());

  it('allocates a cluster IP, sets clusterIPs, ipFamilies, ipFamilyPolicy and status, and claims it in storage', async () => {
    const out = await env.services.create(NS, svc('web', { selector: { app: 'web' }, ports: [tcp(80)] }), { dryRun: false });
    const spec = specOf(out);
    const ip = spec.clusterIP as string;
    assert.ok(inRange(ip, '10.0.0.0/24'), ip);
    // Dynamic allocation prefers the range above the static band (.1–.16).
    assert.ok(parseIPv4(ip)! >= parseIPv4('10.0.0.17')!, ip);
    assert.deepEqual(spec.clusterIPs, [ip]);
    assert.deepEqual(spec.ipFamilies, ['IPv4']);
    assert.equal(spec.ipFamilyPolicy, 'SingleStack');
    assert.deepEqual(out.status, { loadBalancer: {} });
    assert.equal(portsOf(out)[0]!.nodePort, undefined);
    const kv = await env.storage.get(SERVICE_IP_PREFIX + ip);
    assert.ok(kv);
    assert.deepEqual(JSON.parse(Buffer.from(kv.value).toString()), { kind: 'Service', namespace: NS, name: 'web', uid: out.metadata.uid });
    // What was stored is what was answered.
    assert.equal(specOf(await env.services.get(NS, 'web')).clusterIP, ip);
  });

  it('a requested cluster IP is claimed exactly; a second request for it fails as Kubernetes fails it', async () => {
    const out = await env.services.create(NS, svc('fixed', { clusterIP: '10.0.0.5', ports: [tcp(80)] }), { dryRun: false });
    assert.equal(specOf(out).clusterIP, '10.0.0.5');
    assert.deepEqual(specOf(out).clusterIPs, ['10.0.0.5']);
    assert.ok((await ips(env.storage)).includes('10.0.0.5'));
    await rejects(
      env.services.create(NS, svc('fixed2', { clusterIP: '10.0.0.5', ports: [tcp(80)] }), { dryRun: false }),
      422,
      'Service "fixed2" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.5"}: failed to allocate IP 10.0.0.5: provided IP is already allocated',
    );
    // clusterIPs alone (a new client) is honoured too.
    await rejects(
      env.services.create(NS, svc('fixed3', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ports: [tcp(80)] }), { dryRun: false }),
      422,
      /failed to allocate IP 10\.0\.0\.5: provided IP is already allocated$/,
    );
  });

  const outOfRange: [string, string][] = [
    ['10.0.1.5', 'outside the CIDR'],
    ['10.0.0.0', 'the network address'],
    ['10.0.0.255', 'the broadcast address'],
  ];
  for (const [ip, what] of outOfRange) {
    it(`a requested cluster IP that is ${what} is refused`, async () => {
      const before = await ips(env.storage);
      await rejects(
        env.services.create(NS, svc('oor', { clusterIP: ip, ports: [tcp(80)] }), { dryRun: false }),
        422,
        `Service "oor" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is 10.0.0.0/24`,
      );
      assert.deepEqual(await ips(env.storage), before);
    });
  }

  const ipFieldErrors: [string, Spec, string][] = [
    ['an IPv6 cluster IP', { clusterIP: 'fd00::1', ports: [tcp(80)] }, 'Service "fam" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::1"}: IPv6 is not configured on this cluster'],
    ['RequireDualStack', { ipFamilyPolicy: 'RequireDualStack', ports: [tcp(80)] }, 'Service "fam" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services'],
    ['ipFamilies IPv6', { ipFamilies: ['IPv6'], ports: [tcp(80)] }, 'Service "fam" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster'],
    ['clusterIPs not matching clusterIP', { clusterIP: '10.0.0.7', clusterIPs: ['10.0.0.8'], ports: [tcp(80)] }, 'Service "fam" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.8"}: first value must match `clusterIP`'],
  ];
  for (const [what, spec, message] of ipFieldErrors) {
    it(`refuses ${what} before allocating`, async () => {
      const before = await ips(env.storage);
      await rejects(env.services.create(NS, svc('fam', spec), { dryRun: false }), 422, message);
      assert.deepEqual(await ips(env.storage), before);
    });
  }

  it('PreferDualStack on a single-stack cluster gets one IPv4 address', async () => {
    const out = await env.services.create(NS, svc('prefer', { ipFamilyPolicy: 'PreferDualStack', ports: [tcp(80)] }), { dryRun: false });
    assert.equal(specOf(out).ipFamilyPolicy, 'PreferDualStack');
    assert.deepEqual(specOf(out).ipFamilies, ['IPv4']);
    assert.equal((specOf(out).clusterIPs as string[]).length, 1);
  });

  it('headless services get clusterIPs ["None"] and no allocation', async () => {
    const before = await ips(env.storage);
    const withSelector = await env.services.create(NS, svc('headless', { clusterIP: 'None', selector: { app: 'x' }, ports: [tcp(80)] }), { dryRun: false });
    assert.equal(specOf(withSelector).clusterIP, 'None');
    assert.deepEqual(specOf(withSelector).clusterIPs, ['None']);
    assert.deepEqual(specOf(withSelector).ipFamilies, ['IPv4']);
    assert.equal(specOf(withSelector).ipFamilyPolicy, 'SingleStack');
    // Headless and selectorless: Kubernetes defaults it to both families.
    const selectorless = await env.services.create(NS, svc('headless2', { clusterIP: 'None', ports: [tcp(80)] }), { dryRun: false });
    assert.deepEqual(specOf(selectorless).ipFamilies, ['IPv4', 'IPv6']);
    assert.equal(specOf(selectorless).ipFamilyPolicy, 'RequireDualStack');
    assert.deepEqual(await ips(env.storage), before);
  });

  it('ExternalName services get nothing', async () => {
    const before = [await ips(env.storage), await nodePorts(env.storage)];
    const out = await env.services.create(NS, svc('ext', { type: 'ExternalName', externalName: 'example.com' }), { dryRun: false });
    const spec = specOf(out);
    for (const f of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) assert.equal(spec[f], undefined, f);
    assert.deepEqual([await ips(env.storage), await nodePorts(env.storage)], before);
  });

  it('NodePort services get a node port per port; ports sharing a number share one', async () => {
    const out = await env.services.create(NS, svc('np', {
      type: 'NodePort',
      ports: [tcp(80), tcp(443), { name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }],
    }), { dryRun: false });
    const nps = portsOf(out).map((p) => p.nodePort as number);
    for (const n of nps) assert.ok(n >= 30000 && n <= 32767, String(n));
    assert.equal(new Set(nps.slice(0, 3)).size, 3);
    assert.equal(nps[2], nps[3]);
    const held = await nodePorts(env.storage);
    for (const n of nps) assert.ok(held.includes(String(n)));
  });

  it('a requested node port is claimed exactly, or refused with Kubernetes\' messages', async () => {
    const out = await env.services.create(NS, svc('np-fixed', { type: 'NodePort', ports: [tcp(80, { nodePort: 30080 })] }), { dryRun: false });
    assert.equal(portsOf(out)[0]!.nodePort, 30080);
    const before = [await ips(env.storage), await nodePorts(env.storage)];
    await rejects(
      env.services.create(NS, svc('np-fixed2', { type: 'NodePort', ports: [tcp(81), tcp(80, { nodePort: 30080 })] }), { dryRun: false }),
      422,
      'Service "np-fixed2" is invalid: spec.ports[1].nodePort: Invalid value: 30080: provided port is already allocated',
    );
    await rejects(
      env.services.create(NS, svc('np-fixed3', { type: 'NodePort', ports: [tcp(80, { nodePort: 8080 })] }), { dryRun: false }),
      422,
      'Service "np-fixed3" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    // Nothing a failed create allocated (its cluster IP, port 81's node port) stays claimed.
    assert.deepEqual([await ips(env.storage), await nodePorts(env.storage)], before);
  });

  it('LoadBalancer: node ports unless allocateLoadBalancerNodePorts is false; Local traffic gets a health check node port', async () => {
    const lb = await env.services.create(NS, svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [tcp(80)] }), { dryRun: false });
    const np = portsOf(lb)[0]!.nodePort as number;
    const hc = specOf(lb).healthCheckNodePort as number;
    assert.ok(np >= 30000 && np <= 32767);
    assert.ok(hc >= 30000 && hc <= 32767 && hc !== np);
    assert.ok((await nodePorts(env.storage)).includes(String(hc)));

    const noPorts = await env.services.create(NS, svc('lb-none', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [tcp(80), tcp(81, { nodePort: 30081 })] }), { dryRun: false });
    assert.equal(portsOf(noPorts)[0]!.nodePort, undefined);
    assert.equal(portsOf(noPorts)[1]!.nodePort, 30081); // a request is still honoured
    assert.equal(specOf(noPorts).healthCheckNodePort, undefined);

    const before = await nodePorts(env.storage);
    await rejects(
      env.services.create(NS, svc('lb-hc', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: hc, ports: [tcp(80)] }), { dryRun: false }),
      500,
      `Internal error occurred: failed to allocate requested HealthCheck NodePort ${hc}: provided port is already allocated`,
    );
    assert.deepEqual(await nodePorts(env.storage), before);
  });

  it('releases everything when the write fails after allocation (validation, AlreadyExists)', async () => {
    const before = [await ips(env.storage), await nodePorts(env.storage)];
    // Validation rejects the selector after the hook allocated an IP and a node port.
    await rejects(
      env.services.create(NS, svc('bad', { type: 'NodePort', selector: { 'bad key!': 'x' }, ports: [tcp(80)] }), { dryRun: false }),
      422,
      /spec\.selector/,
    );
    assert.deepEqual([await ips(env.storage), await nodePorts(env.storage)], before);
    // The name exists: storage refuses the create after allocation.
    await rejects(env.services.create(NS, svc('web', { type: 'NodePort', ports: [tcp(80)] }), { dryRun: false }), 409, 'services "web" already exists');
    assert.deepEqual([await ips(env.storage), await nodePorts(env.storage)], before);
  });

  it('dryRun fills the fields with currently free values and reserves nothing', async () => {
    const before = [await ips(env.storage), await nodePorts(env.storage)];
    const out = await env.services.create(NS, svc('dry', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [tcp(80), tcp(81)] }), { dryRun: true });
    const spec = specOf(out);
    assert.ok(inRange(spec.clusterIP as string, '10.0.0.0/24'));
    assert.ok(!before[0]!.includes(spec.clusterIP as string));
    const values = [...portsOf(out).map((p) => p.nodePort as number), spec.healthCheckNodePort as number];
    assert.equal(new Set(values).size, 3);
    for (const n of values) assert.ok(n >= 30000 && n <= 32767 && !before[1]!.includes(String(n)));
    assert.deepEqual([await ips(env.storage), await nodePorts(env.storage)], before);
    // A requested node port that is taken is refused under dryRun too (as Kubernetes' dry-run port operation).
    await rejects(env.services.create(NS, svc('dry2', { type: 'NodePort', ports: [tcp(80, { nodePort: 30080 })] }), { dryRun: true }), 422, /provided port is already allocated/);
  });

  it('delete releases the cluster IP, node ports and health check node port', async () => {
    const out = await env.services.create(NS, svc('gone', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [tcp(80)] }), { dryRun: false });
    const ip = specOf(out).clusterIP as string;
    const held = [String(portsOf(out)[0]!.nodePort), String(specOf(out).healthCheckNodePort)];
    assert.ok((await ips(env.storage)).includes(ip));
    await env.services.delete(NS, 'gone', { dryRun: true });
    assert.ok((await ips(env.storage)).includes(ip), 'a dry-run delete releases nothing');
    await env.services.delete(NS, 'gone', { dryRun: false });
    assert.ok(!(await ips(env.storage)).includes(ip));
    const ports = await nodePorts(env.storage);
    for (const p of held) assert.ok(!ports.includes(p), p);
    // The released values can be requested again.
    const again = await env.services.create(NS, svc('again', { clusterIP: ip, type: 'NodePort', ports: [tcp(80, { nodePort: Number(held[0]) })] }), { dryRun: false });
    assert.equal(specOf(again).clusterIP, ip);
  });

  it('never releases a claim another Service holds', async () => {
    const a = await env.services.create(NS, svc('owner-a', { ports: [tcp(80)] }), { dryRun: false });
    // A stale copy naming A's IP, deleted under another uid, must not free A's IP.
    await env.hooks.afterDelete!({ ...a, metadata: { ...a.metadata, uid: 'someone-else' } });
    assert.ok((await ips(env.storage)).includes(specOf(a).clusterIP as string));
  });
});

sqliteGroup('service update', (store) => {
  let env: Env;
  before(() => (env = makeEnv(store())));
  after(() => env.hooks.close());

  const put = (o: ApiObject, dryRun = false) => env.services.update(NS, o.metadata.name!, o, { dryRun }).then((r) => r.object);

  it('a PUT that omits allocated values keeps them (clusterIP, nodePorts by name, healthCheckNodePort)', async () => {
    const first = await env.services.create(NS, svc('keep', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [tcp(80), tcp(81)] }), { dryRun: false });
    const claimsBefore = [await ips(env.storage), await nodePorts(env.storage)];
    const second = await put(svc('keep', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [tcp(81), tcp(80)], selector: { app: 'b' } }));
    assert.equal(specOf(second).clusterIP, specOf(first).clusterIP);
    assert.deepEqual(specOf(second).clusterIPs, specOf(first).clusterIPs);
    assert.equal(portsOf(second)[0]!.nodePort, portsOf(first)[1]!.nodePort);
    assert.equal(portsOf(second)[1]!.nodePort, portsOf(first)[0]!.nodePort);
    assert.equal(specOf(second).healthCheckNodePort, specOf(first).healthCheckNodePort);
    await env.hooks.settled();
    assert.deepEqual([await ips(env.storage), await nodePorts(env.storage)], claimsBefore);
  });

  it('changing the cluster IP is validation\'s refusal, and claims nothing', async () => {
    const cur = await env.services.get(NS, 'keep');
    const before = await ips(env.storage);
    const next = structuredClone(cur);
    specOf(next).clusterIP = '10.0.0.9';
    specOf(next).clusterIPs = ['10.0.0.9'];
    await rejects(put(next), 422, /spec\.clusterIPs\[0\]: Invalid value: \[\]string\{"10\.0\.0\.9"\}: may not change once set/);
    assert.deepEqual(await ips(env.storage), before);
  });

  it('ClusterIP → NodePort allocates node ports; NodePort → ClusterIP releases them after the write', async () => {
    const c = await env.services.create(NS, svc('flip', { ports: [tcp(80)] }), { dryRun: false });
    const asNodePort = structuredClone(c);
    specOf(asNodePort).type = 'NodePort';
    specOf(asNodePort).externalTrafficPolicy = 'Cluster';
    const np = await put(asNodePort);
    const port = portsOf(np)[0]!.nodePort as number;
    assert.ok(port >= 30000 && port <= 32767);
    assert.ok((await nodePorts(env.storage)).includes(String(port)));

    // As kubectl edit does: the whole object back with only the type changed.
    const back = structuredClone(np);
    specOf(back).type = 'ClusterIP';
    delete specOf(back).externalTrafficPolicy;
    const cip = await put(back);
    assert.equal(portsOf(cip)[0]!.nodePort, undefined);
    await env.hooks.settled();
    assert.ok(!(await nodePorts(env.storage)).includes(String(port)));
    assert.equal(specOf(cip).clusterIP, specOf(c).clusterIP);
  });

  it('removing a port releases its node port only once the update is written', async () => {
    const c = await env.services.create(NS, svc('drop', { type: 'NodePort', ports: [tcp(80), tcp(81)] }), { dryRun: false });
    const [p80, p81] = portsOf(c).map((p) => String(p.nodePort));
    // A failing update (invalid selector) that drops port 81 releases nothing.
    const failing = structuredClone(c);
    specOf(failing).ports = [portsOf(c)[0]];
    specOf(failing).selector = { 'bad key!': 'x' };
    await rejects(put(failing), 422, /spec\.selector/);
    await env.hooks.settled();
    assert.ok((await nodePorts(env.storage)).includes(p81!));
    // The same change without the error releases 81 and keeps 80.
    const ok = structuredClone(c);
    specOf(ok).ports = [portsOf(c)[0]];
    await put(ok);
    await env.hooks.settled();
    const held = await nodePorts(env.storage);
    assert.ok(held.includes(p80!));
    assert.ok(!held.includes(p81!));
  });

  it('adding ports allocates; a taken requested node port is refused and undone', async () => {
    const cur = await env.services.get(NS, 'drop');
    const before = await nodePorts(env.storage);
    const next = structuredClone(cur);
    (specOf(next).ports as Port[]).push(tcp(90), tcp(91, { nodePort: 30080 }));
    await env.services.create(NS, svc('holder', { type: 'NodePort', ports: [tcp(80, { nodePort: 30080 })] }), { dryRun: false });
    const held = await nodePorts(env.storage);
    await rejects(put(next), 422, 'Service "drop" is invalid: spec.ports[2].nodePort: Invalid value: 30080: provided port is already allocated');
    assert.deepEqual(await nodePorts(env.storage), held, 'the node port allocated for port 90 was undone');
    const fine = structuredClone(cur);
    (specOf(fine).ports as Port[]).push(tcp(90));
    const out = await put(fine);
    const added = String(portsOf(out)[1]!.nodePort);
    assert.ok(!before.includes(added) && (await nodePorts(env.storage)).includes(added));
  });

  it('dryRun updates fill values and reserve nothing', async () => {
    const cur = await env.services.get(NS, 'drop');
    const before = await nodePorts(env.storage);
    const next = structuredClone(cur);
    (specOf(next).ports as Port[]).push(tcp(99));
    const out = await put(next, true);
    const n = portsOf(out)[2]!.nodePort as number;
    assert.ok(n >= 30000 && n <= 32767 && !before.includes(String(n)));
    await env.hooks.settled();
    assert.deepEqual(await nodePorts(env.storage), before);
  });

  it('ClusterIP → ExternalName releases the cluster IP after the write; back to ClusterIP allocates one', async () => {
    const c = await env.services.create(NS, svc('ext', { ports: [tcp(80)] }), { dryRun: false });
    const ip = specOf(c).clusterIP as string;
    const ext = structuredClone(c);
    specOf(ext).type = 'ExternalName';
    specOf(ext).externalName = 'example.com';
    delete specOf(ext).internalTrafficPolicy;
    const out = await put(ext);
    for (const f of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) assert.equal(specOf(out)[f], undefined, f);
    await env.hooks.settled();
    assert.ok(!(await ips(env.storage)).includes(ip));

    const back = structuredClone(out);
    specOf(back).type = 'ClusterIP';
    delete specOf(back).externalName;
    const again = await put(back);
    const ip2 = specOf(again).clusterIP as string;
    assert.ok(inRange(ip2, '10.0.0.0/24'));
    assert.deepEqual(specOf(again).ipFamilies, ['IPv4']);
    assert.equal(specOf(again).ipFamilyPolicy, 'SingleStack');
    assert.ok((await ips(env.storage)).includes(ip2));
  });

  it('a release follow-up woken by some other write releases nothing the stored Service still uses', async () => {
    // Hooks with a short deadline, driven by hand: beforeUpdate drops port 81,
    // but the write that lands is a different one that keeps it.
    const quick = serviceHooks({ storage: env.storage, clusterIPRange: parseClusterIPRange('10.0.0.0/24'), nodePortRange: parseNodePortRange('30000-32767'), releaseDeadlineMs: 300 });
    const c = await env.services.create(NS, svc('other-write', { type: 'NodePort', ports: [tcp(80), tcp(81)] }), { dryRun: false });
    const p81 = String(portsOf(c)[1]!.nodePort);
    const dropped = structuredClone(c);
    specOf(dropped).ports = [portsOf(c)[0]];
    const undo = await quick.beforeUpdate!(dropped, c, { dryRun: false });
    assert.ok(undo, 'a pending release comes with an undo');
    const relabelled = structuredClone(c);
    relabelled.metadata.labels = { touched: 'yes' };
    await put(relabelled);
    await quick.settled(); // the event check and the deadline check have both run
    assert.ok((await nodePorts(env.storage)).includes(p81), 'port 81 is still used by the stored Service');
    await undo();
    assert.ok((await nodePorts(env.storage)).includes(p81));
    await quick.close();
  });

  it('a port dropped and re-added by quick successive updates stays claimed', async () => {
    // A port no earlier test in this store holds (they allocate at random).
    const held = new Set(await nodePorts(env.storage));
    const port = [...Array(768).keys()].map((i) => 32000 + i).find((p) => !held.has(String(p)))!;
    const c = await env.services.create(NS, svc('readd', { type: 'NodePort', ports: [tcp(80), tcp(81, { nodePort: port })] }), { dryRun: false });
    const dropped = structuredClone(c);
    specOf(dropped).ports = [portsOf(c)[0]];
    const mid = await put(dropped);
    const readded = structuredClone(mid);
    (specOf(readded).ports as Port[]).push(tcp(81, { nodePort: port }));
    await put(readded);
    await env.hooks.settled();
    assert.ok((await nodePorts(env.storage)).includes(String(port)));
    const holder = JSON.parse(Buffer.from((await env.storage.get(NODE_PORT_PREFIX + String(port)))!.value).toString());
    assert.equal(holder.uid, c.metadata.uid);
  });
});

sqliteGroup('range exhaustion', (store) => {
  let env: Env;
  before(() => (env = makeEnv(store(), '10.1.0.0/29', '30000-30001')));
  after(() => env.hooks.close());

  it('a /29 hands out six addresses, then answers Kubernetes\' range-full error', async () => {
    const got: string[] = [];
    for (let i = 0; i < 6; i++) got.push(specOf(await env.services.create(NS, svc(`s${i}`, { ports: [tcp(80)] }), { dryRun: false })).clusterIP as string);
    assert.deepEqual([...got].sort(), ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5', '10.1.0.6']);
    await rejects(env.services.create(NS, svc('s6', { ports: [tcp(80)] }), { dryRun: false }), 500, 'Internal error occurred: failed to allocate a serviceIP: range is full');
    await rejects(env.services.create(NS, svc('s6', { ports: [tcp(80)] }), { dryRun: true }), 500, 'Internal error occurred: failed to allocate a serviceIP: range is full');
    // Headless and ExternalName Services need no address.
    await env.services.create(NS, svc('h', { clusterIP: 'None', selector: { a: 'b' }, ports: [tcp(80)] }), { dryRun: false });
    // Freeing one makes room again, for exactly that address.
    await env.services.delete(NS, 's3', { dryRun: false });
    const again = await env.services.create(NS, svc('s7', { ports: [tcp(80)] }), { dryRun: false });
    assert.equal(specOf(again).clusterIP, got[3]);
  });

  it('node ports run out the same way, and the failed create keeps nothing', async () => {
    await env.services.delete(NS, 's0', { dryRun: false });
    await env.services.delete(NS, 's1', { dryRun: false });
    await env.services.create(NS, svc('n0', { type: 'NodePort', ports: [tcp(80), tcp(81)] }), { dryRun: false });
    assert.deepEqual(await nodePorts(env.storage), ['30000', '30001']);
    const before = await ips(env.storage);
    await rejects(env.services.create(NS, svc('n1', { type: 'NodePort', ports: [tcp(80)] }), { dryRun: false }), 500, 'Internal error occurred: failed to allocate a nodePort: range is full');
    assert.deepEqual(await ips(env.storage), before, 'the cluster IP claimed for n1 was released');
  });
});

/** 50 concurrent creates through two API servers' stores sharing one backend: every value distinct. */
async function concurrentCreates(a: Env, b: Env): Promise<void> {
  const n = 50;
  const results = await Promise.all(Array.from({ length: n }, (_, i) => (i % 2 ? a : b).services.create(NS, svc(`c${i}`, { type: 'NodePort', ports: [tcp(80)] }), { dryRun: false })));
  const ipsGot = results.map((o) => specOf(o).clusterIP as string);
  const portsGot = results.map((o) => portsOf(o)[0]!.nodePort as number);
  assert.equal(new Set(ipsGot).size, n, 'cluster IPs are unique');
  assert.equal(new Set(portsGot).size, n, 'node ports are unique');
  for (const ip of ipsGot) assert.ok(inRange(ip, '10.0.0.0/24'), ip);
  assert.deepEqual(await ips(a.storage), [...ipsGot].sort());
  assert.deepEqual(await nodePorts(a.storage), portsGot.map(String).sort());
  // Concurrent deletes release everything.
  await Promise.all(results.map((o, i) => (i % 2 ? b : a).services.delete(NS, o.metadata.name!, { dryRun: false })));
  assert.deepEqual(await ips(a.storage), []);
  assert.deepEqual(await nodePorts(a.storage), []);
}

sqliteGroup('concurrency (sqlite)', (store) => {
  it('50 concurrent creates get distinct cluster IPs and node ports', async () => {
    const a = makeEnv(store());
    const b = makeEnv(store());
    try {
      await concurrentCreates(a, b);
    } finally {
      await a.hooks.close();
      await b.hooks.close();
    }
  });

  it('a tiny range under concurrent creates: each address once, the rest refused as full', async () => {
    const env = makeEnv(store(), '10.2.0.0/29');
    try {
      const settled = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => env.services.create(NS, svc(`t${i}`, { ports: [tcp(80)] }), { dryRun: false })));
      const ok = settled.filter((r): r is PromiseFulfilledResult<ApiObject> => r.status === 'fulfilled').map((r) => specOf(r.value).clusterIP as string);
      assert.equal(ok.length, 6);
      assert.equal(new Set(ok).size, 6);
      for (const r of settled) if (r.status === 'rejected') assert.match((r.reason as Error).message, /range is full/);
    } finally {
      await env.hooks.close();
    }
  });
});

const etcd = findTool('etcd', "Debian's etcd-server (apt-get install etcd-server)");

describe('concurrency (etcd, two API servers)', { skip: etcd.skip }, () => {
  let server: EtcdServer;
  before(async () => (server = await startEtcd()));
  after(async () => server?.stop());

  it('50 concurrent creates through two etcd clients get distinct cluster IPs and node ports', async () => {
    const s1 = await EtcdStore.open({ servers: [server.url] });
    const s2 = await EtcdStore.open({ servers: [server.url] });
    const a = makeEnv(s1);
    const b = makeEnv(s2);
    try {
      await concurrentCreates(a, b);
    } finally {
      await a.hooks.close();
      await b.hooks.close();
      await s1.close();
      await s2.close();
    }
  });
});
