// Writing objects in the negotiated encoding: protobuf where the kind has it
// (in the spelling asked for), the text fallback or 406 where it has not,
// errors as a protobuf Status, and unpaged protobuf lists written in pieces.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { newNotFound } from '../api/meta/index.js';
import { decodeObject } from '../protobuf/index.js';
import type { RequestContext } from './context.js';
import { writeError, writeObject, writeProtobufList } from './respond.js';

/** A response that records what is written; `write` reports backpressure every other call. */
class FakeResponse extends EventEmitter {
  statusCode = 0;
  headers: Record<string, unknown> = {};
  chunks: Buffer[] = [];
  headersSent = false;
  writableEnded = false;
  private calls = 0;
  setHeader(k: string, v: unknown) {
    this.headers[k.toLowerCase()] = v;
  }
  getHeader(k: string) {
    return this.headers[k.toLowerCase()];
  }
  write(c: string | Buffer) {
    this.chunks.push(Buffer.from(c));
    if (++this.calls % 2 === 0) {
      setImmediate(() => this.emit('drain'));
      return false;
    }
    return true;
  }
  end(c?: string | Buffer) {
    if (c !== undefined) this.chunks.push(Buffer.from(c));
    this.writableEnded = true;
  }
  get body() {
    return Buffer.concat(this.chunks);
  }
}

const ctxFor = (accept: string) => {
  const res = new FakeResponse();
  const ctx = { req: { headers: { accept }, method: 'GET', url: '/' }, res, url: new URL('https://x/') } as unknown as RequestContext;
  return { ctx, res };
};

const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } };

describe('respond', () => {
  it('writes protobuf in the spelling asked for', () => {
    for (const type of ['application/vnd.kubernetes.protobuf', 'application/vnd.svc.protobuf']) {
      const { ctx, res } = ctxFor(`${type}, application/json`);
      writeObject(ctx, 200, cm);
      assert.equal(res.headers['content-type'], type);
      assert.deepEqual(decodeObject(res.body), cm);
    }
  });

  it('falls back to the next acceptable text type for kinds without protobuf, else 406', () => {
    const table = { apiVersion: 'meta.k8s.io/v1', kind: 'Table', columnDefinitions: [], rows: [] };
    const a = ctxFor('application/vnd.kubernetes.protobuf, application/json');
    writeObject(a.ctx, 200, table);
    assert.equal(a.res.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(a.res.body.toString()), table);
    const b = ctxFor('application/vnd.kubernetes.protobuf');
    writeObject(b.ctx, 200, table);
    assert.equal(b.res.statusCode, 406);
    assert.equal(JSON.parse(b.res.body.toString()).reason, 'NotAcceptable');
  });

  it('errors are a protobuf Status when protobuf is negotiated', () => {
    const { ctx, res } = ctxFor('application/vnd.kubernetes.protobuf');
    writeError(ctx, newNotFound({ group: '', resource: 'configmaps' }, 'x'));
    assert.equal(res.statusCode, 404);
    const s = decodeObject(res.body);
    assert.deepEqual([s.kind, s.reason, s.code, s.message], ['Status', 'NotFound', 404, 'configmaps "x" not found']);
  });

  it('writes an unpaged list in pieces, with backpressure, to one valid envelope', async () => {
    const { ctx, res } = ctxFor('application/vnd.kubernetes.protobuf');
    async function* chunks() {
      yield { revision: 9, items: [{ ...cm, metadata: { name: 'a' } }, { ...cm, metadata: { name: 'b' } }] };
      yield { revision: 9, items: [{ ...cm, metadata: { name: 'c' } }] };
    }
    await writeProtobufList(ctx, chunks(), 'ConfigMapList', 'v1');
    assert.ok(res.writableEnded);
    assert.ok(res.chunks.length > 3, 'written in pieces');
    const list = decodeObject(res.body) as { kind: string; metadata: unknown; items: { metadata: { name: string } }[] };
    assert.equal(list.kind, 'ConfigMapList');
    assert.deepEqual(list.metadata, { resourceVersion: '9' });
    assert.deepEqual(list.items.map((i) => i.metadata.name), ['a', 'b', 'c']);
  });
});
