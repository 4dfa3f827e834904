import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifestHeaders, StaticPodSource, type PodUpdate } from './source.js';

const pod = (name: string, cmd = 'sleep 3600') => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  containers: [{name: c, image: busybox, command: [sh, -c, "${cmd}"]}]\n`;
const summary = (u: PodUpdate) => `${u.op} ${u.pods.map((p) => p.metadata.name).sort().join(',')}`;

/** Waits until `cond` holds, polling briefly (the watcher and pollers run on their own). */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('a manifest folder: pods added, changed and removed, bad files reported and left out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-static-'));
  const events: string[] = [];
  const errors: string[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const src = new StaticPodSource({ nodeName: 'node-a', path: dir, fileCheckMs: 60_000, now: () => clock, onError: (_s, e) => errors.push(e.message) });
  src.onUpdate((u) => events.push(summary(u)));
  try {
    writeFileSync(join(dir, 'web.yaml'), pod('web'));
    writeFileSync(join(dir, 'db.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db', namespace: 'data' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }));
    writeFileSync(join(dir, '.hidden.yaml'), pod('hidden'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'nested.yaml'), pod('nested'));
    await src.start();
    assert.deepEqual(events, ['ADD db-node-a,web-node-a']);
    const web = src.pods().find((p) => p.metadata.name === 'web-node-a')!;
    assert.equal(web.metadata.annotations?.['kubernetes.io/config.source'], 'file');
    assert.equal(web.metadata.annotations?.['svc.io/config.seen'], '2026-01-01T00:00:00Z');
    assert.equal(src.pods().find((p) => p.metadata.name === 'db-node-a')!.metadata.namespace, 'data');

    // a change to the manifest: a new UID (the content's hash), so the old pod goes and the new one comes — seen by fs.watch
    clock += 1000;
    events.length = 0;
    writeFileSync(join(dir, 'web.yaml'), pod('web', 'sleep 60'));
    await until(() => events.length >= 2, 'the watcher to see the change');
    assert.deepEqual(events, ['REMOVE web-node-a', 'ADD web-node-a']);
    const web2 = src.pods().find((p) => p.metadata.name === 'web-node-a')!;
    assert.notEqual(web2.metadata.uid, web.metadata.uid);
    assert.equal(web2.metadata.annotations?.['kubernetes.io/config.seen'], '2026-01-01T00:00:01Z');

    // a manifest that sets its own UID changes in place
    events.length = 0;
    writeFileSync(join(dir, 'fixed.yaml'), pod('fixed').replace('name: fixed}', 'name: fixed, uid: u-1}'));
    await src.syncFiles();
    writeFileSync(join(dir, 'fixed.yaml'), pod('fixed', 'sleep 5').replace('name: fixed}', 'name: fixed, uid: u-1}'));
    await src.syncFiles();
    assert.deepEqual(events.filter((e) => e.includes('fixed')), ['ADD fixed-node-a', 'UPDATE fixed-node-a']);

    // an invalid manifest is reported and its pod is left out; a removed file removes its pod
    events.length = 0;
    writeFileSync(join(dir, 'db.json'), '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"db"},"spec":{"containers":[]}}');
    unlinkSync(join(dir, 'fixed.yaml'));
    await src.syncFiles();
    assert.deepEqual(events.sort(), ['REMOVE db-node-a,fixed-node-a']);
    assert.ok(errors.some((e) => e.includes('db.json') && e.includes('invalid pod: spec.containers: Required value')), errors.join('\n'));
    assert.deepEqual(src.pods().map((p) => p.metadata.name), ['web-node-a']);

    // nothing changed: no events
    events.length = 0;
    await src.syncFiles();
    assert.deepEqual(events, []);
  } finally {
    src.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a manifest path that does not exist yet, and a single file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-static-'));
  const src = new StaticPodSource({ nodeName: 'node-a', path: join(dir, 'later'), fileCheckMs: 20 });
  const file = new StaticPodSource({ nodeName: 'node-a', path: join(dir, 'one.yaml'), fileCheckMs: 60_000 });
  try {
    await src.start();
    assert.deepEqual(src.pods(), []);
    mkdirSync(join(dir, 'later'));
    writeFileSync(join(dir, 'later', 'a.yaml'), pod('a'));
    await until(() => src.pods().length === 1, 'the poll to find the new folder');
    assert.deepEqual(src.pods().map((p) => p.metadata.name), ['a-node-a']);
    writeFileSync(join(dir, 'later', 'b.yaml'), pod('b'));
    await until(() => src.pods().length === 2, 'the second manifest');
    writeFileSync(join(dir, 'one.yaml'), pod('one'));
    await file.start();
    assert.deepEqual(file.pods().map((p) => p.metadata.name), ['one-node-a']);
  } finally {
    src.stop();
    file.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a manifest URL with headers: a pod, a pod list, errors', async () => {
  let body = pod('remote');
  let status = 200;
  let seen: IncomingHttpHeaders = {};
  const server = createServer((req, res) => {
    seen = req.headers;
    res.writeHead(status).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pods`;
  const events: string[] = [];
  const errors: string[] = [];
  const src = new StaticPodSource({ nodeName: 'node-a', url, headers: parseManifestHeaders(['X-Token:abc,X-Multi:1', 'X-Multi:2']), httpCheckMs: 60_000, onError: (_s, e) => errors.push(e.message) });
  src.onUpdate((u) => events.push(summary(u)));
  try {
    await src.start();
    assert.equal(seen['x-token'], 'abc');
    assert.equal(seen['x-multi'], '1, 2');
    assert.deepEqual(events, ['ADD remote-node-a']);
    assert.equal(src.pods()[0]!.metadata.annotations?.['kubernetes.io/config.source'], 'http');
    assert.equal((src.pods()[0]!.spec as { tolerations?: unknown }).tolerations, undefined);

    body = JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }] });
    events.length = 0;
    await src.syncURL();
    assert.deepEqual(events, ['REMOVE remote-node-a', 'ADD x-node-a']);

    // a failing server changes nothing; garbage is reported; an empty answer is an empty list
    status = 500;
    events.length = 0;
    await src.syncURL();
    status = 200;
    body = 'kind: Service\napiVersion: v1\n';
    await src.syncURL();
    assert.deepEqual(events, []);
    assert.match(errors[0]!, /: 500 Internal Server Error$/);
    assert.match(errors[1]!, /couldn't parse as single pod or pod list/);
    body = '';
    await src.syncURL();
    assert.deepEqual(events, ['REMOVE x-node-a']);
    assert.match(errors[2]!, /zero-length data received from http:/);
  } finally {
    src.stop();
    server.close();
  }
  assert.throws(() => parseManifestHeaders(['novalue']), /header must be of the format key:value/);
});
