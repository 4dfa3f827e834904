// tmpfs mounts (emptyDir medium Memory; secret and projected volumes, which
// kube keeps off the disk) through mount(8)/umount(8), and whether a path is a
// mount point, from /proc/self/mountinfo.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { PluginError } from './errors.js';

const run = promisify(execFile);

/** The mount points of this process's mount namespace (octal escapes decoded). */
export async function mountPoints(): Promise<string[]> {
  const text = await readFile('/proc/self/mountinfo', 'utf8');
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const field = line.split(' ')[4];
    if (field) out.push(field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
  }
  return out;
}

export async function isMountPoint(path: string): Promise<boolean> {
  const p = resolve(path);
  return (await mountPoints()).includes(p);
}

/** Mounts a tmpfs at `dir` (which must exist); `sizeBytes` > 0 becomes `size=`. */
export async function mountTmpfs(dir: string, sizeBytes?: bigint): Promise<void> {
  const args = ['-t', 'tmpfs'];
  if (sizeBytes !== undefined && sizeBytes > 0n) args.push('-o', `size=${sizeBytes}`);
  args.push('tmpfs', dir);
  try {
    await run('mount', args);
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new PluginError(`mount failed: ${e.message.split('\n')[0]}\nMounting command: mount\nMounting arguments: ${args.join(' ')}\nOutput: ${(e.stderr ?? '').trim()}`);
  }
}

export async function unmount(dir: string): Promise<void> {
  try {
    await run('umount', [dir]);
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new PluginError(`unmount failed: ${(e.stderr ?? e.message).trim()}\nUnmounting arguments: ${dir}`);
  }
}
