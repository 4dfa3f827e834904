// Service-account tokens (issue 18): gets/s of one 1 KiB ConfigMap with a
// service-account bearer token against gets/s with the admin client
// certificate, in the same run against the same `svc server` process (phases
// interleaved: certificate, token, certificate, token; the best of each
// counts). The token's verification is cached for 10 s, so after the first
// request a get costs a SHA-256 of the token and a map lookup more than a
// certificate one. With wrk, the token against the static token file's.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { fmt, startServerProcess, stopProcess } from './report.js';
import { client, compareGets, untilOk } from './httpclient.js';
import { benchTokenFlag, hasWrk, wrk } from './wrk.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
const PATH = '/api/v1/namespaces/default/configmaps/bench-cm';

export async function benchServiceAccountTokens(opts: { requests?: number; wrkSeconds?: number } = {}): Promise<string[]> {
  const requests = opts.requests ?? 20_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-sa-'));
  const port = await freePort();
  const proc = await startServerProcess(main, dataDir, port, [benchTokenFlag(dataDir)]);
  try {
    const cfg = parse(readFileSync(join(dataDir, 'admin.svcconfig'), 'utf8'));
    const ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
    const admin = client(port, { ca, cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'), key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64') });
    const made = await admin('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ metadata: { name: 'bench-cm' }, data: { v: 'x'.repeat(1024) } }));
    if (made.status !== 201) throw new Error(`creating the ConfigMap answered ${made.status}`);
    await admin('POST', '/api/v1/namespaces/default/serviceaccounts', JSON.stringify({ metadata: { name: 'bench' } }));
    // the account may read ConfigMaps (RBAC); the binding reaches the authorizer through a watch
    const rb = await admin('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', JSON.stringify({
      metadata: { name: 'bench-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'bench', namespace: 'default' }],
    }));
    if (rb.status !== 201) throw new Error(`creating the RoleBinding answered ${rb.status}: ${rb.body}`);
    const tr = await admin('POST', '/api/v1/namespaces/default/serviceaccounts/bench/token', JSON.stringify({ spec: { expirationSeconds: 3600 } }));
    if (tr.status !== 201) throw new Error(`TokenRequest answered ${tr.status}: ${tr.body}`);
    const token = (JSON.parse(tr.body) as { status: { token: string } }).status.token;
    const sa = client(port, { ca }, token);
    await untilOk(sa, PATH);
    const { a: cert, b: tok } = await compareGets(admin, sa, PATH, requests);
    const lines = [
      '### Service-account tokens (issue 18): gets of one 1 KiB ConfigMap, 64 keep-alive connections, `svc server` on SQLite, Node https client',
      '',
      '| credential | requests | per second | p50 ms | p99 ms |',
      '|---|---|---|---|---|',
      `| admin client certificate | ${requests.toLocaleString('en')} ×2 | ${fmt(cert.rate, 0)} | ${fmt(cert.p50)} | ${fmt(cert.p99)} |`,
      `| service-account token (bound, RS256) | ${requests.toLocaleString('en')} ×2 | ${fmt(tok.rate, 0)} | ${fmt(tok.p50)} | ${fmt(tok.p99)} |`,
      '',
      `- token / certificate: ${fmt((100 * tok.rate) / cert.rate, 0)} % (target ≥ 90 %); phases interleaved, best of two each`,
    ];
    if (hasWrk()) {
      const seconds = opts.wrkSeconds ?? 10;
      const base = `https://127.0.0.1:${port}${PATH}`;
      const st = wrk(base, seconds);
      const sat = wrk(base, seconds, undefined, token);
      lines.push('', `With wrk (C, HTTP/1.1 keep-alive, 2 threads, 64 connections, ${seconds} s each): static token ${fmt(st.rate, 0)} gets/s, service-account token ${fmt(sat.rate, 0)} gets/s (${fmt((100 * sat.rate) / st.rate, 0)} %; non-2xx ${st.errors + sat.errors})`);
    }
    return lines;
  } finally {
    await stopProcess(proc);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
