// Mount points nested inside a written volume (kube's MakeNestedMountpoints):
// when a container mounts volume B at a path inside where volume A (a
// configMap, secret, downwardAPI or projected one, mounted read-only) is
// mounted, the folder for B must already be in A, as the runtime cannot make
// it in a read-only mount. Only the first level below A is made
// ([/a/b/c, /a/b/c/d] under /a/b → c).
import { mkdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { ApiObject } from '../../registry/object.js';
import { PluginError } from './errors.js';

interface Mount {
  name?: string;
  mountPath?: string;
}

/** The nested mount points of volume `name`, relative to it. */
export function nestedMountpoints(name: string, pod: ApiObject): string[] {
  const spec = (pod.spec ?? {}) as Record<string, { volumeMounts?: Mount[] }[] | undefined>;
  const out: string[] = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of spec[field] ?? []) {
      const mounts = (c.volumeMounts ?? []).filter((m) => m.mountPath).map((m) => ({ name: m.name, path: posix.normalize(m.mountPath!).replace(/(.)\/+$/, '$1') }));
      const all = mounts.map((m) => m.path).sort();
      for (const mine of mounts.filter((m) => m.name === name)) {
        if (mine.path.startsWith('..')) throw new PluginError(`invalid container mount point ${JSON.stringify(mine.path)}`);
        const prefix = mine.path === '/' ? '/' : `${mine.path}/`;
        let prev = '';
        for (const mp of all) {
          if (!mp.startsWith(prefix) || mp === mine.path) continue;
          if (prev && mp.startsWith(prev)) continue;
          prev = `${mp}/`;
          out.push(mp.slice(prefix.length));
        }
      }
    }
  }
  return out;
}

export async function makeNestedMountpoints(name: string, dir: string, pod: ApiObject): Promise<void> {
  for (const rel of nestedMountpoints(name, pod)) await mkdir(join(dir, rel), { recursive: true, mode: 0o755 });
}
