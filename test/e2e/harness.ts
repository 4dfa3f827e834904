// Black-box test harness: starts the real API server (in-process, HTTPS on a
// free port, temporary data directory, embedded SQLite) and talks to it over
// HTTPS with the generated admin client certificate.
import { request, type Agent } from 'node:https';
import { gunzipSync } from 'node:zlib';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startApiServer, type ApiServerOptions, type RunningApiServer } from '../../src/server/apiserver.js';
import { tempDir } from '../../src/testing/tempdir.js';

export interface TestServer {
  readonly server: RunningApiServer;
  readonly dataDir: string;
  readonly kubeconfig: string;
  readonly url: string;
  /** Requests as admin (client certificate) unless `token` or `anonymous` is given. */
  req(method: string, path: string, body?: unknown, opts?: ReqOptions): Promise<HttpResult>;
  stop(): Promise<void>;
}

export interface ReqOptions {
  readonly headers?: Record<string, string>;
  readonly token?: string;
  readonly anonymous?: boolean;
  readonly raw?: string | Buffer;
  /** A keep-alive agent for suites sending thousands of requests (default: a new connection each). */
  readonly agent?: Agent;
}

export interface HttpResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

/**
 * Starts the server as `svc server` would, with these differences unless the
 * overrides say otherwise: a temporary data directory and free port, no
 * delays, and no service-account controllers (no `default` ServiceAccount or
 * root-CA ConfigMap appears in a namespace unless the test asks with
 * `serviceAccountControllers: true`). Without those controllers the
 * ServiceAccount admission plugin is disabled too, since it refuses every pod
 * in a namespace without a `default` account (as kube-apiserver without a
 * controller manager does, after ~1.5 s of retries) — unless the test's
 * `admission.enable` names it.
 */
/** The admission flags of a test server: ServiceAccount off without the controllers that make accounts, unless asked for. */
function withoutServiceAccount(a: ApiServerOptions['admission'], saControllers: boolean): ApiServerOptions['admission'] {
  if (saControllers || a?.enable?.includes('ServiceAccount')) return a;
  return { ...a, disable: [...(a?.disable ?? []), 'ServiceAccount'] };
}

/**
 * The controllers a test server runs unless the test names others
 * (`controllerManager.controllers`): those the API server ran before the
 * controller manager existed. Tests of the other controllers, the scheduler
 * and simulated nodes start them on `server.controllerContext` themselves.
 */
export const HARNESS_CONTROLLERS = ['namespace', 'serviceaccount', 'serviceaccount-token', 'root-ca-cert-publisher', 'resourcequota', 'clusterrole-aggregation', 'pvc-protection', 'pv-protection'];

export async function startTestServer(overrides: Partial<ApiServerOptions> = {}): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? tempDir('svc-e2e-');
  const saControllers = (overrides.controllers ?? true) && (overrides.serviceAccountControllers ?? false);
  const server = await startApiServer({
    bindAddress: '127.0.0.1',
    securePort: 0,
    dataDir,
    storage: { backend: 'sqlite', dataDir },
    anonymousAuth: true,
    livezGracePeriodMs: 0,
    shutdownDelayMs: 0,
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    requestTimeoutMs: 60_000,
    controllers: true,
    // no `default` ServiceAccount or root CA ConfigMap appearing in every namespace unless a test asks
    serviceAccountControllers: false,
    ...overrides,
    controllerManager: { controllers: HARNESS_CONTROLLERS, scheduler: false, ...overrides.controllerManager },
    admission: withoutServiceAccount(overrides.admission, saControllers),
  });
  const kubeconfig = join(dataDir, 'admin.svcconfig');
  const cfg = parseYaml(readFileSync(kubeconfig, 'utf8')) as {
    clusters: { cluster: { 'certificate-authority-data': string } }[];
    users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  };
  const ca = Buffer.from(cfg.clusters[0]!.cluster['certificate-authority-data'], 'base64');
  const cert = Buffer.from(cfg.users[0]!.user['client-certificate-data'], 'base64');
  const key = Buffer.from(cfg.users[0]!.user['client-key-data'], 'base64');
  const url = `https://127.0.0.1:${server.port}`;
  return {
    server,
    dataDir,
    kubeconfig,
    url,
    req: (method, path, body, opts = {}) =>
      new Promise<HttpResult>((resolve, reject) => {
        const headers: Record<string, string> = { ...(opts.headers ?? {}) };
        if (opts.token) headers.authorization = `Bearer ${opts.token}`;
        const payload = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
        if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
        // Node sends DELETE bodies neither chunked nor sized unless told the length.
        if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
        const useCert = !opts.token && !opts.anonymous;
        const r = request(`${url}${path}`, { method, headers, ca, ...(useCert ? { cert, key } : {}), agent: opts.agent ?? false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            // As real clients do: a gzip-encoded body is decoded (the header stays for assertions).
            const raw = Buffer.concat(chunks);
            const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString();
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              /* text body */
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
          });
        });
        r.on('error', reject);
        if (payload !== undefined) r.write(payload);
        r.end();
      }),
    stop: async () => {
      await server.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function writeTokenFile(dir: string, lines: string): string {
  const p = join(dir, 'tokens.csv');
  writeFileSync(p, lines);
  return p;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until fn returns true (or fails after ms). */
export async function eventually(fn: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await sleep(50);
  }
  throw new Error('condition not met in time');
}
