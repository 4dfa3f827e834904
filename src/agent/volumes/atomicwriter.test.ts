import assert from 'node:assert/strict';
import { lstat, mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AtomicWriter, validatePath, type Payload } from './atomicwriter.js';

const T0 = Date.parse('2026-11-27T14:40:05Z');
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function target(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'svc-aw-'));
  dirs.push(d);
  return d;
}

const p = (files: Record<string, string | [string, number]>): Payload =>
  new Map(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? { data: Buffer.from(v), mode: 0o644 } : { data: Buffer.from(v[0]), mode: v[1] }]));

/** The folder as a container sees it: user-visible names with their contents (through the links). */
async function visible(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const n of (await readdir(join(dir, rel))).sort()) {
      if (rel === '' && n.startsWith('..')) continue;
      const r = rel ? `${rel}/${n}` : n;
      if ((await stat(join(dir, r))).isDirectory()) await walk(r);
      else out[r] = await readFile(join(dir, r), 'utf8');
    }
  };
  await walk('');
  return out;
}

const versions = async (dir: string) => (await readdir(dir)).filter((n) => n.startsWith('..') && n !== '..data').sort();

describe('AtomicWriter', () => {
  it('lays out a version folder, the ..data link and one link per top-level name', async () => {
    const dir = await target();
    const w = new AtomicWriter(dir, 'pod ns/p volume v', { now: () => T0 });
    assert.equal(await w.write(p({ a: 'A', 'sub/b': ['B', 0o600] })), true);
    const data = await readlink(join(dir, '..data'));
    assert.match(data, /^\.\.2026_11_27_14_40_05\./);
    assert.equal(await readlink(join(dir, 'a')), '..data/a');
    assert.equal(await readlink(join(dir, 'sub')), '..data/sub');
    assert.deepEqual(await visible(dir), { a: 'A', 'sub/b': 'B' });
    assert.equal((await stat(join(dir, 'sub/b'))).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, data))).mode & 0o777, 0o755);
  });

  const rows: { name: string; first: Payload; second: Payload; changed: boolean; want: Record<string, string>; gone?: string[] }[] = [
    { name: 'same contents: no new version', first: p({ a: 'A' }), second: p({ a: 'A' }), changed: false, want: { a: 'A' } },
    { name: 'a changed file: a new version', first: p({ a: 'A', b: 'B' }), second: p({ a: 'A2', b: 'B' }), changed: true, want: { a: 'A2', b: 'B' } },
    { name: 'a key gone: its link removed', first: p({ a: 'A', b: 'B' }), second: p({ a: 'A' }), changed: true, want: { a: 'A' }, gone: ['b'] },
    { name: 'a nested file gone, the folder stays', first: p({ 'd/x': 'X', 'd/y': 'Y' }), second: p({ 'd/x': 'X' }), changed: true, want: { 'd/x': 'X' } },
    { name: 'a key added', first: p({ a: 'A' }), second: p({ a: 'A', c: 'C' }), changed: true, want: { a: 'A', c: 'C' } },
    { name: 'everything gone', first: p({ a: 'A' }), second: p({}), changed: true, want: {}, gone: ['a'] },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const dir = await target();
      let t = T0;
      const w = new AtomicWriter(dir, 'ctx', { now: () => (t += 1000) });
      await w.write(r.first);
      const before = await versions(dir);
      assert.equal(await w.write(r.second), r.changed);
      assert.deepEqual(await visible(dir), r.want);
      const now = await versions(dir);
      assert.equal(now.length, 1, 'only one version folder is kept');
      if (r.changed) assert.notDeepEqual(now, before);
      else assert.deepEqual(now, before);
      for (const g of r.gone ?? []) await assert.rejects(lstat(join(dir, g)), { code: 'ENOENT' });
    });
  }

  it('runs beforeSwitch on the new version before ..data points at it', async () => {
    const dir = await target();
    let seen = '';
    const w = new AtomicWriter(dir, 'ctx', {
      beforeSwitch: async (v) => {
        seen = v;
        await assert.rejects(readlink(join(dir, '..data')));
      },
    });
    await w.write(p({ a: 'A' }));
    assert.equal(join(dir, await readlink(join(dir, '..data'))), seen);
  });

  const invalid: [string, string][] = [
    ['', 'invalid path: must not be empty: ""'],
    ['/abs', 'invalid path: must be relative path: /abs'],
    ['a/../b', "invalid path: must not contain '..': a/../b"],
    ['..hidden', "invalid path: must not start with '..': ..hidden"],
    ['x'.repeat(256), 'invalid path: filenames must be less than or equal to 255 characters'],
    [`${'d/'.repeat(2100)}f`, 'invalid path: must be less than or equal to 4096 characters'],
  ];
  for (const [path, msg] of invalid) {
    it(`rejects the path ${JSON.stringify(path.slice(0, 20))}`, async () => {
      assert.throws(() => validatePath(path), { message: msg });
      const dir = await target();
      await assert.rejects(new AtomicWriter(dir, 'ctx').write(p({ [path]: 'x' })), { message: msg });
      assert.deepEqual(await readdir(dir), [], 'nothing written');
    });
  }
});
