import assert from 'node:assert/strict';
import { chown, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tokenVolumeSource } from '../../admission/plugins/serviceaccount.js';
import { ROOT_CA_CONFIGMAP } from '../../controllers/rootca.js';
import type { ApiObject } from '../../registry/object.js';
import { PodVolumesError } from './errors.js';
import { FakeAgentApi } from './fakeapi.js';
import { VolumeManager } from './manager.js';
import { isMountPoint, mountPoints, unmount } from './tmpfs.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const ROOT = process.getuid?.() === 0;
const dirs: string[] = [];
after(async () => {
  // A failed test may leave a tmpfs behind: unmount before removing.
  const mounted = await mountPoints();
  for (const d of dirs) {
    for (const m of mounted.filter((x) => x.startsWith(`${d}/`)).reverse()) await unmount(m).catch(() => undefined);
    await rm(d, { recursive: true, force: true });
  }
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'svc-vm-'));
  dirs.push(d);
  return d;
}

function pod(volumes: unknown[], extra: Record<string, unknown> = {}, uid = 'uid-1'): ApiObject {
  return {
    metadata: { name: 'web', namespace: 'shop', uid, labels: { app: 'web' } },
    spec: { serviceAccountName: 'builder', containers: [{ name: 'main', image: 'busybox', resources: { limits: { memory: '256Mi' } } }], volumes, ...extra },
  };
}

async function setup(opts: { api?: FakeAgentApi | null; tmpfs?: boolean } = {}) {
  const rootDir = await tempDir();
  let now = T0;
  const api = opts.api === null ? undefined : (opts.api ?? new FakeAgentApi());
  if (api) api.now = () => now;
  const vm = new VolumeManager({ rootDir, ...(api ? { api } : {}), now: () => now, random: () => 0, tmpfs: opts.tmpfs ?? false, nodeAllocatable: () => ({ cpu: '2', memory: '4Gi' }) });
  return { rootDir, api: api!, vm, advance: (s: number) => (now += s * 1000), vol: (plugin: string, name: string, uid = 'uid-1') => join(rootDir, 'pods', uid, 'volumes', plugin, name) };
}

/** The files a container would see under a volume (names starting with '..' hidden), through the links. */
async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const n of (await readdir(dir)).sort()) {
    if (n.startsWith('..')) continue;
    const p = join(dir, n);
    if ((await stat(p)).isDirectory()) for (const [k, v] of Object.entries(await files(p))) out[`${n}/${k}`] = v;
    else out[n] = await readFile(p, 'utf8');
  }
  return out;
}

/** The FailedMount event texts of a failed mountPod. */
async function events(p: Promise<unknown>): Promise<readonly string[]> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof PodVolumesError, String(err));
    assert.equal(err.reason, 'FailedMount');
    return err.events;
  }
  assert.fail('mountPod succeeded');
}

