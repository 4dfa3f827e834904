// What the node agent reads from the machine it runs on: the figures node
// capacity, conditions and nodeInfo come from (cAdvisor's MachineInfo and the
// kubelet's summary figures, read here straight from /proc, /sys and statfs).
// `MachineReader` is the seam: tests give a table of figures.
import { readFileSync, readdirSync, statfsSync } from 'node:fs';
import { arch, cpus, networkInterfaces, release } from 'node:os';

/** A filesystem's size and what is left of it, in bytes and inodes. */
export interface FsFigures {
  readonly capacityBytes: number;
  readonly availableBytes: number;
  readonly inodes: number;
  readonly inodesFree: number;
}

/** The machine's fixed facts (read once) and current figures (read each status round). */
export interface MachineReader {
  /** Logical CPUs. */
  cpus(): number;
  /** MemTotal, bytes. */
  memoryCapacity(): number;
  /** memory.available as kube measures it: capacity less the root cgroup's working set (usage − inactive file pages); MemAvailable without a v1 memory cgroup. */
  memoryAvailable(): number;
  /** The root directory's filesystem (nodefs). */
  rootFs(): FsFigures;
  /** Huge pages reserved, bytes by page size name (`2Mi`, `1Gi`). */
  hugePages(): Readonly<Record<string, number>>;
  /** Processes (kernel tasks) now, and the kernel's pid_max. */
  pids(): { readonly running: number; readonly max: number };
  machineID(): string;
  /** '' when not readable (no DMI, not root). */
  systemUUID(): string;
  bootID(): string;
  kernelVersion(): string;
  /** PRETTY_NAME of /etc/os-release. */
  osImage(): string;
  /** `amd64`, `arm64`, … (GOARCH spelling). */
  architecture(): string;
  /** The IPv4 address of the interface the default route goes through; '' when none. */
  defaultRouteIP(): string;
  /** Whether the kernel has AppArmor enabled (the Ready message says so, as kube's). */
  appArmorEnabled(): boolean;
}

const GOARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };

/** Bytes of a /proc/meminfo field (given in kB); undefined when absent. */
export function meminfoBytes(text: string, field: string): number | undefined {
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
}

/** PRETTY_NAME of an os-release file (quotes removed); 'Linux' when there is none, as cAdvisor. */
export function prettyName(text: string): string {
  const m = /^PRETTY_NAME=(.*)$/m.exec(text);
  if (!m) return 'Linux';
  const v = m[1]!.trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

/** The interface of the default IPv4 route in /proc/net/route ('' when none). */
export function defaultRouteInterface(routeTable: string): string {
  for (const line of routeTable.split('\n').slice(1)) {
    const [iface, dest, , , , , , mask] = line.trim().split(/\s+/);
    if (iface && dest === '00000000' && mask === '00000000') return iface;
  }
  return '';
}

/** A `name value` line's value in a cgroup stat file (0 when absent). */
export function statField(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

/** The total of /proc/loadavg's 4th field (`running/total` scheduling entities). */
export function loadavgTasks(text: string): number {
  const m = /\s\d+\/(\d+)\s/.exec(` ${text} `);
  return m ? Number(m[1]) : 0;
}

const readText = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** The real machine. `root` is the filesystem whose size is nodefs (kube: the kubelet's root dir). */
export function hostMachine(opts: { readonly rootDir: string; readonly procDir?: string; readonly sysDir?: string; readonly etcDir?: string; readonly memoryCgroupDir?: string }): MachineReader {
  const proc = opts.procDir ?? '/proc';
  const sys = opts.sysDir ?? '/sys';
  const etc = opts.etcDir ?? '/etc';
  const memcg = opts.memoryCgroupDir ?? `${sys}/fs/cgroup/memory`;
  return {
    cpus: () => cpus().length,
    memoryCapacity: () => meminfoBytes(readText(`${proc}/meminfo`), 'MemTotal') ?? 0,
    memoryAvailable: () => {
      const meminfo = readText(`${proc}/meminfo`);
      const usage = readText(`${memcg}/memory.usage_in_bytes`).trim();
      if (usage === '') return meminfoBytes(meminfo, 'MemAvailable') ?? 0;
      const inactive = statField(readText(`${memcg}/memory.stat`), 'total_inactive_file');
      const workingSet = Math.max(0, Number(usage) - inactive);
      return Math.max(0, (meminfoBytes(meminfo, 'MemTotal') ?? 0) - workingSet);
    },
    rootFs: () => {
      const s = statfsSync(opts.rootDir);
      return { capacityBytes: s.blocks * s.bsize, availableBytes: s.bavail * s.bsize, inodes: s.files, inodesFree: s.ffree };
    },
    hugePages: () => {
      const out: Record<string, number> = {};
      let dirs: string[] = [];
      try {
        dirs = readdirSync(`${sys}/kernel/mm/hugepages`);
      } catch {
        return out;
      }
      for (const d of dirs) {
        const m = /^hugepages-(\d+)kB$/.exec(d);
        if (!m) continue;
        const kb = Number(m[1]);
        const name = kb % (1024 * 1024) === 0 ? `${kb / 1024 / 1024}Gi` : kb % 1024 === 0 ? `${kb / 1024}Mi` : `${kb}Ki`;
        out[name] = Number(readText(`${sys}/kernel/mm/hugepages/${d}/nr_hugepages`).trim() || 0) * kb * 1024;
      }
      return out;
    },
    pids: () => ({ running: loadavgTasks(readText(`${proc}/loadavg`)), max: Number(readText(`${proc}/sys/kernel/pid_max`).trim() || 0) }),
    machineID: () => readText(`${etc}/machine-id`).trim(),
    systemUUID: () => readText(`${sys}/class/dmi/id/product_uuid`).trim(),
    bootID: () => readText(`${proc}/sys/kernel/random/boot_id`).trim(),
    kernelVersion: () => release(),
    osImage: () => prettyName(readText(`${etc}/os-release`)),
    architecture: () => GOARCH[arch()] ?? arch(),
    defaultRouteIP: () => {
      const iface = defaultRouteInterface(readText(`${proc}/net/route`));
      const addrs = iface ? networkInterfaces()[iface] ?? [] : [];
      return addrs.find((a) => a.family === 'IPv4' && !a.internal)?.address ?? '';
    },
    appArmorEnabled: () => readText(`${sys}/module/apparmor/parameters/enabled`).trim().startsWith('Y'),
  };
}
