import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Health, PostStartHook, ShutdownCheck, ping, log, type HealthCheck } from './health.js';

function setup(opts: { grace?: number; now?: () => number } = {}) {
  let etcdOk = true;
  const etcd: HealthCheck = { name: 'etcd', check: () => { if (!etcdOk) throw new Error('storage down'); } };
  const hook = new PostStartHook('start-system-namespaces');
  const shutdown = new ShutdownCheck();
  const health = new Health({
    checks: { livez: [ping, log, etcd, hook], readyz: [ping, log, etcd, hook, shutdown], healthz: [ping, log, etcd, hook] },
    livezGracePeriodMs: opts.grace ?? 0,
    startedAt: 0,
    now: opts.now ?? (() => 1_000_000),
  });
  return { health, hook, shutdown, setEtcd: (v: boolean) => (etcdOk = v) };
}

const q = (s = '') => new URLSearchParams(s);

describe('health endpoints', () => {
  it('answers ok, verbose lists, excludes and single checks', async () => {
    const { health, hook } = setup();
    hook.done();
    assert.deepEqual(await health.handle('/livez', q()), { status: 200, body: 'ok' });
    assert.deepEqual(await health.handle('/healthz', q('verbose')), {
      status: 200,
      body: '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/start-system-namespaces ok\nhealthz check passed\n',
    });
    assert.equal((await health.handle('/readyz', q('verbose=')))!.body.split('\n').at(-2), 'readyz check passed');
    assert.match((await health.handle('/readyz', q('verbose&exclude=etcd')))!.body, /\[\+\]etcd excluded: ok\n/);
    assert.deepEqual(await health.handle('/readyz/etcd', q()), { status: 200, body: 'ok' });
    assert.deepEqual(await health.handle('/readyz/poststarthook/start-system-namespaces', q()), { status: 200, body: 'ok' });
    assert.deepEqual(await health.handle('/livez/nonexistent', q()), { status: 404, body: '404 page not found\n' });
    assert.equal(await health.handle('/api', q()), null);
  });

  it('fails with 500 and withholds the reason', async () => {
    const { health, hook, setEtcd } = setup();
    hook.done();
    setEtcd(false);
    const r = await health.handle('/readyz', q());
    assert.equal(r!.status, 500);
    assert.match(r!.body, /\[-\]etcd failed: reason withheld\n/);
    assert.match(r!.body, /readyz check failed\n$/);
    assert.equal((await health.handle('/readyz/etcd', q()))!.status, 500);
    assert.equal((await health.handle('/readyz', q('exclude=etcd')))!.status, 200);
  });

  it('readyz fails at once when shutdown begins; livez stays ok', async () => {
    const { health, hook, shutdown } = setup();
    hook.done();
    shutdown.begin();
    assert.equal((await health.handle('/readyz', q()))!.status, 500);
    assert.equal((await health.handle('/readyz/shutdown', q()))!.status, 500);
    assert.equal((await health.handle('/livez', q()))!.status, 200);
  });

  it('livez forgives unfinished post-start hooks during the grace period only', async () => {
    let now = 1000;
    const { health } = setup({ grace: 5000, now: () => now });
    assert.equal((await health.handle('/livez', q()))!.status, 200);
    assert.equal((await health.handle('/readyz', q()))!.status, 500);
    now = 10_000;
    assert.equal((await health.handle('/livez', q()))!.status, 500);
  });
});
