// A private containerd for tests: its own root, state and socket under a
// temporary folder, the CRI plugin configured as these machines need
// (../shared/runtime/containerd/), and the two local images every agent test
// uses imported — `svc.local/busybox:1.35` (sh, sleep, httpd, nc, …) and the
// sandbox image `svc.local/pause:1`. No registry is reachable here, so images
// are built from Debian's busybox-static and imported, never pulled.
//
// Locally a missing package skips (the message names what to install); under
// CI=true it fails, as every external tool does (src/testing/tools.ts).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { within } from '../async/within.js';

const run = promisify(execFile);

/** The shared folder with the verified containerd set-up. */
export const CONTAINERD_KIT = fileURLToPath(new URL('../../../../shared/runtime/containerd/', import.meta.url));

export const BUSYBOX_IMAGE = 'svc.local/busybox:1.35';
export const PAUSE_IMAGE = 'svc.local/pause:1';

const INSTALL = 'apt-get install -y containerd runc busybox-static containernetworking-plugins jq';
const IMAGE_CACHE = '/tmp/svc-cri-images';

export interface Containerd {
  /** `unix:///…/containerd.sock`, for --container-runtime-endpoint. */
  readonly endpoint: string;
  /** The socket's path. */
  readonly socket: string;
  /** The instance's folder (logs in `containerd.log`). */
  readonly root: string;
  /** The CNI bridge of this instance, when started with `cni: true`. */
  readonly bridge?: string;
  /** The pod subnet of this instance, when started with `cni: true`. */
  readonly subnet?: string;
  /** Runs `ctr` against this instance (namespace k8s.io). */
  ctr(...args: string[]): Promise<string>;
  /** Stops the instance, its shims and tasks, and removes its folder. */
  stop(): Promise<void>;
}

export interface ContainerdOptions {
  /** A CNI bridge network of its own (bridge `svcb<n>`, subnet 10.<n>.0.0/16); host-network pods work without it. */
  readonly cni?: boolean;
}

/** Why containerd cannot run here (a skip message), or false. Throws under CI=true. */
export function containerdMissing(): string | false {
  const missing = ['/usr/bin/containerd', '/usr/sbin/runc', '/usr/bin/ctr', '/bin/busybox', '/usr/lib/cni/bridge', '/usr/bin/jq']
    .filter((p) => !existsSync(p));
  if (missing.length === 0 && process.getuid?.() === 0) return false;
  const msg = missing.length > 0 ? `containerd tests need ${missing.join(', ')}: ${INSTALL}` : 'containerd tests need root';
  if (process.env.CI === 'true') throw new Error(`${msg} (required under CI=true)`);
  return msg;
}

/** The image tarballs, built once per machine (the build is deterministic; concurrent builders rename into place). */
async function images(): Promise<{ busybox: string; pause: string }> {
  mkdirSync(IMAGE_CACHE, { recursive: true });
  const build = async (file: string, name: string, cmd: string): Promise<string> => {
    const out = join(IMAGE_CACHE, file);
    if (existsSync(out)) return out;
    const tmp = `${out}.${process.pid}.tmp`;
    await run(join(CONTAINERD_KIT, 'build-image.sh'), [tmp, name, cmd]);
    renameSync(tmp, out);
    return out;
  };
  return {
    busybox: await build('busybox.tar', BUSYBOX_IMAGE, '["sh"]'),
    pause: await build('pause.tar', PAUSE_IMAGE, '["sleep","infinity"]'),
  };
}

let instances = 0;

