// Audit benchmark (issue 26): the CPU cost the audit filter adds to a request
// at Metadata for everything, with the JSON log backend in its default
// blocking mode writing a real file (one write per event-loop turn). The
// request path is run in-process on fake requests — recovery, request info,
// audit, impersonation, authorization (allow) and a handler answering a small
// JSON body — 64 requests at a time, as the server starts them in batches.
// CPU time (user + system) per request, with and without audit.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withRecovery } from '../src/server/filters/recovery.js';
import { withRequestInfo } from '../src/server/filters/requestinfo.js';
import { withAuthorization } from '../src/server/filters/authz.js';
import { withImpersonation } from '../src/server/filters/impersonation.js';
import { withAudit } from '../src/server/filters/audit.js';
import { alwaysAllow } from '../src/authz/authorizer.js';
import { writeJSONText } from '../src/server/respond.js';
import type { Handler, RequestContext, Response } from '../src/server/context.js';
import { PolicyEvaluator } from '../src/audit/checker.js';
import { parsePolicy } from '../src/audit/policy.js';
import { enableAuditHooks } from '../src/audit/record.js';
import { ignoreErrors } from '../src/audit/backend.js';
import { LogBackend } from '../src/audit/logbackend.js';
import { RotatingFile } from '../src/audit/logfile.js';
import { eventJSON } from '../src/audit/encode.js';
import type { AuditEvent } from '../src/audit/types.js';
import { fmt } from './report.js';

const BODY = JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm-1', namespace: 'default', uid: 'u', resourceVersion: '12' }, data: { v: 'x'.repeat(1024) } });

function fakeCtx(i: number): RequestContext {
  const hdrs: Record<string, unknown> = {};
  let ended = false;
  const res = {
    statusCode: 200,
    get headersSent() { return ended; },
    get writableEnded() { return ended; },
    setHeader: (n: string, v: unknown) => (hdrs[n.toLowerCase()] = v),
    getHeader: (n: string) => hdrs[n.toLowerCase()],
    write: () => true,
    end: () => { ended = true; },
    once: () => undefined,
    off: () => undefined,
  };
  const url = `/api/v1/namespaces/default/configmaps/cm-${i % 1000}`;
  const req = { method: 'GET', url, headers: { 'user-agent': 'kubectl/v1.27.3 (linux/amd64) kubernetes/abcdef', accept: 'application/json' }, socket: { remoteAddress: '127.0.0.1' }, once: () => undefined, async *[Symbol.asyncIterator]() {} };
  return { req, res: res as unknown as Response, url: new URL(url, 'https://svc.invalid'), user: ADMIN } as unknown as RequestContext;
}
/** One user object for every request, as the server's token authenticators hand out (the audit's user caches key on it). */
const ADMIN = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

const handler: Handler = async (ctx) => writeJSONText(ctx, 200, BODY);

async function cpuPerRequest(h: Handler, total: number): Promise<number> {
  const batch = 64;
  // each batch in a turn of its own, as the server's (a request that does not wait for its event leaves it to the turn's write)
  const turn = () => new Promise((r) => setImmediate(r));
  for (let i = 0; i < 2000; i += batch) await Promise.all([...Array.from({ length: batch }, (_, j) => h(fakeCtx(i + j))), turn()]); // warm-up
  const t0 = process.cpuUsage();
  for (let i = 0; i < total; i += batch) await Promise.all([...Array.from({ length: batch }, (_, j) => h(fakeCtx(i + j))), turn()]);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / total;
}

export async function benchAudit(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-audit-'));
  try {
    enableAuditHooks();
    const file = join(dir, 'audit.log');
    const policy = new PolicyEvaluator(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n'));
    const oneStage = new PolicyEvaluator(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n'));
    const backend = ignoreErrors(new LogBackend(new RotatingFile(file, { maxSize: 1024 }), 'json'));
    const chain = (p?: PolicyEvaluator) => {
      let h = withAuthorization(handler, alwaysAllow);
      h = withImpersonation(h, alwaysAllow);
      if (p) h = withAudit(h, { backend, policy: p });
      return withRecovery(withRequestInfo(h));
    };
    const total = 50_000;
    const rounds: { off: number; on: number; one: number }[] = [];
    for (let r = 0; r < 3; r++) rounds.push({ off: await cpuPerRequest(chain(), total), on: await cpuPerRequest(chain(policy), total), one: await cpuPerRequest(chain(oneStage), total) });
    const best = (k: 'off' | 'on' | 'one') => Math.min(...rounds.map((x) => x[k]));
    await backend.shutdown();
    const bytes = statSync(file).size;
    // the encoder alone
    const ev: AuditEvent = {
      level: 'Metadata', auditID: '8f2b3c1e-0d7a-4d0e-9a57-3f1c2b4e5d6f', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/default/configmaps/cm-1', verb: 'get',
      user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] }, sourceIPs: ['127.0.0.1'], userAgent: 'kubectl/v1.27.3 (linux/amd64) kubernetes/abcdef',
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'cm-1', apiVersion: 'v1' }, responseStatus: { code: 200 }, requestReceivedTimestamp: 1.7e15, stageTimestamp: 1.7e15,
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '', 'authorization.svc.io/decision': 'allow', 'authorization.svc.io/reason': '' },
    };
    const n = 200_000;
    let len = 0;
    const e0 = process.cpuUsage();
    for (let i = 0; i < n; i++) len += eventJSON(ev).length;
    const e = process.cpuUsage(e0);
    const encodeUs = (e.user + e.system) / n;
    return [
      '### Audit (issue 26): the filter at Metadata for everything, JSON log file, blocking mode (CPU per request, in-process, best of 3 × 50,000 gets)',
      '',
      '| chain | CPU µs / request |',
      '|---|---|',
      `| recovery → request info → impersonation → authorization → handler | ${fmt(best('off'), 2)} |`,
      `| … with audit (2 events: RequestReceived, ResponseComplete) | ${fmt(best('on'), 2)} |`,
      `| audit's share | ${fmt(best('on') - best('off'), 2)} |`,
      `| … with audit, omitStages: [RequestReceived] (1 event) | ${fmt(best('one'), 2)} |`,
      `| audit's share | ${fmt(best('one') - best('off'), 2)} |`,
      '',
      `- One event's JSON line (${len / n} bytes) encoded in ${fmt(encodeUs, 2)} µs; ${fmt(bytes / 2 ** 20, 1)} MiB written in all.`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
