// The flooder of bench/fairness.ts, in a worker thread of its own: lists a
// path from many keep-alive connections without pause until told to stop,
// reading each answer to its end and keeping only its status; says 'warm'
// once every connection has had an answer. Its own event
// loop keeps the flood's client-side work (TLS, 3 MiB bodies) out of the
// loop that times the victim's requests.
import { Agent, request } from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

interface FloodData { port: number; ca: Uint8Array; token: string; path: string; connections: number }

const { port, ca, token, path, connections } = workerData as FloodData;
const agent = new Agent({ keepAlive: true, maxSockets: connections, ca: Buffer.from(ca) });
const answers = new Map<number, number>();
let flooding = true;

function list(): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path, method: 'GET', agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end();
  });
}

parentPort!.on('message', () => { flooding = false; });
// 'warm' once every connection has had an answer: all are open (their TLS handshakes done) and the flood is steady
let cold = connections;
await Promise.all(Array.from({ length: connections }, async () => {
  let first = true;
  while (flooding) {
    const status = await list();
    answers.set(status, (answers.get(status) ?? 0) + 1);
    if (first && --cold === 0) parentPort!.postMessage('warm');
    first = false;
  }
}));
agent.destroy();
parentPort!.postMessage([...answers]);
