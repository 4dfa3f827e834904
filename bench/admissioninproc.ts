// Admission in one process (issue 20, a diagnostic beside `admission`): the
// same namespace objects and restricted pods as bench/admission.ts, created
// straight through the pods store of two servers started in this process —
// the default plugin set and every plugin disabled — without HTTP, a client or
// a second process. What it measures is the main thread's CPU per create of
// the store's path (mutating admission, validation, validating admission,
// storage, the watch fan-out and the controllers that react), so the
// plugins' own cost stands out from what both servers spend on a request.
// Phases alternate between the servers (the order by round); both share the
// JIT and the heap, so neither runs colder code. The HTTP figure stays the
// target's (bench/admission.ts); this one says where the difference is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ON_PLUGINS } from '../src/admission/chain.js';
import { serverOptions } from '../src/cli/serve.js';
import { startApiServer, type RunningApiServer } from '../src/server/apiserver.js';
import { defaulterFor } from '../src/api/defaults.js';
import { finishGoDecode } from '../src/schema/gozero.js';
import { schemaFor } from '../src/api/schemas.js';
import type { ApiObject } from '../src/registry/object.js';
import type { Registry } from '../src/registry/registry.js';
import { LIMIT_RANGE, NAMESPACE, NS, QUOTA, restrictedPod } from './admission.js';
import { fmt, fmtRatios, pairedRatios } from './report.js';
import { threadCpuOf } from './proc.js';

const ADMIN = { name: 'admin', uid: 'admin-uid', groups: ['system:masters', 'system:authenticated'] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Side {
  readonly name: string;
  readonly server: RunningApiServer;
  readonly registry: Registry;
  readonly dataDir: string;
}

async function startSide(name: string, extra: string[]): Promise<Side> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-admin-proc-'));
  const opts = serverOptions('server', [`--data-dir=${dataDir}`, '--secure-port=0', ...extra]);
  if (!opts) throw new Error('no server options');
  const server = await startApiServer(opts);
  const registry = server.controllerContext.registry;
  const create = (group: string, resource: string, obj: ApiObject) => registry.store(group, resource).create(obj.metadata.namespace ?? '', obj, { dryRun: false, user: ADMIN });
  await create('', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', ...structuredClone(NAMESPACE) } as ApiObject);
  // the service account controller makes the namespace's default account (ServiceAccount admission waits for it)
  for (let i = 0; i < 200; i++) {
    try {
      await registry.store('', 'serviceaccounts').get(NS, 'default');
      break;
    } catch {
      await sleep(50);
    }
  }
  await create('', 'limitranges', { apiVersion: 'v1', kind: 'LimitRange', ...structuredClone(LIMIT_RANGE), metadata: { ...LIMIT_RANGE.metadata, namespace: NS } } as ApiObject);
  await create('', 'resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', ...structuredClone(QUOTA), metadata: { ...QUOTA.metadata, namespace: NS } } as ApiObject);
  // the quota controller fills status.used (ResourceQuota admission refuses pods until it has)
  for (let i = 0; i < 200; i++) {
    const q = await registry.store('', 'resourcequotas').get(NS, 'quota');
    if ((q.status as { used?: unknown } | undefined)?.used) break;
    await sleep(50);
  }
  return { name, server, registry, dataDir };
}

/** A pod as the endpoint hands it to the store: decoded, defaulted, Go's zero values written. */
function podObject(i: number): ApiObject {
  const o = JSON.parse(restrictedPod(`pod-${i}`, i)) as ApiObject;
  o.metadata.namespace = NS;
  defaulterFor('', 'v1', 'Pod')!(o);
  finishGoDecode(schemaFor('', 'v1', 'Pod')!, o);
  return o;
}

/** `total` creates, 32 at a time; main-thread CPU µs per create (the pods are built before the clock starts). */
async function creates(side: Side, first: number, total: number): Promise<number> {
  const pods = Array.from({ length: total }, (_, k) => podObject(first + k));
  const store = side.registry.store('', 'pods');
  let next = 0;
  const cpu0 = threadCpuOf(process.pid);
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next < total) await store.create(NS, pods[next++]!, { dryRun: false, user: ADMIN, ownsInput: true });
  }));
  return ((threadCpuOf(process.pid) - cpu0) * 1e6) / total;
}

export async function benchAdmissionInProcess(opts: { perPhase?: number; rounds?: number } = {}): Promise<string[]> {
  const perPhase = opts.perPhase ?? 3000;
  const rounds = opts.rounds ?? 8;
  const on = await startSide('default', []);
  const off = await startSide('none', [`--disable-admission-plugins=${[...DEFAULT_ON_PLUGINS].join(',')}`]);
  try {
    let made = 0;
    const phase = async (s: Side) => {
      const us = await creates(s, made, perPhase);
      made += perPhase;
      return us;
    };
    // warm-up: a phase on each, so the rounds run compiled code
    await phase(on);
    await phase(off);
    const as: number[] = [];
    const bs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        as.push(await phase(on));
        bs.push(await phase(off));
      } else {
        bs.push(await phase(off));
        as.push(await phase(on));
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    // CPU per create of none / default: what the rates' ratio would be if the store's path were all a create cost
    const share = pairedRatios(as.map((x) => 1 / x), bs.map((x) => 1 / x));
    const extra = as.map((a, i) => a - bs[i]!);
    return [
      '### Admission in one process (issue 20, a diagnostic): the store\'s path of a pod create, default plugins vs none',
      '',
      `Two servers (SQLite) started in the bench's own process, the namespace objects of the admission benchmark in each; ${perPhase.toLocaleString('en')} restricted pods per phase created through the pods store (no HTTP: no decoding, authentication, field manager or response), 32 at a time; a warm-up phase each, then ${rounds} rounds alternating the order; the main thread's CPU per create.`,
      '',
      '| plugins | main-thread CPU µs per create, median | per round |',
      '|---|---|---|',
      `| default | ${fmt(median(as), 0)} | ${as.map((x) => fmt(x, 0)).join(', ')} |`,
      `| none | ${fmt(median(bs), 0)} | ${bs.map((x) => fmt(x, 0)).join(', ')} |`,
      '',
      `- the default plugins' extra CPU per create, median of the rounds: ${fmt(median(extra), 0)} µs (per round ${extra.map((x) => fmt(x, 0)).join(', ')})`,
      `- none's CPU per create as a share of default's, median of the rounds: ${fmt(100 * share.median, 0)} % (per round ${fmtRatios(share)}) — the store's path only; over HTTP both sides also pay the request's decoding, filters and response (bench/admission.ts, the target's figure)`,
    ];
  } finally {
    for (const s of [on, off]) {
      await s.server.shutdown();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}
