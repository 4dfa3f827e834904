// emptyDir folders (kube's emptyDir plugin), also the base of the volumes the
// atomic writer fills: on disk a 0777 folder; medium Memory a tmpfs mounted on
// it (size= the least of sizeLimit, the pod's memory limit and the node's
// allocatable memory). Set-up is idempotent: a mounted tmpfs is kept.
import { chmod, mkdir, rm, stat } from 'node:fs/promises';
import { PluginError } from './errors.js';
import { resolve } from 'node:path';
import { isMountPoint, mountPoints, mountTmpfs, unmount } from './tmpfs.js';

export type Medium = 'disk' | 'memory';

export function mediumOf(medium: string | undefined): Medium {
  if (!medium) return 'disk';
  if (medium === 'Memory') return 'memory';
  if (medium === 'HugePages' || medium.startsWith('HugePages-')) throw new PluginError(`hugepages-backed emptyDir volumes (medium ${JSON.stringify(medium)}) are not supported by svc agent`);
  throw new PluginError(`unknown storage medium ${JSON.stringify(medium)}`);
}

export async function setupEmptyDir(dir: string, medium: Medium, sizeBytes?: bigint): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o777 });
  // Past the umask, but only when the bits differ: a chmod would also clear the setgid bit fsGroup set.
  if (((await stat(dir)).mode & 0o777) !== 0o777) await chmod(dir, 0o777);
  if (medium === 'memory' && !(await isMountPoint(dir))) await mountTmpfs(dir, sizeBytes);
}

/** Unmounts a tmpfs there (if any) and removes the folder; refuses while anything below is still mounted. */
export async function teardownDir(dir: string): Promise<void> {
  const full = resolve(dir);
  if (await isMountPoint(full)) await unmount(full);
  const below = (await mountPoints()).filter((m) => m === full || m.startsWith(`${full}/`));
  if (below.length > 0) throw new PluginError(`cannot remove ${full}: still mounted at ${below.join(', ')}`);
  await rm(full, { recursive: true, force: true });
}
