// The atomic writer (kube's AtomicWriter): a volume's files change all at once
// or not at all, as a container sees them.
//
//   <dir>/..2026_11_27_14_40_00.Ab12Cd/   the files of one version (timestamped folder)
//   <dir>/..data -> ..2026_11_27_14_40_00.Ab12Cd   switched by renaming ..data_tmp over it
//   <dir>/<name> -> ..data/<name>          one link per top-level name the user sees
//
// write(payload):
//   validate paths → read ..data (the old version) → which old paths are gone
//   → nothing changed and nothing gone: stop
//   → new timestamped folder, files written with their modes (chmod, past the umask)
//   → ..data_tmp → new folder, renamed over ..data (the atomic switch)
//   → links for new top-level names; links of names gone removed → old folder removed
import { chmod, chown, lstat, mkdir, mkdtemp, readFile, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, normalize, posix } from 'node:path';
import { PluginError } from './errors.js';

const DATA_DIR = '..data';
const DATA_DIR_TMP = '..data_tmp';
const MAX_FILE_NAME_LENGTH = 255;
const MAX_PATH_LENGTH = 4096;

export interface FileProjection {
  readonly data: Uint8Array;
  /** Permission bits. */
  readonly mode: number;
  /** The owner to give the file (the projected token when RunAsUser is set). */
  readonly fsUser?: number;
}

export type Payload = Map<string, FileProjection>;

/** A payload path as kube accepts it; throws PluginError with kube's wording. */
export function validatePath(target: string): void {
  if (target === '') throw new PluginError(`invalid path: must not be empty: ""`);
  if (posix.isAbsolute(target)) throw new PluginError(`invalid path: must be relative path: ${target}`);
  if (target.length > MAX_PATH_LENGTH) throw new PluginError(`invalid path: must be less than or equal to ${MAX_PATH_LENGTH} characters`);
  const items = target.split('/');
  for (const item of items) {
    if (item === '..') throw new PluginError(`invalid path: must not contain '..': ${target}`);
    if (item.length > MAX_FILE_NAME_LENGTH) throw new PluginError(`invalid path: filenames must be less than or equal to ${MAX_FILE_NAME_LENGTH} characters`);
  }
  if (items[0]!.startsWith('..') && items[0]!.length > 2) throw new PluginError(`invalid path: must not start with '..': ${target}`);
}

/** `2006_01_02_15_04_05.` of a UTC time, the prefix of a version folder (after the leading dots). */
function stamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}.`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

export interface AtomicWriterOptions {
  readonly now?: () => number;
  /** Runs on the new version folder before it is switched in. */
  readonly beforeSwitch?: (versionDir: string) => Promise<void>;
}

export class AtomicWriter {
  constructor(
    readonly targetDir: string,
    /** Names the volume in errors: "pod ns/name volume v". */
    readonly context: string,
    private readonly opts: AtomicWriterOptions = {},
  ) {}

  /** Writes the payload; true when a new version was switched in. */
  async write(payload: Payload): Promise<boolean> {
    const clean = new Map<string, FileProjection>();
    for (const [p, f] of payload) {
      validatePath(p);
      clean.set(normalize(p).replace(/\/+$/, ''), f);
    }
    const dataPath = join(this.targetDir, DATA_DIR);
    let oldVersion = '';
    try {
      oldVersion = await readlink(dataPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new PluginError(`${this.context}: error reading link for data directory: ${(err as Error).message}`);
    }
    const oldPath = oldVersion ? join(this.targetDir, oldVersion) : '';
    const gone = oldPath ? await this.pathsToRemove(clean, oldPath) : [];
    const changed = !oldPath || gone.length > 0 || (await this.differs(clean, oldPath));
    if (changed) {
      const now = this.opts.now ?? Date.now;
      const versionDir = await mkdtemp(join(this.targetDir, `..${stamp(now())}`));
      await chmod(versionDir, 0o755);
      await this.writePayload(clean, versionDir);
      await this.opts.beforeSwitch?.(versionDir);
      const tmp = join(this.targetDir, DATA_DIR_TMP);
      await rm(tmp, { force: true });
      await symlink(basename(versionDir), tmp);
      await rename(tmp, dataPath);
    }
    await this.createUserVisibleFiles(clean);
    for (const p of gone) if (!p.includes('/')) await rm(join(this.targetDir, p), { force: true });
    if (changed && oldPath) await rm(oldPath, { recursive: true, force: true });
    return changed;
  }

  /** Paths (files and folders, relative) of the old version that the new payload does not have. */
  private async pathsToRemove(payload: Payload, oldPath: string): Promise<string[]> {
    const keep = new Set<string>();
    for (const p of payload.keys()) {
      let d = p;
      while (d !== '.' && d !== '') {
        keep.add(d);
        d = dirname(d);
      }
    }
    const out: string[] = [];
    const visit = async (rel: string): Promise<void> => {
      let names: string[];
      try {
        names = await readdir(join(oldPath, rel));
      } catch {
        return;
      }
      for (const n of names) {
        const r = rel ? `${rel}/${n}` : n;
        if (!keep.has(r)) out.push(r);
        if ((await lstat(join(oldPath, r))).isDirectory()) await visit(r);
      }
    };
    await visit('');
    return out;
  }

  private async differs(payload: Payload, oldPath: string): Promise<boolean> {
    for (const [p, f] of payload) {
      let old: Buffer;
      try {
        old = await readFile(join(oldPath, p));
      } catch {
        return true;
      }
      if (!old.equals(f.data)) return true;
    }
    return false;
  }

  private async writePayload(payload: Payload, dir: string): Promise<void> {
    for (const [p, f] of payload) {
      const full = join(dir, p);
      await mkdir(dirname(full), { recursive: true, mode: 0o755 });
      await writeFile(full, f.data, { mode: f.mode });
      await chmod(full, f.mode);
      if (f.fsUser !== undefined) await chown(full, f.fsUser, -1);
    }
  }

  private async createUserVisibleFiles(payload: Payload): Promise<void> {
    for (const p of payload.keys()) {
      const top = p.split('/')[0]!;
      const visible = join(this.targetDir, top);
      if (await exists(visible)) continue;
      await symlink(join(DATA_DIR, top), visible);
    }
  }
}

