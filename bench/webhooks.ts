// Admission webhooks (issue 21): ConfigMap creates/s through one mutating
// and one validating webhook (a local HTTPS callback server answering at
// once, in its own process: bench/callbacks.ts) against the same creates
// with no webhook registered, on one `svc server` (SQLite); phases
// interleaved (none, webhooks, none, webhooks…) by registering and deleting
// the two configurations; the figure is the median of the rounds' ratios
// (bench/report.ts pairedRatios). The latency a
// webhook call adds is measured with one client at a time: (p50 with both −
// p50 without) / 2 calls. Each process's CPU per create is reported (they
// share the machine's cores), and the callback server's counts of connections
// and TLS handshakes show the client's keep-alive.
import { startAdminServer, type AdminServer } from './adminserver.js';
import { startCallbacks, type Callbacks, type CallbackStats } from './callbacks.js';
import { fmt, fmtRatios, pairedRatios, summarize } from './report.js';
import { runLoad } from './load.js';
import { cpuOf } from './proc.js';

const NS = 'bench-webhooks';

/** cpuMs: the svc server's CPU per create; callbackMs: the callback server's; clientMs: this process's (the load). */
type Phase = { rate: number; p50: number; p99: number; cpuMs: number; callbackMs: number; clientMs: number };

function configurations(port: number, caBundle: string): { mutating: unknown; validating: unknown } {
  const hook = (name: string, path: string) => ({
    name, clientConfig: { url: `https://127.0.0.1:${port}${path}`, caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    namespaceSelector: { matchLabels: { 'svc.io/metadata.name': NS } },
    sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 5,
  });
  return {
    mutating: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'bench-mutating' }, webhooks: [hook('mutate.bench.svc.io', '/mutate')] },
    validating: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bench-validating' }, webhooks: [hook('validate.bench.svc.io', '/validate')] },
  };
}

const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { 'app.properties': 'color=blue\nsize=large\n', owner: 'team-platform' } });