const cm = (name: string, data: Record<string, string>, binaryData?: Record<string, string>): ApiObject => ({ metadata: { name, namespace: 'shop', uid: `cm-${name}` }, data, ...(binaryData ? { binaryData } : {}) });
const secret = (name: string, data: Record<string, string>): ApiObject => ({
  metadata: { name, namespace: 'shop', uid: `s-${name}` },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

describe('VolumeManager: emptyDir and hostPath', () => {
  it('makes an emptyDir folder (0777) where kube keeps it', async () => {
    const { vm, vol } = await setup();
    const mounts = await vm.mountPod(pod([{ name: 'cache', emptyDir: {} }]));
    assert.deepEqual(mounts.get('cache'), { hostPath: vol('kubernetes.io~empty-dir', 'cache') });
    assert.equal((await stat(vol('kubernetes.io~empty-dir', 'cache'))).mode & 0o777, 0o777);
  });

  it('mounts a Memory emptyDir as a tmpfs of the smallest size, and unmounts it', { skip: !ROOT && 'mounting tmpfs needs root' }, async () => {
    const { vm, vol } = await setup();
    const p = pod([
      { name: 'small', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
      { name: 'big', emptyDir: { medium: 'Memory', sizeLimit: '10Gi' } },
    ]);
    await vm.mountPod(p);
    await vm.mountPod(p); // idempotent: not mounted twice
    const info = await readFile('/proc/self/mountinfo', 'utf8');
    const line = (name: string) => info.split('\n').filter((l) => l.split(' ')[4] === vol('kubernetes.io~empty-dir', name));
    assert.equal(line('small').length, 1);
    assert.match(line('small')[0]!, / tmpfs tmpfs .*size=65536k/);
    assert.match(line('big')[0]!, /size=262144k/, 'the pod memory limit (256Mi) caps a larger sizeLimit');
    await writeFile(join(vol('kubernetes.io~empty-dir', 'small'), 'f'), 'x');
    await vm.unmountPod('uid-1');
    assert.equal(await isMountPoint(vol('kubernetes.io~empty-dir', 'small')), false);
    await assert.rejects(stat(vol('kubernetes.io~empty-dir', 'small')), { code: 'ENOENT' });
  });

  it('refuses an unknown medium', async () => {
    const { vm } = await setup();
    assert.deepEqual(await events(vm.mountPod(pod([{ name: 'x', emptyDir: { medium: 'Tape' } }]))), ['MountVolume.SetUp failed for volume "x" : unknown storage medium "Tape"']);
  });

  it('gives a hostPath as it is, after its type check', async () => {
    const { vm } = await setup();
    const host = await tempDir();
    const mounts = await vm.mountPod(pod([{ name: 'h', hostPath: { path: host, type: 'Directory' } }, { name: 'made', hostPath: { path: join(host, 'new'), type: 'DirectoryOrCreate' } }]));
    assert.deepEqual(mounts.get('h'), { hostPath: host });
    assert.ok((await stat(join(host, 'new'))).isDirectory());
    assert.deepEqual(await events(vm.mountPod(pod([{ name: 'h', hostPath: { path: join(host, 'nope'), type: 'File' } }]))), [
      `MountVolume.SetUp failed for volume "h" : hostPath type check failed: ${host}/nope is not a file`,
    ]);
  });
});

describe('VolumeManager: configMap and secret', () => {
  it('writes a ConfigMap atomically, read-only, and follows its changes on resync', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm('settings', { 'a.conf': 'one' }, { 'blob.bin': Buffer.from([0, 1, 2]).toString('base64') }));
    const p = pod([{ name: 'config', configMap: { name: 'settings', defaultMode: 0o440 } }]);
    const mounts = await vm.mountPod(p);
    const dir = vol('kubernetes.io~configmap', 'config');
    assert.deepEqual(mounts.get('config'), { hostPath: dir, readOnly: true });
    assert.equal(await readFile(join(dir, 'a.conf'), 'utf8'), 'one');
    assert.deepEqual([...(await readFile(join(dir, 'blob.bin')))], [0, 1, 2]);
    assert.equal((await stat(join(dir, 'a.conf'))).mode & 0o777, 0o440);
    const v1 = await readlink(join(dir, '..data'));

    await vm.resync(p);
    assert.equal(await readlink(join(dir, '..data')), v1, 'unchanged: same version');

    api.put('configmaps', cm('settings', { 'b.conf': 'two' }));
    await vm.resync(p);
    assert.notEqual(await readlink(join(dir, '..data')), v1);
    assert.deepEqual(await files(dir), { 'b.conf': 'two' });
    await assert.rejects(lstat(join(dir, 'a.conf')), { code: 'ENOENT' });
    await assert.rejects(lstat(join(dir, v1)), { code: 'ENOENT' }, 'the old version is removed');
  });

  it('makes the folders of mount points nested in the volume', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm('settings', { a: 'A' }));
    const p = pod([{ name: 'config', configMap: { name: 'settings' } }, { name: 'logs', emptyDir: {} }, { name: 'deep', emptyDir: {} }]);
    (p.spec as { containers: unknown[] }).containers = [{
      name: 'main', image: 'busybox',
      volumeMounts: [{ name: 'config', mountPath: '/etc/app' }, { name: 'logs', mountPath: '/etc/app/logs/' }, { name: 'deep', mountPath: '/etc/app/logs/deep' }, { name: 'deep', mountPath: '/etc/apple' }],
    }];
    await vm.mountPod(p);
    const dir = vol('kubernetes.io~configmap', 'config');
    assert.ok((await stat(join(dir, 'logs'))).isDirectory());
    assert.deepEqual((await readdir(dir)).filter((n) => !n.startsWith('..')).sort(), ['a', 'logs']);
  });

  it('projects only the listed items at their paths and modes', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm('settings', { a: 'A', b: 'B' }));
    await vm.mountPod(pod([{ name: 'config', configMap: { name: 'settings', items: [{ key: 'a', path: 'conf/first', mode: 0o600 }] } }]));
    const dir = vol('kubernetes.io~configmap', 'config');
    assert.deepEqual(await files(dir), { 'conf/first': 'A' });
    assert.equal((await stat(join(dir, 'conf/first'))).mode & 0o777, 0o600);
  });

  it('decodes Secret data onto the volume (tmpfs when asked)', { skip: !ROOT && 'mounting tmpfs needs root' }, async () => {
    const { api, vm, vol } = await setup({ tmpfs: true });
    api.put('secrets', secret('creds', { user: 'admin', pass: 's3cret' }));
    const mounts = await vm.mountPod(pod([{ name: 'creds', secret: { secretName: 'creds', defaultMode: 0o400 } }]));
    const dir = vol('kubernetes.io~secret', 'creds');
    assert.deepEqual(mounts.get('creds'), { hostPath: dir, readOnly: true });
    assert.deepEqual(await files(dir), { pass: 's3cret', user: 'admin' });
    assert.equal((await stat(join(dir, 'user'))).mode & 0o777, 0o400);
    assert.ok(await isMountPoint(dir), 'secrets stay off the disk');
    await vm.unmountPod('uid-1');
    assert.equal(await isMountPoint(dir), false);
  });

  const failing: { name: string; volume: Record<string, unknown>; objects?: [string, ApiObject][]; want: string }[] = [
    { name: 'a missing ConfigMap', volume: { configMap: { name: 'settings' } }, want: 'configmap "settings" not found' },
    { name: 'a missing Secret', volume: { secret: { secretName: 'creds' } }, want: 'secret "creds" not found' },
    { name: 'a missing ConfigMap key', volume: { configMap: { name: 'settings', items: [{ key: 'nope', path: 'x' }] } }, objects: [['configmaps', cm('settings', { a: 'A' })]], want: 'configmap references non-existent config key: nope' },
    { name: 'a missing Secret key', volume: { secret: { secretName: 'creds', items: [{ key: 'nope', path: 'x' }] } }, objects: [['secrets', secret('creds', { a: 'A' })]], want: 'references non-existent secret key: nope' },
  ];
  for (const f of failing) {
    it(`reports ${f.name} as kube does`, async () => {
      const { api, vm, vol } = await setup();
      for (const [r, o] of f.objects ?? []) api.put(r, o);
      assert.deepEqual(await events(vm.mountPod(pod([{ name: 'v', ...f.volume }]))), [`MountVolume.SetUp failed for volume "v" : ${f.want}`]);
      const plugin = f.volume.configMap ? 'kubernetes.io~configmap' : 'kubernetes.io~secret';
      await assert.rejects(stat(join(vol(plugin, 'v'), '..data')), { code: 'ENOENT' }, 'nothing written');
    });
  }

  it('accepts optional sources and keys that are missing', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm('settings', { a: 'A' }));
    await vm.mountPod(pod([
      { name: 'gone', configMap: { name: 'absent', optional: true } },
      { name: 'some', configMap: { name: 'settings', optional: true, items: [{ key: 'a', path: 'a' }, { key: 'nope', path: 'n' }] } },
      { name: 's', secret: { secretName: 'absent', optional: true } },
    ]));
    assert.deepEqual(await files(vol('kubernetes.io~configmap', 'gone')), {});
    assert.deepEqual(await files(vol('kubernetes.io~configmap', 'some')), { a: 'A' });
    assert.deepEqual(await files(vol('kubernetes.io~secret', 's')), {});
  });

  it('keeps the last contents when the source goes away on resync, and says so', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm('settings', { a: 'A' }));
    const p = pod([{ name: 'config', configMap: { name: 'settings' } }]);
    await vm.mountPod(p);
    api.remove('configmaps', 'shop', 'settings');
    assert.deepEqual(await events(vm.resync(p)), ['MountVolume.SetUp failed for volume "config" : configmap "settings" not found']);
    assert.deepEqual(await files(vol('kubernetes.io~configmap', 'config')), { a: 'A' });
  });
});