/** Starts a private containerd with the local images imported. */
export async function startContainerd(opts: ContainerdOptions = {}): Promise<Containerd> {
  const tars = await images();
  // Unix socket paths are limited to 107 bytes: keep the folder short.
  const root = mkdtempSync('/tmp/svc-cri-');
  const env = { ...process.env, RP: root, SNAPSHOTTER: 'overlayfs' };
  const socket = join(root, 'containerd.sock');
  const ctr = async (...args: string[]): Promise<string> =>
    (await run('ctr', ['--address', socket, '-n', 'k8s.io', ...args], { maxBuffer: 16 << 20 })).stdout;
  const stop = async (): Promise<void> => {
    await stopInstance(root, env);
    if (bridge) await run('ip', ['link', 'del', bridge]).catch(() => undefined);
    if (netLock) rmSync(netLock, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  };
  let bridge: string | undefined;
  let subnet: string | undefined;
  let netLock: string | undefined;
  try {
    await run(join(CONTAINERD_KIT, 'start-containerd.sh'), [], { env });
    for (const tar of [tars.busybox, tars.pause]) await ctr('images', 'import', '--snapshotter', 'overlayfs', tar);
    if (opts.cni) {
      const n = claimNetwork();
      netLock = `${NET_LOCKS}/${n}`;
      bridge = `svcb${n}`;
      subnet = `10.${n}.0.0/16`;
      writeFileSync(join(root, 'cni', 'net.d', '10-svc-bridge.conflist'), JSON.stringify(bridgeNetwork(root, bridge, n)));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint: `unix://${socket}`, socket, root, bridge, subnet, ctr, stop };
}

const NET_LOCKS = '/tmp/svc-cri-nets';

/** How long the kit's stop script may take before the instance is killed outright. */
const STOP_SCRIPT_MS = 60_000;

/**
 * Runs the kit's stop script (CRI pods, tasks, shims, containerd, mounts) with
 * a bound: its `ctr` calls have no timeout of their own, and a test's clean-up
 * must not hang. Past the bound the script's process group is killed, then
 * containerd and this instance's shims by pid, and its mounts are detached.
 * The script's output is not piped (a child left holding a pipe would hold the
 * wait too).
 */
async function stopInstance(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const script = spawn(join(CONTAINERD_KIT, 'stop-containerd.sh'), [], { env, stdio: 'ignore', detached: true });
  const ended = new Promise<void>((resolve) => {
    script.once('exit', () => resolve());
    script.once('error', () => resolve());
  });
  if (await within(ended, STOP_SCRIPT_MS)) return;
  console.error(`containerd under ${root}: the stop script did not finish in ${STOP_SCRIPT_MS / 1000} s; killing the instance`);
  const kill = (pid: number) => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  if (script.pid) kill(-script.pid);
  try {
    kill(Number(readFileSync(join(root, 'containerd.pid'), 'utf8')));
  } catch {
    // no pid file: never started
  }
  const shims = await run('pgrep', ['-f', `containerd-shim-runc-v2 .*-address ${join(root, 'containerd.sock')}`]).catch(() => ({ stdout: '' }));
  for (const pid of shims.stdout.split('\n').filter(Boolean)) kill(Number(pid));
  unmountUnder(root);
}

/**
 * A network number (100–199: bridge svcb<n>, subnet 10.<n>.0.0/16) no other
 * running instance holds: claimed by making its lock folder, which a stop
 * removes; a claim whose process is gone is taken over.
 */
function claimNetwork(): number {
  mkdirSync(NET_LOCKS, { recursive: true });
  const start = (process.pid * 7 + instances++) % 100;
  for (let i = 0; i < 100; i++) {
    const n = 100 + ((start + i) % 100);
    const lock = `${NET_LOCKS}/${n}`;
    try {
      mkdirSync(lock);
      writeFileSync(`${lock}/pid`, String(process.pid));
      return n;
    } catch {
      let owner = 0;
      try {
        owner = Number(readFileSync(`${lock}/pid`, 'utf8'));
        process.kill(owner, 0);
      } catch {
        if (owner > 0) {
          rmSync(lock, { recursive: true, force: true });
          i--;
        }
      }
    }
  }
  throw new Error(`no free test network under ${NET_LOCKS}`);
}

/** The CNI network of one instance: the shared kit's bridge network with its own bridge and subnet. */
function bridgeNetwork(root: string, bridge: string, n: number): unknown {
  return {
    cniVersion: '1.0.0',
    name: `svc-net-${n}`,
    plugins: [
      {
        type: 'bridge', bridge, isGateway: true, ipMasq: false, hairpinMode: true,
        ipam: { type: 'host-local', ranges: [[{ subnet: `10.${n}.0.0/16`, gateway: `10.${n}.0.1` }]], dataDir: join(root, 'cni', 'ipam') },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
}

/** Unmounts what an agent left mounted under a folder (tmpfs volumes of pods still running when it stopped). */
export function unmountUnder(dir: string): void {
  const mounts = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '').filter((m) => m.startsWith(`${dir}/`));
  for (const m of mounts.sort().reverse()) {
    try {
      execFileSync('umount', ['-l', m]);
    } catch {
      // already gone
    }
  }
}

/**
 * A cgroup root of its own for one test agent (`--cgroup-root`), so agents of
 * tests running side by side never see each other's pod cgroups as orphans.
 * `remove()` deletes what is left below it (empty cgroups only).
 */
export async function testCgroupRoot(): Promise<{ readonly path: string; remove(): void }> {
  const { CgroupFs } = await import('../agent/cm/cgroupfs.js');
  const fs = new CgroupFs();
  const path = `/svc-test-${process.pid}-${instances++}`;
  fs.create(path);
  return {
    path,
    remove: () => {
      try {
        fs.destroy(path);
      } catch {
        // a process still inside: left for the host's clean-up
      }
    },
  };
}
