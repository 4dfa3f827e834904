import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { tempDir } from '../testing/tempdir.js';
import { backupName, oldLogFiles, RotatingFile } from './logfile.js';

const MB = 1024 * 1024;
/** A line of n bytes with the newline. */
const line = (c: string, n: number) => `${c.repeat(n - 1)}\n`;

describe('audit log rotation (lumberjack)', () => {
  it('names backups <prefix>-<UTC time with ms><ext>', () => {
    assert.equal(backupName('/var/log/audit.log', Date.UTC(2023, 3, 11, 10, 20, 30, 7)), '/var/log/audit-2023-04-11T10-20-30.007.log');
    assert.equal(backupName('/var/log/audit', Date.UTC(2023, 3, 11, 10, 20, 30, 7)), '/var/log/audit-2023-04-11T10-20-30.007');
  });

  it('rotates before a write that would pass maxSize, keeps maxBackups newest backups', async () => {
    const dir = tempDir('svc-audit-rotate-');
    const file = join(dir, 'audit.log');
    let now = Date.UTC(2023, 0, 1);
    const f = new RotatingFile(file, { maxSize: 1, maxBackups: 2, now: () => (now += 1000) });
    // 0.4 MB per line: two lines fit in 1 MB, the third starts a new file
    const size = Math.floor(0.4 * MB);
    f.writeLines([line('a', size), line('b', size)]);
    f.writeLines([line('c', size)]);
    f.writeLines([line('d', size), line('e', size), line('f', size), line('g', size)]);
    await f.milled();
    f.close();
    const backups = oldLogFiles(file).map((b) => b.name);
    assert.equal(backups.length, 2, `backups: ${readdirSync(dir).join(' ')}`);
    // newest first: the file with e,f… the current file holds g
    assert.equal(readFileSync(file, 'utf8'), line('g', size));
    assert.equal(readFileSync(join(dir, backups[0]!), 'utf8'), line('e', size) + line('f', size));
    assert.equal(readFileSync(join(dir, backups[1]!), 'utf8'), line('c', size) + line('d', size));
    assert.deepEqual(readdirSync(dir).sort(), ['audit.log', ...backups].sort());
  });

  it('appends to an existing file, rotates it when the first write would not fit', () => {
    const dir = tempDir('svc-audit-rotate-');
    const file = join(dir, 'audit.log');
    writeFileSync(file, 'old\n');
    const f = new RotatingFile(file, { maxSize: 1, now: () => Date.UTC(2023, 0, 1) });
    f.writeLines(['new\n']);
    f.close();
    assert.equal(readFileSync(file, 'utf8'), 'old\nnew\n');
    const g = new RotatingFile(file, { maxSize: 1, now: () => Date.UTC(2023, 0, 2) });
    g.writeLines([line('x', MB - 4)]);
    g.close();
    assert.equal(readFileSync(file, 'utf8'), line('x', MB - 4));
    assert.equal(readFileSync(join(dir, 'audit-2023-01-02T00-00-00.000.log'), 'utf8'), 'old\nnew\n');
  });

  it('refuses a line larger than maxSize', () => {
    const f = new RotatingFile(join(tempDir('svc-audit-rotate-'), 'a.log'), { maxSize: 1 });
    assert.throws(() => f.writeLines([line('x', MB + 1)]), { message: `write length ${MB + 1} exceeds maximum file size ${MB}` });
    f.close();
  });

  it('compresses backups and removes those older than maxAge days', async () => {
    const dir = tempDir('svc-audit-rotate-');
    const file = join(dir, 'audit.log');
    const day = 24 * 3600 * 1000;
    writeFileSync(join(dir, 'audit-2022-01-01T00-00-00.000.log'), 'ancient\n');
    let now = Date.UTC(2023, 0, 10);
    const f = new RotatingFile(file, { maxSize: 1, maxAge: 3, compress: true, now: () => now });
    f.writeLines([line('a', MB - 10)]);
    now += day;
    f.writeLines([line('b', 100)]);
    await f.milled();
    f.close();
    const names = readdirSync(dir).sort();
    assert.deepEqual(names, ['audit-2023-01-11T00-00-00.000.log.gz', 'audit.log']);
    assert.equal(gunzipSync(readFileSync(join(dir, names[0]!))).toString(), line('a', MB - 10));
  });
});
