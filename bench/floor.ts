// The floor: a server that does only what any server must do for the
// benchmarks' requests on this machine — TLS and HTTP (HTTP/1.1 and HTTP/2,
// Node's http2 module as svc uses it), decode the body, encode the object,
// write it to SQLite with an fsync before answering (WAL, group commit, the
// fsync on the thread pool as svc does), and for a watch, write each create's
// line to every open watch stream. No authentication, admission, defaulting,
// validation, field management, watch cache or selectors.
//
// Run against the same load generators as `svc server`, it shows how much of
// a target's budget the machine itself takes: a figure svc cannot beat.
//
//   node dist/bench/floor.js <dir with pki/apiserver.{crt,key}> <port> [stored.json]
//
// Understands exactly the requests the benchmarks send:
//   PATCH <path>                      (apply bench) the object in stored.json with the
//                                     body's metadata.annotations merged in → 200
//   POST  /api/v1/namespaces          → 201
//   GET   /api/v1/namespaces/<ns>/configmaps            → an empty list
//   GET   /api/v1/namespaces/<ns>/configmaps?watch=1…  → a watch stream
//   POST  /api/v1/namespaces/<ns>/configmaps           → 201; its ADDED line to every watch
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, fsync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { untilPrinted } from './report.js';

type Req = http2.Http2ServerRequest;
type Res = http2.Http2ServerResponse;

interface Write {
  readonly key: string;
  readonly value: Buffer;
  readonly done: (revision: number) => void;
}

/** SQLite as svc's embedded store writes it: one row per change, fsync of the WAL on the thread pool, batches share an fsync. */
function openStore(dir: string) {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 1000');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE kv (revision INTEGER PRIMARY KEY, key TEXT NOT NULL, value BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO kv (revision, key, value) VALUES (?, ?, ?)');
  const wal = openSync(join(dir, 'floor.db-wal'), 'r+');
  let revision = 0;
  let queued: Write[] = [];
  let unsynced: { w: Write; rev: number }[] = [];
  let syncing = false;
  const sync = () => {
    if (syncing || unsynced.length === 0) return;
    syncing = true;
    const batch = unsynced;
    unsynced = [];
    fsync(wal, (err) => {
      if (err) throw err;
      syncing = false;
      for (const { w, rev } of batch) w.done(rev);
      sync();
    });
  };
  const commit = db.transaction((batch: Write[]) => {
    for (const w of batch) {
      insert.run(++revision, w.key, w.value);
      unsynced.push({ w, rev: revision });
    }
  });
  return {
    get revision() {
      return revision;
    },
    write(w: Write) {
      if (queued.length === 0) {
        setImmediate(() => {
          const batch = queued;
          queued = [];
          commit(batch);
          sync();
        });
      }
      queued.push(w);
    },
    close() {
      closeSync(wal);
      db.close();
    },
  };
}

function serve(dir: string, port: number, storedFile: string | undefined): void {
  const store = openStore(mkdtempSync(join(dir, 'floor-')));
  const template = storedFile ? (JSON.parse(readFileSync(storedFile, 'utf8')) as { metadata: Record<string, unknown> }) : undefined;
  const latest = new Map<string, { metadata: Record<string, unknown> }>();
  const watches = new Set<http2.ServerHttp2Stream>();
  const json = (res: Res, status: number, body: string | Buffer) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
    res.end(body);
  };
  const handle = (req: Req, res: Res, body: Buffer) => {
    const url = new URL(req.url, 'https://floor');
    const path = url.pathname;
    if (req.method === 'PATCH' && template) {
      const applied = JSON.parse(body.toString('utf8')) as { metadata?: { annotations?: Record<string, string> } };
      const live = latest.get(path) ?? template;
      const meta = live.metadata;
      const next = { ...live, metadata: { ...meta, annotations: { ...(meta.annotations as Record<string, string>), ...applied.metadata?.annotations } } };
      latest.set(path, next);
      const value = Buffer.from(JSON.stringify(next));
      store.write({ key: path, value, done: () => json(res, 200, value) });
      return;
    }
    if (req.method === 'POST' && path === '/api/v1/namespaces') return json(res, 201, body);
    const cm = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps$/.exec(path);
    if (cm && req.method === 'GET' && url.searchParams.get('watch') === '1') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
      const stream = res.stream;
      watches.add(stream);
      stream.on('close', () => watches.delete(stream));
      stream.on('error', () => watches.delete(stream));
      return;
    }
    if (cm && req.method === 'GET') return json(res, 200, JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(store.revision) }, items: [] }));
    if (cm && req.method === 'POST') {
      const posted = JSON.parse(body.toString('utf8')) as { metadata: { name: string }; data?: Record<string, string> };
      const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: posted.metadata.name, namespace: cm[1], uid: randomUUID(), resourceVersion: '', creationTimestamp: new Date().toISOString().slice(0, 19) + 'Z' }, data: posted.data };
      const text = JSON.stringify(obj);
      store.write({
        key: `${cm[1]}/${posted.metadata.name}`,
        value: Buffer.from(text),
        done: (rev) => {
          const served = text.replace('"resourceVersion":""', `"resourceVersion":"${rev}"`);
          const line = Buffer.from(`{"type":"ADDED","object":${served}}\n`);
          for (const w of watches) w.write(line);
          json(res, 201, served);
        },
      });
      return;
    }
    json(res, 404, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
  };
  const server = http2.createSecureServer(
    { allowHTTP1: true, cert: readFileSync(join(dir, 'pki', 'apiserver.crt')), key: readFileSync(join(dir, 'pki', 'apiserver.key')), settings: { maxConcurrentStreams: 1000 } },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => handle(req, res, Buffer.concat(chunks)));
    },
  );
  server.listen(port, '127.0.0.1', () => console.log('floor server listening'));
  process.on('SIGTERM', () => {
    store.close();
    process.exit(0);
  });
}

/** Starts the floor server as its own process (TLS from `dir`/pki, as `svc server` wrote it) and waits until it listens. */
export async function startFloor(dir: string, port: number, storedFile?: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), dir, String(port), ...(storedFile ? [storedFile] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  await untilPrinted(proc, 'listening', 'floor server', 10_000);
  return proc;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(process.argv[2]!, Number(process.argv[3]), process.argv[4]);