describe('VolumeManager: downwardAPI and projected', () => {
  it('writes pod fields and follows label changes on resync', async () => {
    const { vm, vol } = await setup({ api: null });
    const items = [
      { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
      { path: 'mem', resourceFieldRef: { containerName: 'main', resource: 'limits.memory', divisor: '1Mi' } },
      { path: 'cpu', resourceFieldRef: { containerName: 'main', resource: 'limits.cpu', divisor: '1m' } },
    ];
    const p = pod([{ name: 'info', downwardAPI: { items } }]);
    const mounts = await vm.mountPod(p);
    const dir = vol('kubernetes.io~downward-api', 'info');
    assert.deepEqual(mounts.get('info'), { hostPath: dir, readOnly: true });
    assert.deepEqual(await files(dir), { cpu: '2000', labels: 'app="web"', mem: '256' });
    p.metadata.labels = { app: 'web', track: 'canary' };
    await vm.resync(p);
    assert.equal(await readFile(join(dir, 'labels'), 'utf8'), 'app="web"\ntrack="canary"');
  });

  it("sets up the service-account volume the admission plugin injects: token, the root CA, the namespace", async () => {
    const { api, vm, vol, advance } = await setup();
    api.put('configmaps', cm(ROOT_CA_CONFIGMAP, { 'ca.crt': 'PEM' }));
    const p = pod([{ name: 'kube-api-access-abcde', projected: tokenVolumeSource() }]);
    const mounts = await vm.mountPod(p);
    const dir = vol('kubernetes.io~projected', 'kube-api-access-abcde');
    assert.deepEqual(mounts.get('kube-api-access-abcde'), { hostPath: dir, readOnly: true });
    assert.deepEqual(await files(dir), { 'ca.crt': 'PEM', namespace: 'shop', token: 'token-1' });
    assert.equal((await stat(join(dir, 'token'))).mode & 0o777, 0o644);
    assert.deepEqual(api.tokenCalls[0]!.body.spec, { audiences: [], expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'uid-1' } });
    assert.equal(api.tokenCalls[0]!.serviceAccount, 'builder');

    advance(60);
    await vm.resync(p);
    assert.equal(await readFile(join(dir, 'token'), 'utf8'), 'token-1', 'young token kept');
    advance(0.8 * 3607);
    await vm.resync(p);
    assert.equal(await readFile(join(dir, 'token'), 'utf8'), 'token-2', 'rotated past 80 % of its life');
    assert.equal(api.tokenCalls.length, 2);
  });

  it('gathers the errors of every projected source', async () => {
    const { api, vm } = await setup();
    api.tokenError = 'serviceaccounts "builder" not found';
    const projected = { sources: [{ configMap: { name: 'absent' } }, { secret: { name: 'gone' } }, { serviceAccountToken: { path: 'token', audience: 'vault' } }] };
    assert.deepEqual(await events(vm.mountPod(pod([{ name: 'all', projected }]))), [
      'MountVolume.SetUp failed for volume "all" : [configmap "absent" not found, secret "gone" not found, failed to fetch token: serviceaccounts "builder" not found]',
    ]);
  });

  it('gives files the fsGroup: group, group bits, setgid folders; the token 0640', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm(ROOT_CA_CONFIGMAP, { 'ca.crt': 'PEM' }));
    const p = pod([{ name: 'scratch', emptyDir: {} }, { name: 'sa', projected: tokenVolumeSource() }], { securityContext: { fsGroup: 2345 } });
    await vm.mountPod(p);
    const scratch = await stat(vol('kubernetes.io~empty-dir', 'scratch'));
    assert.equal(scratch.gid, 2345);
    assert.equal(scratch.mode & 0o2000, 0o2000);
    const dir = vol('kubernetes.io~projected', 'sa');
    const token = await stat(join(dir, 'token'));
    assert.equal(token.gid, 2345);
    assert.equal(token.mode & 0o777, 0o640);
    assert.equal((await stat(join(dir, 'ca.crt'))).mode & 0o777, 0o644);
    const version = await stat(join(dir, await readlink(join(dir, '..data'))));
    assert.equal(version.gid, 2345);
    assert.equal(version.mode & 0o2000, 0o2000);
  });

  it('with fsGroupChangePolicy OnRootMismatch, leaves a volume whose root already fits alone', async () => {
    const { vm, vol } = await setup();
    const ctx = { securityContext: { fsGroup: 2345, fsGroupChangePolicy: 'OnRootMismatch' } };
    const p = pod([{ name: 'scratch', emptyDir: {} }], ctx);
    await vm.mountPod(p);
    const dir = vol('kubernetes.io~empty-dir', 'scratch');
    await writeFile(join(dir, 'later'), 'x', { mode: 0o600 });
    await chown(join(dir, 'later'), 0, 0); // (the setgid folder gave it the group already)
    await vm.mountPod(p);
    assert.equal((await stat(join(dir, 'later'))).gid, 0, 'root matched: no walk');
    await vm.mountPod(pod([{ name: 'scratch', emptyDir: {} }], { securityContext: { fsGroup: 2345 } }));
    assert.equal((await stat(join(dir, 'later'))).gid, 2345, 'Always: walked');
    assert.equal((await stat(join(dir, 'later'))).mode & 0o777, 0o660);
  });

  it('writes the token 0600, owned by the one runAsUser of the pod', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm(ROOT_CA_CONFIGMAP, { 'ca.crt': 'PEM' }));
    await vm.mountPod(pod([{ name: 'sa', projected: tokenVolumeSource() }], { securityContext: { runAsUser: 1234 } }));
    const token = await stat(join(vol('kubernetes.io~projected', 'sa'), 'token'));
    assert.equal(token.mode & 0o777, 0o600);
    assert.equal(token.uid, 1234);
  });
});

