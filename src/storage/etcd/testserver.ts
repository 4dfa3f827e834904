// Starts a real etcd process on free loopback ports with a temporary data
// directory, for tests and benchmarks, and stops it afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { freePort } from '../../testing/ports.js';
import { EtcdStore } from './store.js';
import { tempDir } from '../../testing/tempdir.js';

export interface EtcdServer {
  readonly url: string;
  /** Stops etcd (keeping its data) and starts it again on the same ports. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEtcd(): Promise<EtcdServer> {
  const dir = tempDir('svc-etcd-');
  // A free port is only free until someone takes it (another test's server, an outgoing
  // connection's ephemeral port): when etcd finds one taken, try again with fresh ports.
  let client = 0;
  let peer = 0;
  let proc: { stop(): Promise<void> } | undefined;
  for (let attempt = 1; !proc; attempt++) {
    client = await freePort();
    peer = await freePort();
    try {
      proc = await launch(dir, client, peer);
    } catch (err) {
      if (attempt >= 5 || !/address already in use/.test((err as Error).message)) throw err;
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    url: `http://127.0.0.1:${client}`,
    restart: async () => {
      await proc!.stop();
      proc = await launch(dir, client, peer);
    },
    stop: async () => {
      await proc!.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(dir: string, client: number, peer: number): Promise<{ stop(): Promise<void> }> {
  const url = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const proc: ChildProcess = spawn(
    'etcd',
    [
      '--name', 'test', '--data-dir', dir,
      '--listen-client-urls', url, '--advertise-client-urls', url,
      '--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl,
      '--initial-cluster', `test=${peerUrl}`,
      // Room for our 1.5 MiB value limit plus the request's envelope.
      '--max-request-bytes', String(2 * 1024 * 1024),
      '--quota-backend-bytes', String(4 * 1024 * 1024 * 1024),
      '--log-level', 'error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const stop = async () => {
    if (proc.exitCode === null) {
      proc.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) {
      await stop();
      throw new Error(`etcd exited with code ${proc.exitCode}: ${stderr}`);
    }
    try {
      const s = await EtcdStore.open({ servers: [url], dialTimeoutMs: 500 });
      await s.close();
      return { stop };
    } catch (err) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`etcd did not become ready: ${(err as Error).message}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
