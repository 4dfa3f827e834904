// The table the admission-plugins-*.test.ts suites are written in: one row a
// request (as whom, method, path, body) and what kube answers — the status,
// the exact message of a refusal, or a check of the object answered/stored
// (the plugin's mutation) — run in order against one server.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { stringify } from 'yaml';
import type { HttpResult, ReqOptions, TestServer } from './harness.js';

export interface Row {
  readonly what: string;
  /** Who sends it: a bearer token (default: the admin certificate). */
  readonly as?: string;
  readonly method: string;
  readonly path: string;
  /** The body, or a function making it when it needs what earlier rows learned (a uid). */
  readonly body?: unknown;
  readonly status: number;
  /** The exact Status message (a RegExp for texts with generated parts). */
  readonly message?: string | RegExp;
  /** A check of the answered object (the mutation). */
  readonly expect?: (body: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** A path that must answer 404 afterwards (nothing stored: dry runs, refusals). */
  readonly absent?: string;
  /** A path whose stored object `stored` checks afterwards. */
  readonly get?: string;
  readonly stored?: (body: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const PATCH_TYPE = { 'content-type': 'application/merge-patch+json' };

/** Sends one row's request (PATCH as a merge patch). */
export function send(t: TestServer, row: Pick<Row, 'as' | 'method' | 'path' | 'body'>): Promise<HttpResult> {
  const opts: ReqOptions = { ...(row.as ? { token: row.as } : {}), ...(row.method === 'PATCH' ? { headers: PATCH_TYPE } : {}) };
  const body = typeof row.body === 'function' ? (row.body as () => unknown)() : row.body;
  return t.req(row.method, row.path, body, opts);
}

/** One `it` per row, in order (later rows may build on earlier ones). */
export function rows(server: () => TestServer, table: readonly Row[]): void {
  for (const row of table) {
    it(row.what, async () => {
      const t = server();
      const r = await send(t, row);
      assert.equal(r.status, row.status, r.text);
      if (typeof row.message === 'string') assert.equal(r.body.message, row.message);
      else if (row.message) assert.match(String(r.body.message), row.message);
      row.expect?.(r.body);
      if (row.absent) assert.equal((await t.req('GET', row.absent)).status, 404, `${row.absent} was stored`);
      if (row.get) {
        const g = await t.req('GET', row.get);
        assert.equal(g.status, 200, g.text);
        row.stored?.(g.body);
      }
    });
  }
}

/** Creates what a suite's rows need (admin), failing on anything but 201. */
export async function given(t: TestServer, objects: readonly [path: string, body: unknown][]): Promise<void> {
  for (const [path, body] of objects) {
    const r = await t.req('POST', path, body);
    assert.equal(r.status, 201, `${path}: ${r.text}`);
  }
}

/** An AdmissionConfiguration with these plugins' embedded configurations, written to dir. */
export function admissionConfig(dir: string, plugins: Record<string, unknown>): string {
  const file = join(dir, 'admission.yaml');
  writeFileSync(file, stringify({
    apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration',
    plugins: Object.entries(plugins).map(([name, configuration]) => ({ name, configuration })),
  }));
  return file;
}

export const pod = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], ...spec },
});

/** The keys of a pod's tolerations, in order. */
export const tolerationKeys = (p: { spec: { tolerations?: { key?: string }[] } }) => (p.spec.tolerations ?? []).map((x) => x.key ?? '');
