// cgroup v1 through the filesystem (kube's cgroupfs driver over libcontainer's
// fs manager): a cgroup is a path ("/kubepods/burstable/pod<uid>") present in
// every mounted v1 hierarchy; its resources are files in the hierarchies of
// their controllers. Hierarchies come from /proc/self/mountinfo; tests may
// point at another mountinfo and mount root.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** What a cgroup's controllers are set to (kube's ResourceConfig); absent: left as it is. */
export interface ResourceConfig {
  readonly cpuShares?: number;
  /** µs per period; -1: unlimited. */
  readonly cpuQuota?: number;
  readonly cpuPeriod?: number;
  /** Bytes; -1: unlimited. */
  readonly memory?: number;
  /** -1: unlimited (pids.max "max"). */
  readonly pidsLimit?: number;
  /** Bytes by page size name as the kernel's files spell it (`2MB`, `1GB`). */
  readonly hugePageLimits?: Readonly<Record<string, number>>;
}

/** The controllers libcontainer's fs manager manages on v1 (and the named systemd hierarchy it joins). */
const KNOWN = new Set(['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'blkio', 'pids', 'hugetlb', 'net_cls', 'net_prio', 'perf_event', 'rdma', 'misc', 'name=systemd']);

/** v1 hierarchies of a mountinfo text: mount point → its controllers. */
export function v1Hierarchies(mountinfo: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of mountinfo.split('\n')) {
    const sep = line.indexOf(' - ');
    if (sep < 0) continue;
    const [fstype, , superOpts = ''] = line.slice(sep + 3).split(' ');
    if (fstype !== 'cgroup') continue;
    const mountPoint = line.slice(0, sep).split(' ')[4];
    const controllers = superOpts.split(',').filter((o) => KNOWN.has(o));
    if (mountPoint && controllers.length > 0) out.set(mountPoint, controllers);
  }
  return out;
}

export class CgroupError extends Error {
  override readonly name = 'CgroupError';
}

export class CgroupFs {
  /** Mount point by controller. */
  private readonly mounts = new Map<string, string>();

  constructor(opts: { readonly mountinfo?: string } = {}) {
    const text = opts.mountinfo ?? readFileSync('/proc/self/mountinfo', 'utf8');
    for (const [mount, controllers] of v1Hierarchies(text)) for (const c of controllers) this.mounts.set(c, mount);
    if (this.mounts.size === 0) throw new CgroupError('failed to find cgroup mounts: no cgroup v1 hierarchy is mounted');
  }

  /** The controllers found. */
  get controllers(): string[] {
    return [...this.mounts.keys()].sort();
  }

  private hierarchies(): string[] {
    return [...new Set(this.mounts.values())];
  }

  /** The folder of `cgroup` in the hierarchy of `controller`; undefined when that controller is not mounted. */
  dir(controller: string, cgroup: string): string | undefined {
    const m = this.mounts.get(controller);
    return m === undefined ? undefined : join(m, posix.normalize(`/${cgroup}`));
  }

  /** Whether the cgroup exists in the hierarchies kube checks (cpu, cpuacct, cpuset, memory, pids). */
  exists(cgroup: string): boolean {
    return ['cpu', 'cpuacct', 'cpuset', 'memory', 'pids'].every((c) => {
      const d = this.dir(c, cgroup);
      return d === undefined || existsSync(d);
    });
  }

  /** Creates the cgroup in every hierarchy (parents too), then sets `config`. */
  create(cgroup: string, config: ResourceConfig = {}): void {
    for (const h of this.hierarchies()) mkdirSync(join(h, posix.normalize(`/${cgroup}`)), { recursive: true });
    this.fillCpuset(cgroup);
    this.update(cgroup, config);
  }

  /** A new cpuset cgroup has no cpus or mems: take the parent's (as libcontainer does), from the top down. */
  private fillCpuset(cgroup: string): void {
    const root = this.mounts.get('cpuset');
    if (root === undefined) return;
    let dir = root;
    for (const part of posix.normalize(`/${cgroup}`).split('/').filter(Boolean)) {
      const parent = dir;
      dir = join(dir, part);
      for (const f of ['cpuset.cpus', 'cpuset.mems']) {
        if (readFileSync(join(dir, f), 'utf8').trim() === '') writeFileSync(join(dir, f), readFileSync(join(parent, f), 'utf8').trim());
      }
    }
  }

  /** Sets the controllers' files; an unmounted controller is skipped. */
  update(cgroup: string, c: ResourceConfig): void {
    const write = (controller: string, file: string, value: string) => {
      const d = this.dir(controller, cgroup);
      if (d === undefined) return;
      try {
        writeFileSync(join(d, file), value);
      } catch (err) {
        throw new CgroupError(`failed to write ${JSON.stringify(value)} to ${join(d, file)}: ${(err as Error).message}`);
      }
    };
    if (c.cpuShares !== undefined) write('cpu', 'cpu.shares', String(c.cpuShares));
    if (c.cpuPeriod !== undefined) write('cpu', 'cpu.cfs_period_us', String(c.cpuPeriod));
    if (c.cpuQuota !== undefined) write('cpu', 'cpu.cfs_quota_us', String(c.cpuQuota));
    if (c.memory !== undefined) write('memory', 'memory.limit_in_bytes', String(c.memory));
    if (c.pidsLimit !== undefined) write('pids', 'pids.max', c.pidsLimit < 0 ? 'max' : String(c.pidsLimit));
    for (const [size, bytes] of Object.entries(c.hugePageLimits ?? {})) write('hugetlb', `hugetlb.${size}.limit_in_bytes`, String(bytes));
  }

  /** A controller file's content, trimmed. */
  read(controller: string, cgroup: string, file: string): string {
    const d = this.dir(controller, cgroup);
    if (d === undefined) throw new CgroupError(`cgroup controller ${controller} is not mounted`);
    return readFileSync(join(d, file), 'utf8').trim();
  }

  /** Child cgroup names (from the cpu hierarchy, else the first). */
  children(cgroup: string): string[] {
    const d = this.dir('cpu', cgroup) ?? join(this.hierarchies()[0]!, cgroup);
    try {
      return readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    } catch {
      return [];
    }
  }

  /** Process ids in the cgroup and below (any hierarchy). */
  pids(cgroup: string): number[] {
    const out = new Set<number>();
    const walk = (d: string) => {
      if (!existsSync(d)) return;
      for (const l of readFileSync(join(d, 'cgroup.procs'), 'utf8').split('\n')) if (l.trim()) out.add(Number(l));
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(join(d, e.name));
    };
    for (const h of this.hierarchies()) walk(join(h, posix.normalize(`/${cgroup}`)));
    return [...out].sort((a, b) => a - b);
  }

  /** Removes the cgroup and its children from every hierarchy; a missing one is fine. Throws when one still has processes. */
  destroy(cgroup: string): void {
    const rm = (d: string) => {
      if (!existsSync(d)) return;
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) rm(join(d, e.name));
      try {
        rmdirSync(d);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new CgroupError(`failed to remove cgroup ${d}: ${(err as Error).message}`);
      }
    };
    for (const h of this.hierarchies()) rm(join(h, posix.normalize(`/${cgroup}`)));
  }
}