export async function benchWebhooks(opts: { perPhase?: number; rounds?: number } = {}): Promise<string[]> {
  const perPhase = opts.perPhase ?? 2000;
  const rounds = opts.rounds ?? 5;
  let callbacks: Callbacks | undefined;
  let server: AdminServer | undefined;
  try {
    callbacks = await startCallbacks();
    server = await startAdminServer('webhooks');
    const { call, must } = server;
    await must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    const { mutating, validating } = configurations(callbacks.port, callbacks.caBundle);
    let made = 0;
    const probe = async (): Promise<boolean> => {
      const r = await must('POST', `/api/v1/namespaces/${NS}/configmaps`, JSON.parse(configMap(`probe-${made++}`)));
      return JSON.parse(r.body).metadata?.labels?.['bench.svc.io/mutated'] === 'true';
    };
    const register = async (on: boolean) => {
      if (on) {
        await must('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', mutating);
        await must('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', validating);
      } else {
        await must('DELETE', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/bench-mutating');
        await must('DELETE', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/bench-validating');
      }
      // a configuration takes effect once the server has seen it (a watch): wait for the probe to show it
      for (let i = 0; i < 200 && (await probe()) !== on; i++) await new Promise((r) => setTimeout(r, 25));
      if ((await probe()) !== on) throw new Error(`webhooks ${on ? 'registered' : 'deleted'} but the probe does not show it`);
    };
    const creates = async (total: number, concurrency: number): Promise<Phase> => {
      const callback0 = cpuOf(callbacks!.pid);
      const client0 = process.cpuUsage();
      const load = await runLoad(server!.pid, total, concurrency, async () => {
        const r = await call('POST', `/api/v1/namespaces/${NS}/configmaps`, configMap(`cm-${made++}`));
        if (r.status !== 201) throw new Error(`configmap create answered ${r.status}: ${r.body.slice(0, 300)}`);
      });
      const client = process.cpuUsage(client0);
      const callbackMs = ((cpuOf(callbacks!.pid) - callback0) * 1000) / total;
      const s = summarize(load.latenciesMs);
      return { rate: load.rate, p50: s.p50, p99: s.p99, cpuMs: load.cpuUs / 1000, callbackMs, clientMs: (client.user + client.system) / 1000 / total };
    };

    // warm-up: a full phase with and without the webhooks first, so the measured rounds run JIT-compiled code as a long-running server does
    await creates(perPhase, 32);
    await register(true);
    await creates(perPhase, 32);
    await creates(300, 1);
    await register(false);
    const none: Phase[] = [];
    const hooks: Phase[] = [];
    const noneSerial: Phase[] = [];
    const hooksSerial: Phase[] = [];
    const before = await callbacks.stats();
    let hookCreates = 0;
    const phaseNone = async () => { none.push(await creates(perPhase, 32)); noneSerial.push(await creates(300, 1)); };
    const phaseHooks = async () => {
      hooks.push(await creates(perPhase, 32));
      hooksSerial.push(await creates(300, 1));
      hookCreates += perPhase + 300;
    };
    // the order alternates by round: none, webhooks | webhooks, none | none, webhooks…
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        await phaseNone();
        await register(true);
        await phaseHooks();
      } else {
        await phaseHooks();
        await register(false);
        await phaseNone();
      }
    }
    const after = await callbacks.stats();
    const d = (k: keyof CallbackStats) => (after[k] - before[k]).toLocaleString('en');
    const best = (ps: Phase[]) => ps.reduce((x, y) => (y.rate > x.rate ? y : x));
    const ratio = pairedRatios(hooks.map((p) => p.rate), none.map((p) => p.rate));
    const a = best(hooks);
    const b = best(none);
    const p50 = (ps: Phase[]) => Math.min(...ps.map((p) => p.p50));
    const cpuAll = (ps: Phase[]) => Math.min(...ps.map((p) => p.cpuMs + p.callbackMs + p.clientMs));
    const added = (p50(hooksSerial) - p50(noneSerial)) / 2;
    const row = (what: string, p: Phase) => `| ${what} | ${perPhase.toLocaleString('en')} ×${rounds} | ${fmt(p.rate, 0)} | ${fmt(p.p50)} | ${fmt(p.p99)} | ${fmt(p.cpuMs, 3)} | ${fmt(p.callbackMs, 3)} | ${fmt(p.clientMs, 3)} |`;
    return [
      `### Admission webhooks (issue 21): ConfigMap creates/s through one mutating and one validating webhook vs none`,
      '',
      `One \`svc server\` on SQLite; a callback server (${callbacks.kind}; HTTPS, its own process; svc's webhook client speaks HTTP/1.1, as kube's) answering at once, the mutating webhook with a JSONPatch adding a label; 32 keep-alive connections; a warm-up phase with and without the webhooks, then phases interleaved by registering and deleting the two configurations (the order alternating by round), the best of ${rounds} each in the table; the ratio is the median of the ${rounds} rounds' ratios. Added latency: one client at a time, 300 creates per phase, (best p50 with both webhooks − best p50 with none) / 2 calls.`,
      '',
      '| webhooks | creates | per second | p50 ms | p99 ms | server CPU ms per create | callback server CPU ms per create | load client CPU ms per create |',
      '|---|---|---|---|---|---|---|---|',
      row('one mutating + one validating', a),
      row('none', b),
      '',
      `- with webhooks / none: ${fmt(100 * ratio.median, 0)} %, median of the rounds (per round ${fmtRatios(ratio)}; the whole run ${fmt(100 * ratio.pooled, 0)} %; best against best ${fmt((100 * a.rate) / b.rate, 0)} %) (target ≥ 50 %)`,
      `- server CPU ms per create, per round: webhooks ${hooks.map((p) => fmt(p.cpuMs, 3)).join(', ')}; none ${none.map((p) => fmt(p.cpuMs, 3)).join(', ')}`,
      `- CPU per create of the three processes (svc server + callback server + load client), least of each side: ${fmt(cpuAll(none), 3)} ms with none, ${fmt(cpuAll(hooks), 3)} ms with both, ratio ${fmt((100 * cpuAll(none)) / cpuAll(hooks), 0)} % (what creates/s tend to when the shared cores are the limit; steadier than the rates on a busy machine)`,
      `- callback server: ${d('requests')} requests over the measured phases (${(2 * hookCreates).toLocaleString('en')} webhook calls, plus the registration probes); ${after.connections.toLocaleString('en')} connections and ${after.handshakes.toLocaleString('en')} TLS handshakes (${after.resumed.toLocaleString('en')} resumed) in the whole run, warm-up included`,
      `- one client at a time: p50 ${fmt(p50(noneSerial))} ms with none, ${fmt(p50(hooksSerial))} ms with both; added per webhook call ${fmt(added)} ms (target ≤ 1 ms)`,
    ];
  } finally {
    await server?.stop();
    callbacks?.stop();
  }
}
