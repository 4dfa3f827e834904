import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkHostPath } from './hostpath.js';

let root = '';
let server: Server;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-hp-'));
  await mkdir(join(root, 'dir'));
  await writeFile(join(root, 'file'), 'content');
  await symlink(join(root, 'dir'), join(root, 'link-to-dir'));
  server = createServer();
  await new Promise<void>((res) => server.listen(join(root, 'sock'), res));
});
after(async () => {
  await new Promise((res) => server.close(res));
  await rm(root, { recursive: true, force: true });
});

// [type, path under root (or absolute), expected error or undefined]
const rows: [string, string, string | undefined][] = [
  ['', 'missing', undefined],
  ['Directory', 'dir', undefined],
  ['Directory', 'link-to-dir', undefined],
  ['Directory', 'file', 'hostPath type check failed: R/file is not a directory'],
  ['Directory', 'missing', 'hostPath type check failed: R/missing is not a directory'],
  ['DirectoryOrCreate', 'dir', undefined],
  ['DirectoryOrCreate', 'file', 'hostPath type check failed: R/file is not a directory'],
  ['File', 'file', undefined],
  ['File', 'dir', 'hostPath type check failed: R/dir is not a file'],
  ['File', 'missing', 'hostPath type check failed: R/missing is not a file'],
  ['FileOrCreate', 'file', undefined],
  ['FileOrCreate', 'dir', 'hostPath type check failed: R/dir is not a file'],
  ['Socket', 'sock', undefined],
  ['Socket', 'file', 'hostPath type check failed: R/file is not a socket file'],
  ['CharDevice', '/dev/null', undefined],
  ['CharDevice', 'file', 'hostPath type check failed: R/file is not a character device'],
  ['BlockDevice', 'dir', 'hostPath type check failed: R/dir is not a block device'],
  ['BlockDevice', '/dev/null', 'hostPath type check failed: /dev/null is not a block device'],
  ['Weird', 'dir', 'Weird is an invalid volume type'],
];

describe('checkHostPath', () => {
  for (const [type, rel, want] of rows) {
    it(`${type || '(unset)'} on ${rel}`, async () => {
      const path = rel.startsWith('/') ? rel : join(root, rel);
      const p = checkHostPath(path, type);
      if (want === undefined) await p;
      else await assert.rejects(p, { message: want.replace('R/', `${root}/`) });
    });
  }

  it('DirectoryOrCreate makes the folder (0755), parents too', async () => {
    const path = join(root, 'made/deep');
    await checkHostPath(path, 'DirectoryOrCreate');
    const st = await stat(path);
    assert.ok(st.isDirectory());
    assert.equal(st.mode & 0o777, 0o755 & ~process.umask());
  });

  it('FileOrCreate makes an empty file and leaves an existing one alone', async () => {
    const path = join(root, 'new-file');
    await checkHostPath(path, 'FileOrCreate');
    assert.equal(await readFile(path, 'utf8'), '');
    await checkHostPath(join(root, 'file'), 'FileOrCreate');
    assert.equal(await readFile(join(root, 'file'), 'utf8'), 'content');
  });

  it('FileOrCreate in a missing folder fails as Go words it', async () => {
    await assert.rejects(checkHostPath(join(root, 'no-dir/f'), 'FileOrCreate'), { message: `open ${root}/no-dir/f: no such file or directory` });
  });

  it("refuses paths with '..'", async () => {
    await assert.rejects(checkHostPath('/tmp/../etc', 'Directory'), { message: "invalid HostPath `/tmp/../etc`: must not contain '..'" });
  });
});