describe('VolumeManager: standalone (no API)', () => {
  const rows: [string, Record<string, unknown>][] = [
    ['configMap', { configMap: { name: 'c' } }],
    ['secret', { secret: { secretName: 's' } }],
    ['projected', { projected: tokenVolumeSource() }],
    ['persistentVolumeClaim', { persistentVolumeClaim: { claimName: 'c' } }],
  ];
  for (const [kind, source] of rows) {
    it(`refuses ${kind}`, async () => {
      const { vm } = await setup({ api: null });
      assert.deepEqual(await events(vm.mountPod(pod([{ name: 'v', ...source }, { name: 'ok', emptyDir: {} }]))), [
        `MountVolume.SetUp failed for volume "v" : cannot setup ${kind} volume v because kube client is not configured`,
      ]);
    });
  }
});

describe('VolumeManager: persistent volume claims', () => {
  const claim = (name: string, extra: Record<string, unknown> = {}): ApiObject => ({
    metadata: { name, namespace: 'shop', uid: `pvc-uid-${name}` },
    spec: { volumeName: `pv-${name}` },
    status: { phase: 'Bound' },
    ...extra,
  });
  const pv = (name: string, source: Record<string, unknown>, claimUid: string | null = `pvc-uid-${name}`, annotations: Record<string, string> = {}): ApiObject => ({
    metadata: { name: `pv-${name}`, annotations },
    spec: { ...source, ...(claimUid ? { claimRef: { namespace: 'shop', name, uid: claimUid } } : {}) },
  });

  it('makes the folder of a local-path volume (0777) and gives its path; teardown leaves it', async () => {
    const { api, vm } = await setup();
    const base = await tempDir();
    const path = join(base, 'pvc-1_shop_data');
    api.put('persistentvolumeclaims', claim('data'));
    api.put('persistentvolumes', pv('data', { hostPath: { path, type: 'DirectoryOrCreate' } }, 'pvc-uid-data', { 'pv.kubernetes.io/provisioned-by': 'svc.io/local-path' }));
    const mounts = await vm.mountPod(pod([{ name: 'd', persistentVolumeClaim: { claimName: 'data', readOnly: true } }]));
    assert.deepEqual(mounts.get('d'), { hostPath: path, readOnly: true });
    assert.equal((await stat(path)).mode & 0o777, 0o777);
    await writeFile(join(path, 'keep'), 'k');
    await vm.unmountPod('uid-1');
    assert.equal(await readFile(join(path, 'keep'), 'utf8'), 'k');
  });

  it('gives a local volume path that exists', async () => {
    const { api, vm } = await setup();
    const path = await tempDir();
    api.put('persistentvolumeclaims', claim('data'));
    api.put('persistentvolumes', pv('data', { local: { path } }));
    assert.deepEqual((await vm.mountPod(pod([{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }]))).get('d'), { hostPath: path, readOnly: false });
    api.put('persistentvolumes', pv('data', { local: { path: join(path, 'nope') } }));
    assert.deepEqual(await events(vm.mountPod(pod([{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }]))), [
      `MountVolume.SetUp failed for volume "d" : stat ${path}/nope: no such file or directory`,
    ]);
  });

  const processing: { name: string; objects: [string, ApiObject][]; want: string; volume?: Record<string, unknown> }[] = [
    { name: 'a missing claim', objects: [], want: 'error processing PVC shop/data: failed to fetch PVC from API server: persistentvolumeclaims "data" not found' },
    { name: 'an unbound claim', objects: [['persistentvolumeclaims', claim('data', { status: { phase: 'Pending' } })]], want: 'error processing PVC shop/data: PVC is not bound' },
    { name: 'a claim being deleted', objects: [['persistentvolumeclaims', { ...claim('data'), metadata: { ...claim('data').metadata, deletionTimestamp: '2026-11-27T09:00:00Z' } }]], want: 'error processing PVC shop/data: PVC is being deleted' },
    { name: 'a missing volume', objects: [['persistentvolumeclaims', claim('data')]], want: 'error processing PVC shop/data: failed to fetch PV pv-data from API server: persistentvolumes "pv-data" not found' },
    {
      name: 'a volume bound elsewhere',
      objects: [['persistentvolumeclaims', claim('data')], ['persistentvolumes', pv('data', { hostPath: { path: '/x' } }, 'other')]],
      want: 'error processing PVC shop/data: found PV object pv-data but its pv.Spec.ClaimRef.UID (other) does not point to claim.UID (pvc-uid-data)',
    },
    {
      name: 'a volume not yet bound',
      objects: [['persistentvolumeclaims', claim('data')], ['persistentvolumes', pv('data', { hostPath: { path: '/x' } }, null)]],
      want: 'error processing PVC shop/data: found PV object pv-data but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim',
    },
    {
      name: 'an NFS volume',
      objects: [['persistentvolumeclaims', claim('data')], ['persistentvolumes', pv('data', { nfs: { server: 'n', path: '/' } })]],
      want: 'error processing PVC shop/data: failed to get Plugin from volumeSpec for volume "pv-data" err=no volume plugin matched',
    },
    {
      name: "an ephemeral volume's claim the pod does not own",
      volume: { ephemeral: { volumeClaimTemplate: { spec: {} } } },
      objects: [['persistentvolumeclaims', claim('web-d')]],
      want: 'error processing PVC shop/web-d: PVC shop/web-d was not created for pod shop/web (pod is not owner)',
    },
  ];
  for (const r of processing) {
    it(`reports ${r.name} as kube's populator does`, async () => {
      const { api, vm } = await setup();
      for (const [res, o] of r.objects) api.put(res, o);
      const vols = [{ name: 'd', ...(r.volume ?? { persistentVolumeClaim: { claimName: 'data' } }) }, { name: 'tmp', emptyDir: {} }];
      assert.deepEqual(await events(vm.mountPod(pod(vols))), [
        `Unable to attach or mount volumes: unmounted volumes=[d], unattached volumes=[], failed to process volumes=[d]: ${r.want}`,
      ]);
    });
  }

  it('uses the claim of an ephemeral volume the pod owns', async () => {
    const { api, vm } = await setup();
    const path = await tempDir();
    api.put('persistentvolumeclaims', claim('web-d', { metadata: { name: 'web-d', namespace: 'shop', uid: 'pvc-uid-web-d', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'uid-1', controller: true }] } }));
    api.put('persistentvolumes', pv('web-d', { hostPath: { path } }));
    const mounts = await vm.mountPod(pod([{ name: 'd', ephemeral: { volumeClaimTemplate: { spec: {} } } }]));
    assert.deepEqual(mounts.get('d'), { hostPath: path, readOnly: false });
  });

  it('reports a volume type it has no plugin for', async () => {
    const { vm } = await setup();
    assert.deepEqual(await events(vm.mountPod(pod([{ name: 'n', nfs: { server: 's', path: '/' } }]))), [
      'Unable to attach or mount volumes: unmounted volumes=[n], unattached volumes=[], failed to process volumes=[n]: failed to get Plugin from volumeSpec for volume "n" err=no volume plugin matched (svc agent has no nfs plugin)',
    ]);
  });
});

