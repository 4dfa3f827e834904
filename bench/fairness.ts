// API Priority and Fairness under a flood (issue 26): one `svc server` (SQLite,
// APF on with the default 400 + 200 seats) holding 3,000 ConfigMaps of ~1 KiB.
// A "victim" user gets one ConfigMap, one request at a time, first alone, then
// while a "flooder" user lists all 3,000 (≈ 3 MiB each) from 400 connections
// without pause (more than its flow's queues hold when all 400 wait at once: a
// hand of 6 queues of 50 in global-default; how many wait depends on how fast
// the flooder's client reads). Both are ordinary users (bound to cluster-admin),
// so both land in global-default, in different flows (ByUser). Reported: the
// victim's p50/p99 alone, under the steady flood (target: p99 ≤ 3× alone) and
// while the flood's connections open, the flooder's answers (200s and 429s)
// and the server's peak RSS. The flooder runs in a worker thread
// (bench/fairflood.ts), so its client-side work is not timed as the victim's.
import { bindClusterAdmin, startAdminServer, type AdminServer } from './adminserver.js';
import { client, type Call } from './httpclient.js';
import { fmt, summarize } from './report.js';
import { rssOf } from './proc.js';
import { Worker } from 'node:worker_threads';

const NS = 'bench-fair';
const FLOODERS = 400;
const USERS = ['flooder-token,flooder,flooder-uid,"bench-group"', 'victim-token,victim,victim-uid,"bench-group"'];

async function victimGets(call: Call, n: number, from = 0): Promise<number[]> {
  const lat: number[] = [];
  for (let i = from; i < from + n; i++) {
    const t = performance.now();
    const r = await call('GET', `/api/v1/namespaces/${NS}/configmaps/cm-${i % 100}`);
    if (r.status !== 200) throw new Error(`the victim's get answered ${r.status}: ${r.body.slice(0, 200)}`);
    lat.push(performance.now() - t);
  }
  return lat;
}

export async function benchFairness(opts: { objects?: number; gets?: number } = {}): Promise<string[]> {
  const objects = opts.objects ?? 3000;
  const n = opts.gets ?? 1000;
  const server = await startAdminServer('fairness', ['--enable-priority-and-fairness=true'], USERS);
  try {
    await server.must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    await bindClusterAdmin(server, { kind: 'Group', name: 'bench-group' });
    const pad = 'x'.repeat(900);
    for (let i = 0; i < objects; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, objects - i) }, (_, k) =>
        server.must('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: `cm-${i + k}` }, data: { pad } })));
    }
    const victim = client(server.connection.port, { ca: server.connection.ca }, 'victim-token');
        for (let i = 0; i < 100 && (await victim('GET', `/api/v1/namespaces/${NS}/configmaps/cm-0`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
    await victimGets(victim, 100); // warm-up
    const alone = summarize(await victimGets(victim, n));

    let peakRss = rssOf(server.pid);
    const sampler = setInterval(() => { peakRss = Math.max(peakRss, rssOf(server.pid)); }, 100);
    const flooder = new Worker(new URL('./fairflood.js', import.meta.url), {
      workerData: { port: server.connection.port, ca: server.connection.ca, token: 'flooder-token', path: `/api/v1/namespaces/${NS}/configmaps`, connections: FLOODERS },
    });
    let opening = true;
    const warm = new Promise<void>((resolve, reject) => { flooder.once('message', () => { opening = false; resolve(); }); flooder.once('error', reject); });
    // while the flood's connections open (TLS handshakes are not bulk work: they take the loop as they come)
    const ramp: number[] = [];
    for (let i = 0; opening; i++) ramp.push(...(await victimGets(victim, 1, i)));
    await warm; // every flooding connection is open and has had an answer: the flood is steady
    const answered = new Promise<[number, number][]>((resolve, reject) => { flooder.once('message', resolve); flooder.once('error', reject); });
    await new Promise((r) => setTimeout(r, 500));
    const flooded = summarize(await victimGets(victim, n));
    flooder.postMessage('stop');
    const answers = new Map(await answered);
    await flooder.terminate();
    clearInterval(sampler);
    const ratio = flooded.p99 / alone.p99;
    const rampUp = summarize(ramp);
    const statuses = [...answers].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${c.toLocaleString('en')} × ${s}`).join(', ');
    return [
      '### API Priority and Fairness under a flood (issue 26)',
      '',
      `One \`svc server\` (SQLite, APF on, 400 + 200 seats) holding ${objects.toLocaleString('en')} ConfigMaps of ~1 KiB; a victim user gets one ConfigMap at a time (${n} gets), alone and then while a flooder user lists all of them (≈ ${fmt((objects * 1.05) / 1024, 1)} MiB per list) from ${FLOODERS} connections without pause; both ordinary users in global-default, separate flows.`,
      '',
      '| victim | p50 ms | p99 ms |',
      '|---|---|---|',
      `| alone | ${fmt(alone.p50)} | ${fmt(alone.p99)} |`,
      `| under the flood | ${fmt(flooded.p50)} | ${fmt(flooded.p99)} |`,
      `| while the flood's ${FLOODERS} connections open (${ramp.length} gets) | ${fmt(rampUp.p50)} | ${fmt(rampUp.p99)} |`,
      '',
      `- victim p99 under the flood / alone: ${fmt(ratio, 1)}× (target ≤ 3×), measured once every flooding connection has had an answer; while they open: ${fmt(rampUp.p99 / alone.p99, 1)}×`,
      `- the flooder's lists: ${statuses}; the server's peak RSS ${fmt(peakRss / 2 ** 20, 0)} MB`,
    ];
  } finally {
    await server.stop();
  }
}
