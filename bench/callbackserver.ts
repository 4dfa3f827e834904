// The webhook benchmark's callback server written with Node's https server
// (bench/callbacks.ts runs it when the native one, bench/callbackserver.c,
// cannot be built, or with SVC_BENCH_CALLBACK=node): HTTPS (HTTP/1.1, what
// svc's and kube's webhook clients speak) with the serving certificate and key
// given, answering every AdmissionReview at once — allowed, and on /mutate
// with a JSONPatch adding a label. It prints `ready <port>` when it listens,
// answers each `stats` line on stdin with `stats <connections> <handshakes>
// <resumed> <requests>`, and exits when stdin closes.
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';

const PATCH = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { 'bench.svc.io/mutated': 'true' } }])).toString('base64');

const [certFile, keyFile] = process.argv.slice(2);
const counts = { connections: 0, handshakes: 0, resumed: 0, requests: 0 };
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
    counts.requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
  });
};
const server = https.createServer({ cert: readFileSync(certFile!), key: readFileSync(keyFile!) }, handler);
server.on('connection', () => counts.connections++);
server.on('secureConnection', (s: TLSSocket) => {
  counts.handshakes++;
  if (s.isSessionReused()) counts.resumed++;
});
server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as { port: number }).port}`));
let line = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d: string) => {
  line += d;
  for (let nl = line.indexOf('\n'); nl >= 0; nl = line.indexOf('\n')) {
    if (line.slice(0, nl) === 'stats') console.log(`stats ${counts.connections} ${counts.handshakes} ${counts.resumed} ${counts.requests}`);
    line = line.slice(nl + 1);
  }
});
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
