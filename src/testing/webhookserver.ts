// A webhook for tests: an HTTPS server in this process, with its own CA
// (generated in a temporary directory) and requiring a client certificate of
// that CA, answering JSON reviews through `handle`; and the
// connection-credentials files (kubeconfig format) that name it, with the CA
// and the client certificate as the API server would be given them.
import https from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { stringify } from 'yaml';
import { ensurePki, type Pki } from '../server/pki.js';
import { tempDir } from './tempdir.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Review = Record<string, any>;
export type WebhookHandler = (review: Review, res: ServerResponse) => void;

export interface TestWebhook {
  /** The directory holding the webhook's PKI (`pki/`) and the connection files. */
  readonly dir: string;
  readonly pki: Pki;
  /** https://localhost:<port><path> */
  readonly url: string;
  /** Every review received, with the CommonName of the client certificate that sent it. */
  readonly seen: { body: Review; clientCN: string | undefined }[];
  /** A connection file naming the webhook (`server` instead of its URL; no client certificate with `withCert: false`). */
  connectionFile(o?: { withCert?: boolean; server?: string }): string;
  close(): Promise<void>;
}

export async function startTestWebhook(opts: { path: string; handle: WebhookHandler; seen?: TestWebhook['seen'] }): Promise<TestWebhook> {
  const dir = tempDir('svc-test-webhook-');
  const pki = await ensurePki({ dataDir: dir });
  const seen = opts.seen ?? [];
  const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Review;
      seen.push({ body, clientCN: (req.socket as TLSSocket).getPeerCertificate().subject?.CN as string | undefined });
      res.setHeader('content-type', 'application/json');
      opts.handle(body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://localhost:${(server.address() as AddressInfo).port}${opts.path}`;
  let files = 0;
  return {
    dir, pki, url, seen,
    connectionFile(o = {}) {
      const f = join(dir, `hook-${files++}.yaml`);
      writeFileSync(f, stringify({
        apiVersion: 'v1', kind: 'Config',
        clusters: [{ name: 'hook', cluster: { server: o.server ?? url, 'certificate-authority': 'pki/ca.crt' } }],
        users: [{ name: 'apiserver', user: o.withCert === false ? {} : { 'client-certificate': 'pki/admin.crt', 'client-key-data': Buffer.from(pki.admin.key).toString('base64') } }],
        contexts: [{ name: 'webhook', context: { cluster: 'hook', user: 'apiserver' } }],
        'current-context': 'webhook',
      }));
      return f;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
