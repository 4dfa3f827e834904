// The storage backends e2e suites run against: embedded SQLite, and a real
// etcd process (skipped locally when etcd is missing; required under CI).
import { findTool } from '../../src/testing/tools.js';
import { startEtcd, type EtcdServer } from '../../src/storage/etcd/testserver.js';
import type { ApiServerOptions } from '../../src/server/apiserver.js';
import { startTestServer, type TestServer } from './harness.js';

export interface Backend {
  readonly name: string;
  readonly skip: string | false;
  start(overrides?: Partial<ApiServerOptions>): Promise<TestServer>;
}

const etcd = findTool('etcd', "Debian's etcd-server (apt-get install etcd-server)");

export const BACKENDS: Backend[] = [
  { name: 'sqlite', skip: false, start: (o) => startTestServer(o) },
  {
    name: 'etcd',
    skip: etcd.skip,
    async start(o = {}) {
      const server: EtcdServer = await startEtcd();
      const t = await startTestServer({ ...o, storage: { backend: 'etcd3', etcdServers: [server.url] } });
      return { ...t, stop: async () => { await t.stop(); await server.stop(); } };
    },
  },
];
