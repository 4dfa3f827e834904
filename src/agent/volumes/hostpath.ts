// hostPath volumes (kube's hostPath plugin): the node's path itself is what
// the container mounts; `type` decides what must be there first.
//   DirectoryOrCreate  missing → mkdir -p (0755); then as Directory
//   Directory          must be a directory (symlinks followed)
//   FileOrCreate       missing → empty file (0644); then as File
//   File               must be a regular file
//   Socket / CharDevice / BlockDevice   must be one
//   "" (unset)         no check
import { mkdir, open, stat } from 'node:fs/promises';
import { goOsError, PluginError } from './errors.js';

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

const DESCRIPTIONS: Record<string, [string, (s: NonNullable<Awaited<ReturnType<typeof statOrUndefined>>>) => boolean]> = {
  Directory: ['directory', (s) => s.isDirectory()],
  File: ['file', (s) => s.isFile()],
  Socket: ['socket file', (s) => s.isSocket()],
  CharDevice: ['character device', (s) => s.isCharacterDevice()],
  BlockDevice: ['block device', (s) => s.isBlockDevice()],
};

/** Checks (and for the *OrCreate types makes) what `type` asks for at `path`; PluginError with kube's text otherwise. */
export async function checkHostPath(path: string, type: string | undefined): Promise<void> {
  if (path.split('/').includes('..')) throw new PluginError(`invalid HostPath \`${path}\`: must not contain '..'`);
  if (!type) return;
  let want = type;
  if (type === 'DirectoryOrCreate' || type === 'FileOrCreate') {
    want = type === 'DirectoryOrCreate' ? 'Directory' : 'File';
    if (!(await statOrUndefined(path))) {
      try {
        if (want === 'Directory') await mkdir(path, { recursive: true, mode: 0o755 });
        else await (await open(path, 'a', 0o644)).close();
      } catch (err) {
        throw new PluginError(goOsError(want === 'Directory' ? 'mkdir' : 'open', path, err));
      }
      return;
    }
  }
  const check = DESCRIPTIONS[want];
  if (!check) throw new PluginError(`${type} is an invalid volume type`);
  const st = await statOrUndefined(path);
  if (!st || !check[1](st)) throw new PluginError(`hostPath type check failed: ${path} is not a ${check[0]}`);
}
