import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ServerClosing } from './closing.js';
import { connectionGone, drained } from './drain.js';

test('ServerClosing: waiting handlers are told once when the shutdown begins; a handler taken back is not; a late one at once', () => {
  const c = new ServerClosing();
  const told: string[] = [];
  c.onBegin(() => told.push('a'));
  const takeBack = c.onBegin(() => told.push('b'));
  c.onBegin(() => told.push('c'));
  takeBack();
  assert.equal(c.begun, false);
  assert.equal(told.length, 0);
  c.begin();
  c.begin();
  assert.equal(c.begun, true);
  assert.deepEqual(told, ['a', 'c']);
  c.onBegin(() => told.push('late'));
  assert.deepEqual(told, ['a', 'c', 'late']);
});

test('connectionGone: a destroyed response, or a response whose HTTP/2 stream is destroyed', () => {
  const rows: [unknown, boolean][] = [
    [{}, false],
    [{ destroyed: false }, false],
    [{ destroyed: true }, true],
    [{ stream: { destroyed: false } }, false],
    [{ stream: { destroyed: true } }, true],
  ];
  for (const [res, gone] of rows) assert.equal(connectionGone(res), gone, JSON.stringify(res));
});

test('drained: false at once for a response already gone (its close event passed unheard); true on drain; false on close', async () => {
  const gone = new PassThrough();
  gone.destroy();
  assert.equal(await drained(new PassThrough(), gone), false);

  const sink = new PassThrough();
  const res = new PassThrough();
  const waiting = drained(sink, res);
  sink.emit('drain');
  assert.equal(await waiting, true);

  const closing = drained(sink, res);
  res.emit('close');
  assert.equal(await closing, false);
});
