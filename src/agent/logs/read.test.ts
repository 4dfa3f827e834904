import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../testing/tempdir.js';
import { formatTimestamp, parseCriLine, parseTimestamp } from './crilog.js';
import { readLogs, type LogOptions } from './read.js';

const FILE = [
  '2026-01-01T00:00:01.000000000Z stdout F one\n',
  '2026-01-01T00:00:02.500000000Z stderr F two\n',
  '2026-01-01T00:00:03.123456789Z stdout P thr\n',
  '2026-01-01T00:00:03.2Z stdout F ee\n',
  'garbage line\n',
  '2026-01-01T00:00:04Z stdout F four\n',
].join('');

async function read(text: string, options: LogOptions): Promise<string> {
  const dir = tempDir('svc-logs-');
  const path = join(dir, '0.log');
  writeFileSync(path, text);
  let out = '';
  await readLogs({ path, options, sink: { write: (b) => void (out += b.toString()) } });
  return out;
}

const cases: { name: string; options: LogOptions; text?: string; want: string }[] = [
  { name: 'everything, partial lines joined, bad line skipped', options: {}, want: 'one\ntwo\nthree\nfour\n' },
  { name: 'timestamps: one prefix per output line, Go RFC3339Nano', options: { timestamps: true },
    want: '2026-01-01T00:00:01Z one\n2026-01-01T00:00:02.5Z two\n2026-01-01T00:00:03.123456789Z three\n2026-01-01T00:00:04Z four\n' },
  { name: 'tailLines 1', options: { tailLines: 1 }, want: 'four\n' },
  { name: 'tailLines 2 counts file lines (the garbage line is one)', options: { tailLines: 2 }, want: 'four\n' },
  { name: 'tailLines 3 starts in the middle of a partial pair', options: { tailLines: 3 }, want: 'ee\nfour\n' },
  { name: 'tailLines 0', options: { tailLines: 0 }, want: '' },
  { name: 'tailLines beyond the file', options: { tailLines: 100 }, want: 'one\ntwo\nthree\nfour\n' },
  { name: 'since drops older entries', options: { sinceNs: parseTimestamp('2026-01-01T00:00:02.5Z') }, want: 'two\nthree\nfour\n' },
  { name: 'since between the parts of a partial line', options: { sinceNs: parseTimestamp('2026-01-01T00:00:03.15Z') }, want: 'ee\nfour\n' },
  { name: 'limitBytes cuts the last entry', options: { limitBytes: 6 }, want: 'one\ntw' },
  { name: 'limitBytes counts the timestamp prefix', options: { limitBytes: 24, timestamps: true }, want: '2026-01-01T00:00:01Z one' },
  { name: 'an incomplete last line is still written', options: {}, text: '2026-01-01T00:00:01Z stdout F a\n2026-01-01T00:00:02Z stdout F b', want: 'a\nb' },
  { name: 'empty file', options: { tailLines: 3 }, text: '', want: '' },
];

const many = Array.from({ length: 3000 }, (_, i) => `2026-01-01T00:00:01Z stdout F line ${i}\n`).join('');
cases.push(
  { name: 'tailLines across many blocks', options: { tailLines: 2500 }, text: many, want: Array.from({ length: 2500 }, (_, i) => `line ${i + 500}\n`).join('') },
  { name: 'limitBytes across blocks', options: { limitBytes: 70_000 }, text: many.repeat(3), want: Array.from({ length: 9000 }, (_, i) => `line ${i % 3000}\n`).join('').slice(0, 70_000) },
);

for (const c of cases) {
  test(`readLogs: ${c.name}`, async () => {
    assert.equal(await read(c.text ?? FILE, c.options), c.want);
  });
}

test('parseCriLine: errors in kube wording; a partial entry loses its newline', () => {
  assert.throws(() => parseCriLine(Buffer.from('nospace')), /timestamp is not found/);
  assert.throws(() => parseCriLine(Buffer.from('2026-01-01T00:00:01Z stdin F x')), /unexpected stream type "stdin"/);
  assert.throws(() => parseCriLine(Buffer.from('2026-01-01T00:00:01Z stdout')), /stream type is not found/);
  assert.throws(() => parseCriLine(Buffer.from('yesterday stdout F x')), /as RFC3339Nano/);
  const e = parseCriLine(Buffer.from('2026-01-01T00:00:01Z stdout P:x abc\n'));
  assert.equal(e.partial, true);
  assert.equal(e.content.toString(), 'abc');
  assert.equal(formatTimestamp('2026-01-01T00:00:01.120000000+02:00'), '2026-01-01T00:00:01.12+02:00');
});

test('readLogs follow: new lines, a rotation (the runtime reopens the path), the container ending', async () => {
  const dir = tempDir('svc-logs-');
  const path = join(dir, '0.log');
  writeFileSync(path, '2026-01-01T00:00:01Z stdout F first\n');
  let out = '';
  let running = true;
  let waiters: (() => void)[] = [];
  const seen = (s: string) => new Promise<void>((r) => { const check = () => (out.includes(s) ? r() : waiters.push(check)); check(); });
  const sink = { write: (b: Buffer) => { out += b.toString(); const w = waiters; waiters = []; w.forEach((f) => f()); } };
  const done = readLogs({ path, options: { follow: true }, sink, isRunning: async () => running, checkIntervalMs: 20 });
  await seen('first\n');
  appendFileSync(path, '2026-01-01T00:00:02Z stdout P sec');
  appendFileSync(path, 'ond-part\n2026-01-01T00:00:02Z stdout F ond\n');
  await seen('second-part');
  // rotation: the old file gets one more line after the rename, then the runtime reopens the path
  renameSync(path, `${path}.20260101-000003`);
  appendFileSync(`${path}.20260101-000003`, '2026-01-01T00:00:03Z stdout F late-in-old\n');
  writeFileSync(path, '2026-01-01T00:00:04Z stdout F in-new\n');
  await seen('in-new\n');
  appendFileSync(path, '2026-01-01T00:00:05Z stdout F last\n');
  running = false;
  await done;
  assert.equal(out, 'first\nsecond-partond\nlate-in-old\nin-new\nlast\n');
});

test('readLogs follow ends when the reader is aborted', async () => {
  const dir = tempDir('svc-logs-');
  const path = join(dir, '0.log');
  writeFileSync(path, '2026-01-01T00:00:01Z stdout F x\n');
  const ac = new AbortController();
  let out = '';
  const done = readLogs({ path, options: { follow: true }, sink: { write: (b) => { out += b.toString(); ac.abort(); } }, signal: ac.signal, checkIntervalMs: 20 });
  await done;
  assert.equal(out, 'x\n');
});
