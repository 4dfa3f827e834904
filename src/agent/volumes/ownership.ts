// fsGroup ownership (kube's volume.SetVolumeOwnership): every file and folder
// of a volume gets the group fsGroup; files gain rw (or r for read-only
// volumes) for owner and group, folders also x and the setgid bit, so files
// made later inherit the group. Symlinks get the group but no chmod (that
// would change their target). With fsGroupChangePolicy OnRootMismatch the walk
// is skipped when the volume's root already has the group, the bits and setgid.
import { chmod, lchown, lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const RW_MASK = 0o660;
const RO_MASK = 0o440;
const EXEC_MASK = 0o110;
const SETGID = 0o2000;

export interface OwnershipOptions {
  readonly fsGroup: number;
  readonly readOnly: boolean;
  readonly changePolicy?: string;
}

export async function setVolumeOwnership(dir: string, opts: OwnershipOptions): Promise<void> {
  if (opts.changePolicy === 'OnRootMismatch' && !(await requiresPermissionChange(dir, opts))) return;
  await walk(dir, opts);
}

async function requiresPermissionChange(dir: string, opts: OwnershipOptions): Promise<boolean> {
  let st;
  try {
    st = await stat(dir);
  } catch {
    return true;
  }
  if (st.gid !== opts.fsGroup || !st.isDirectory()) return true;
  const want = (opts.readOnly ? RO_MASK : RW_MASK) | EXEC_MASK;
  return (st.mode & want) !== want || (st.mode & SETGID) === 0;
}

async function walk(path: string, opts: OwnershipOptions): Promise<void> {
  const st = await lstat(path);
  await lchown(path, st.uid, opts.fsGroup);
  if (st.isSymbolicLink()) return;
  let mask = opts.readOnly ? RO_MASK : RW_MASK;
  if (st.isDirectory()) mask |= SETGID | EXEC_MASK;
  await chmod(path, (st.mode & 0o7777) | mask);
  if (st.isDirectory()) for (const name of await readdir(path)) await walk(join(path, name), opts);
}
