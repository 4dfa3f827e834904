// The fan-out's two watcher clients (Node's http2 in worker threads, and the
// native bench/h2watch.c) against the real server: every event seen once, in
// order, with its latency recorded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../src/testing/tempdir.js';
import { fanOut, h1, nativeWatcher, startServer, type WatcherClient } from './watch.js';

describe('watch fan-out clients', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let client: ReturnType<typeof h1>;
  before(async () => {
    server = await startServer(tempDir('svc-fanout-'));
    client = h1(server.port, server.creds, 4);
  });
  after(async () => {
    client?.close();
    await server?.stop();
  });

  const native = nativeWatcher();
  const clients: { name: string; client: WatcherClient | undefined; skip: string | false }[] = [
    { name: 'Node http2 watchers', client: { kind: 'node' }, skip: false },
    { name: 'native watchers (bench/h2watch.c)', client: native ? { kind: 'native', binary: native } : undefined, skip: native ? false : 'the native watcher could not be built: install gcc, libnghttp2-dev and libssl-dev' },
  ];
  for (const c of clients) {
    if (c.skip && process.env.CI === 'true') throw new Error(`${c.skip} (required under CI=true)`);
    it(`${c.name} see every create once, in order`, { skip: c.skip }, async () => {
      const watchers = 4;
      const f = await fanOut(server, client, watchers, 40, 0.5, c.client, 0);
      assert.equal(f.writes, 20);
      assert.deepEqual({ deliveries: f.deliveries, lost: f.lost, duplicates: f.duplicates, outOfOrder: f.outOfOrder, otherEvents: f.otherEvents, closedEarly: f.closedEarly }, { deliveries: watchers * 20, lost: 0, duplicates: 0, outOfOrder: 0, otherEvents: 0, closedEarly: 0 });
      // Parse times are on the writer's clock: after the create was issued, within the run.
      assert.ok(f.issued.p50 > 0 && f.issued.max < 10_000, `issued→parsed ${JSON.stringify(f.issued)}`);
    });
  }
});