describe('VolumeManager: one operation at a time per pod', () => {
  it('serializes concurrent resyncs of a pod (no torn versions)', async () => {
    const { api, vm, vol } = await setup();
    api.put('configmaps', cm('settings', { a: 'A' }));
    const p = pod([{ name: 'config', configMap: { name: 'settings' } }]);
    await vm.mountPod(p);
    api.put('configmaps', cm('settings', { a: 'B' }));
    await Promise.all([vm.resync(p), vm.resync(p), vm.resync(p), vm.mountPod(p)]);
    const dir = vol('kubernetes.io~configmap', 'config');
    assert.deepEqual(await files(dir), { a: 'B' });
    assert.equal((await readdir(dir)).filter((n) => n.startsWith('..') && n !== '..data').length, 1);
  });
});

describe('VolumeManager: teardown', () => {
  it("removes the pod's volume folders and nothing of hostPath", async () => {
    const { api, vm, rootDir } = await setup();
    const host = await tempDir();
    await writeFile(join(host, 'data'), 'mine');
    api.put('configmaps', cm('settings', { a: 'A' }));
    const other = pod([{ name: 'x', emptyDir: {} }], {}, 'uid-2');
    await vm.mountPod(other);
    await vm.mountPod(pod([{ name: 'h', hostPath: { path: host } }, { name: 'c', configMap: { name: 'settings' } }, { name: 'e', emptyDir: {} }]));
    await mkdir(join(rootDir, 'pods', 'uid-1', 'containers'), { recursive: true });
    await vm.unmountPod('uid-1');
    await assert.rejects(stat(join(rootDir, 'pods', 'uid-1', 'volumes')), { code: 'ENOENT' });
    assert.ok((await stat(join(rootDir, 'pods', 'uid-1', 'containers'))).isDirectory(), 'other pod folders are not the volume manager\'s');
    assert.equal(await readFile(join(host, 'data'), 'utf8'), 'mine');
    assert.ok((await stat(join(rootDir, 'pods', 'uid-2', 'volumes', 'kubernetes.io~empty-dir', 'x'))).isDirectory());
    assert.deepEqual(await vm.podsOnDisk(), ['uid-2']);
    await vm.unmountPod('uid-1'); // again: nothing left, no error
    assert.deepEqual((await mountPoints()).filter((m) => m.startsWith(rootDir)), []);
  });
});
