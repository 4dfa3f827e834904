// The webhook benchmark's callback server, as its own process: the native one
// (bench/callbackserver.c, compiled on first use; a quarter to a third of the CPU per
// call of Node's https server, which shares the 2 cores with the svc server)
// or, when it cannot be built or SVC_BENCH_CALLBACK=node, the Node one
// (bench/callbackserver.ts). Both answer the same, serve the same PKI's
// serving certificate and count what shows keep-alive at work: connections,
// TLS handshakes, session resumptions and requests (stats()).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePki } from '../src/server/pki.js';
import { untilPrinted } from './report.js';
import { nativeBinary } from './native.js';

const here = dirname(fileURLToPath(import.meta.url));

export interface CallbackStats {
  readonly connections: number;
  readonly handshakes: number;
  readonly resumed: number;
  readonly requests: number;
}

export interface Callbacks {
  readonly kind: 'native (bench/callbackserver.c)' | 'Node https (bench/callbackserver.ts)';
  readonly pid: number;
  readonly port: number;
  /** base64 of the CA's PEM (a webhook's caBundle). */
  readonly caBundle: string;
  stats(): Promise<CallbackStats>;
  stop(): void;
}

/** The native server's path, compiled when missing or older than its source; undefined (reason printed) when it cannot be. */
export function nativeCallbackServer(): string | undefined {
  return nativeBinary('callbackserver', ['ssl', 'crypto'], "bench webhooks: the native callback server (bench/callbackserver.c) could not be built — install gcc and libssl-dev; using Node's");
}

const STATS = /stats (\d+) (\d+) (\d+) (\d+)\n/;

/** `prefer`: 'node' for Node's server; 'native' (the default unless SVC_BENCH_CALLBACK=node) falls back to Node's when it cannot be built. */
export async function startCallbacks(prefer: 'native' | 'node' = process.env.SVC_BENCH_CALLBACK === 'node' ? 'node' : 'native'): Promise<Callbacks> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-callback-'));
  const pki = await ensurePki({ dataDir });
  const caBundle = Buffer.from(pki.ca.cert).toString('base64');
  const native = prefer === 'node' ? undefined : nativeCallbackServer();
  const proc: ChildProcess = native
    ? spawn(native, [join(pki.dir, 'apiserver.crt'), join(pki.dir, 'apiserver.key')], { stdio: ['pipe', 'pipe', 'inherit'] })
    : fork(join(here, 'callbackserver.js'), [join(pki.dir, 'apiserver.crt'), join(pki.dir, 'apiserver.key')], { stdio: ['pipe', 'pipe', 'inherit', 'ipc'] });
  try {
    const port = Number((await untilPrinted(proc, /ready \d+/, 'callback server')).match(/ready (\d+)/)![1]);
    return {
      kind: native ? 'native (bench/callbackserver.c)' : 'Node https (bench/callbackserver.ts)',
      pid: proc.pid!, port, caBundle,
      async stats() {
        const printed = untilPrinted(proc, STATS, 'callback server');
        proc.stdin!.write('stats\n');
        const [, connections, handshakes, resumed, requests] = (await printed).match(STATS)!.map(Number);
        return { connections: connections!, handshakes: handshakes!, resumed: resumed!, requests: requests! };
      },
      stop() {
        proc.stdin!.end();
        proc.kill('SIGTERM');
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    proc.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
