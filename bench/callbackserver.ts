// A callback server for the webhook benchmark, run as its own process so its
// work does not slow the benchmark's client: HTTPS (HTTP/1.1, what svc's and
// kube's webhook clients speak) with
// a serving certificate from its own CA, answering every AdmissionReview at
// once — allowed, and on /mutate with a JSONPatch adding a label. It prints
// `ready <port> <base64 CA>` when it listens.
import https from 'node:https';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePki } from '../src/server/pki.js';

const PATCH = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { 'bench.svc.io/mutated': 'true' } }])).toString('base64');

const pki = await ensurePki({ dataDir: mkdtempSync(join(tmpdir(), 'svc-bench-callback-')) });
const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let review: { apiVersion?: string; request?: { uid?: string } };
    try {
      review = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      res.writeHead(400).end();
      return;
    }
    const response: Record<string, unknown> = { uid: review.request?.uid, allowed: true };
    if ((req.url ?? '').split('?')[0] === '/mutate') Object.assign(response, { patchType: 'JSONPatch', patch: PATCH });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
  });
};
const tls = { cert: pki.serving.cert, key: pki.serving.key };
const server = https.createServer(tls, handler);
server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as { port: number }).port;
  console.log(`ready ${port} ${Buffer.from(pki.ca.cert).toString('base64')}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
