// The real server closing paused HTTP/2 watch streams past the total cap of
// unsent output (watchbudget.ts) while a reading watcher keeps every event,
// once, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { startTestServer } from '../../test/e2e/harness.js';

test('the server closes paused watch streams past the total cap; a reading watcher keeps every event in order', async () => {
  const t = await startTestServer({ watch: { maxTotalBufferedBytes: 1 << 20, maxBufferedBytes: 64 << 20 } });
  const logged: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
  const cfg = parse(readFileSync(t.kubeconfig, 'utf8'));
  const session = http2.connect(t.url, {
    ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64'),
    cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64'),
    key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64'),
  });
  try {
    const ns = '/api/v1/namespaces/budget/configmaps';
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'budget' } })).status, 201);
    const rv = (await t.req('GET', ns)).body.metadata.resourceVersion as string;
    const open = (i: number) => {
      const st = session.request({ ':path': `${ns}?watch=1&resourceVersion=${rv}&timeoutSeconds=${600 + i}` });
      const state = { closed: false, lines: [] as string[], partial: '' };
      st.on('error', () => {});
      st.on('close', () => (state.closed = true));
      return { st, state };
    };
    const paused = [1, 2, 3, 4].map((i) => {
      const w = open(i);
      w.st.pause(); // never reads: its unsent output stays on the server
      return w;
    });
    const reader = open(0);
    reader.st.setEncoding('utf8');
    reader.st.on('data', (d: string) => {
      const parts = (reader.state.partial + d).split('\n');
      reader.state.partial = parts.pop()!;
      reader.state.lines.push(...parts);
    });
    await new Promise((r) => setTimeout(r, 200));

    // Each paused watch falls 100 KB further behind per create; 20 creates put all four past the 1 MiB cap.
    const big = 'x'.repeat(100_000);
    const created = 20;
    for (let i = 0; i < created; i++) {
      assert.equal((await t.req('POST', ns, { metadata: { name: `cm-${i}` }, data: { big } })).status, 201);
      await new Promise((r) => setTimeout(r, 20));
    }
    const deadline = Date.now() + 10_000;
    while (reader.state.lines.length < created && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    // A paused client sees the reset once it reads again: its stream ends without the later events.
    for (const w of paused) {
      let got = 0;
      w.st.on('data', (d: Buffer) => (got += d.toString().split('\n').length - 1));
      w.st.resume();
      const end = Date.now() + 10_000;
      while (!w.state.closed && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      assert.ok(w.state.closed, 'a paused watch is closed');
      assert.ok(got < created, `a closed watch got ${got} of ${created} events`);
    }
    assert.equal(reader.state.closed, false, 'the reading watch stays open');
    const names = reader.state.lines.map((l) => {
      const e = JSON.parse(l) as { type: string; object: { metadata: { name: string } } };
      return `${e.type} ${e.object.metadata.name}`;
    });
    assert.deepEqual(names, Array.from({ length: created }, (_, i) => `ADDED cm-${i}`));
    const closing = logged.filter((l) => l.includes('as unresponsive'));
    assert.equal(closing.length, 4, closing.join('\n'));
    for (const i of [1, 2, 3, 4]) assert.equal(closing.filter((l) => l.includes(`timeoutSeconds=${600 + i} `)).length, 1);
    assert.ok(closing.every((l) => l.includes('over the cap of 1.0 MiB; the slowest are closed first')));
    reader.st.close();
  } finally {
    console.error = error;
    session.close();
    await t.stop();
  }
});
