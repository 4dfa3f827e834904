// Service write hooks: what Kubernetes v1.27's service REST does around a
// write (pkg/registry/core/service/storage: beginCreate, beginUpdate,
// afterDelete, and alloc.go's Allocators) — cluster IPs from
// --service-cluster-ip-range, node ports and health-check node ports from
// --service-node-port-range, the ipFamilies/ipFamilyPolicy defaults, and the
// values an update may omit and keep.
//
// Allocation state is claim keys in storage (claims.ts), so it holds across
// API servers sharing a store and across restarts.
//
// Releases on update. Kubernetes releases what an update dropped (a node port
// no longer used, the cluster IP of a Service turned ExternalName) only after
// the update is written, and never when it fails. Our hooks only get an Undo
// for failure, so beforeUpdate starts a follow-up for the dropped values: it
// watches the Service's key from the old revision and, on each change (and
// once more at a deadline), re-reads the stored Service and releases each
// dropped value the stored object no longer uses — only if this Service (by
// uid) still holds the claim, and deleting only the claim revision it read.
// The Undo cancels the follow-up. Because the decision rests on what storage
// holds, not on timing, a follow-up that runs early releases nothing and one
// that runs late releases exactly the unused values; a value re-added by a
// later update is adopted by that update (claims.ts), which makes a racing
// release fail instead of freeing it.
import type { Store } from '../../storage/interface.js';
import {
  fieldPath, newInternalError, newInvalid, invalid, required, notSupported, duplicate, isStatusError,
  type FieldError,
} from '../../api/meta/index.js';
import { ipErrors, ipFamily } from '../../api/meta/checks.js';
import { fromStorage } from '../errors.js';
import { keysOf } from '../keys.js';
import type { ApiObject } from '../object.js';
import type { Undo, WriteHooks } from '../hooks.js';
import { Claims, type Claim, type Owner } from './claims.js';
import { clusterIPPool, nodePortPool, parseIPv4, formatIPv4, type ClusterIPRange, type NodePortRange, type Pool } from './ranges.js';

export interface ServiceHooksOptions {
  readonly storage: Store;
  readonly clusterIPRange: ClusterIPRange;
  readonly nodePortRange: NodePortRange;
  /** Where a Service is stored (default: the registry's key for core/v1 services). */
  readonly serviceKey?: (namespace: string, name: string) => string;
  /** How long a release follow-up waits for the update to be written before its last check (default 60 s). */
  readonly releaseDeadlineMs?: number;
  /** Random source for the scan start (tests). */
  readonly random?: () => number;
}

export interface ServiceHooks extends WriteHooks {
  /** Resolves when every release follow-up started so far has finished. */
  settled(): Promise<void>;
  /** Stops pending follow-ups at once (each does its last check first); for shutdown. */
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;
const SERVICES = { group: '', resource: 'services' };
const SERVICE_KIND = { group: '', kind: 'Service' };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const ports = (spec: Obj): Obj[] => (Array.isArray(spec.ports) ? spec.ports.filter(isObj) : []);
/** A node port field: 0 when unset; NaN when it holds something that is not a port number (validation's job). */
function portNum(v: unknown): number {
  if (v === undefined || v === null) return 0;
  return typeof v === 'number' && Number.isInteger(v) ? v : NaN;
}
const setPort = (p: Obj, k: string, v: number) => {
  if (v === 0) delete p[k];
  else p[k] = v;
};

const needsClusterIP = (spec: Obj) => str(spec.type) !== 'ExternalName';
const needsNodePort = (spec: Obj) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
const needsHCNodePort = (spec: Obj) => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
const isHeadless = (spec: Obj) => strs(spec.clusterIPs)[0] === 'None';
const shouldAllocateNodePorts = (spec: Obj) => spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
const sameListLoose = (a: unknown, b: unknown) => {
  const x = strs(a);
  const y = strs(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

function nodePortsOf(spec: Obj): number[] {
  return ports(spec).map((p) => portNum(p.nodePort)).filter((n) => Number.isInteger(n) && n > 0);
}

/** Cluster IPs a Service object names (IPv4 ones; "None" and anything unparsable are skipped). */
function clusterIPsOf(spec: Obj): number[] {
  const out = new Set<number>();
  for (const s of [str(spec.clusterIP), ...strs(spec.clusterIPs)]) {
    const n = parseIPv4(s);
    if (n !== undefined) out.add(n);
  }
  return [...out];
}

/** Internal error (500) with Kubernetes' "Internal error occurred: …" wording. */
const internal = (msg: string) => newInternalError(new Error(msg));

/** What one write has claimed so far (or picked, under dryRun). */
class Txn {
  readonly claims: Claim[] = [];
  /** Values handed out by this write per pool (claimed, or picked under dryRun). */
  private readonly used = new Map<Pool, Set<number>>();

  constructor(
    private readonly c: Claims,
    readonly owner: Owner,
    readonly dryRun: boolean,
  ) {}

  private usedIn(pool: Pool): Set<number> {
    let s = this.used.get(pool);
    if (!s) this.used.set(pool, (s = new Set()));
    return s;
  }

  /** 'range' when the value is not in the pool, 'taken' when someone holds it, else ok. */
  async claim(pool: Pool, value: number, checkWhenDry = true): Promise<'ok' | 'range' | 'taken'> {
    if (pool.offsetOf(value) === undefined) return 'range';
    const used = this.usedIn(pool);
    if (used.has(value)) return 'taken';
    if (this.dryRun) {
      if (checkWhenDry && !(await this.c.isFree(pool, value))) return 'taken';
      used.add(value);
      return 'ok';
    }
    const claim = await this.c.claim(pool, value, this.owner);
    if (!claim) return 'taken';
    used.add(value);
    this.claims.push(claim);
    return 'ok';
  }

  /** The next free value, claimed (or only picked under dryRun); undefined when the pool is full. */
  async next(pool: Pool): Promise<number | undefined> {
    const used = this.usedIn(pool);
    if (this.dryRun) {
      const v = await this.c.peekNext(pool, used);
      if (v !== undefined) used.add(v);
      return v;
    }
    const claim = await this.c.claimNext(pool, this.owner, used);
    if (!claim) return undefined;
    used.add(claim.value);
    this.claims.push(claim);
    return claim.value;
  }

  async revert(): Promise<void> {
    const claims = this.claims.splice(0);
    for (const c of claims.reverse()) {
      try {
        await this.c.unclaim(c);
      } catch (err) {
        console.error(`svc: releasing ${c.pool.prefix}${c.pool.format(c.value)} after a failed Service write failed:`, err);
      }
    }
  }
}

/** A value to release once the update that dropped it is written. */
interface Deferred {
  readonly kind: 'ip' | 'port';
  readonly pool: Pool;
  readonly value: number;
}

export function serviceHooks(opts: ServiceHooksOptions): ServiceHooks {
  const { storage } = opts;
  const claims = new Claims(storage, opts.random);
  const ipPool = clusterIPPool(opts.clusterIPRange);
  const portPool = nodePortPool(opts.nodePortRange);
  const serviceKey = opts.serviceKey ?? keysOf({ group: '', resource: 'services', namespaced: true }).object;
  const deadlineMs = opts.releaseDeadlineMs ?? 60_000;
  const followUps = new Set<FollowUp>();

  const ownerOf = (obj: ApiObject): Owner => ({ namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '' });

  // ---------------------------------------------------------------- IP families

  /**
   * initIPFamilyFields for a single-stack IPv4 cluster: ipFamilyPolicy and
   * ipFamilies defaults, and the checks Kubernetes makes before allocating.
   * Returns false when the cluster IP fields are malformed: then nothing is
   * allocated and validation reports them.
   */
  function initIPFamilyFields(svc: ApiObject, spec: Obj, oldSpec: Obj | undefined): boolean {
    if (!needsClusterIP(spec)) return true;
    const name = svc.metadata.name ?? '';
    if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
      const selector = isObj(spec.selector) ? Object.keys(spec.selector).length : 0;
      if (oldSpec && typeof oldSpec.ipFamilyPolicy === 'string' && oldSpec.ipFamilyPolicy) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
      else if (spec.clusterIP === 'None' && selector === 0) spec.ipFamilyPolicy = 'RequireDualStack';
      else spec.ipFamilyPolicy = 'SingleStack';
    }
    const pre = clusterIPFieldErrors(spec);
    if (pre.length > 0) throw newInvalid(SERVICE_KIND, name, pre);
    if (malformedIPs(spec)) return false;

    const errs: FieldError[] = [];
    const policy = str(spec.ipFamilyPolicy);
    const policyPath = fieldPath('spec').child('ipFamilyPolicy');
    const clusterIPs = strs(spec.clusterIPs);
    if (policy === 'SingleStack') {
      if (clusterIPs.length === 2) errs.push(invalid(policyPath, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
      if (strs(spec.ipFamilies).length === 2) errs.push(invalid(policyPath, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
    const families = strs(spec.ipFamilies);
    for (let i = 0; i < clusterIPs.length; i++) {
      const ip = clusterIPs[i]!;
      if (ip === 'None') break;
      const fam = ipFamily(ip);
      if (i >= families.length) {
        if (fam !== 'IPv4') errs.push(invalid(fieldPath('spec').child('clusterIPs').index(i), [...clusterIPs], `${fam} is not configured on this cluster`));
        else families.push(fam);
      }
    }
    if (errs.length > 0) throw newInvalid(SERVICE_KIND, name, errs);
    if (families.length > 0) spec.ipFamilies = families;

    if (spec.clusterIP === 'None' && (!isObj(spec.selector) || Object.keys(spec.selector).length === 0)) {
      // Headless and selectorless: allowed both families whatever the cluster serves.
      if (families.length === 0) families.push('IPv4');
      if (families.length < 2 && policy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
      spec.ipFamilies = families;
      return true;
    }
    if (policy === 'RequireDualStack') errs.push(invalid(policyPath, policy, 'this cluster is not configured for dual-stack services'));
    families.forEach((f, i) => {
      if (f !== 'IPv4') errs.push(invalid(fieldPath('spec').child('ipFamilies').index(i), f, 'not configured on this cluster'));
    });
    if (errs.length > 0) throw newInvalid(SERVICE_KIND, name, errs);
    if (families.length === 0) families.push('IPv4');
    spec.ipFamilies = families;
    return true;
  }

  // ---------------------------------------------------------------- cluster IPs

  /** allocClusterIPs: the cluster IP(s) of a Service that needs one, requested or next free. */
  async function allocClusterIPs(svc: ApiObject, spec: Obj, txn: Txn): Promise<void> {
    if (!needsClusterIP(spec) || isHeadless(spec)) return;
    const families = strs(spec.ipFamilies);
    const clusterIPs = Array.isArray(spec.clusterIPs) ? strs(spec.clusterIPs) : [];
    families.forEach((_, i) => {
      if (i >= clusterIPs.length) clusterIPs.push('');
    });
    for (let i = 0; i < families.length; i++) {
      const want = clusterIPs[i]!;
      let ip: string;
      if (want === '') {
        const v = await txn.next(ipPool);
        if (v === undefined) throw internal('failed to allocate a serviceIP: range is full');
        ip = formatIPv4(v);
      } else {
        const v = parseIPv4(want);
        // As Kubernetes: a requested IP under dryRun is checked against the range only.
        const r = v === undefined ? 'range' : await txn.claim(ipPool, v, false);
        if (r !== 'ok') {
          const why = r === 'range'
            ? `the provided IP (${v === undefined ? want : formatIPv4(v)}) is not in the valid range. The range of valid IPs is ${ipPool.text}`
            : 'provided IP is already allocated';
          throw newInvalid(SERVICE_KIND, svc.metadata.name ?? '', [invalid(fieldPath('spec').child('clusterIPs'), [...clusterIPs], `failed to allocate IP ${want}: ${why}`)]);
        }
        ip = want;
      }
      clusterIPs[i] = ip;
      if (i === 0) spec.clusterIP = ip;
    }
    spec.clusterIPs = clusterIPs;
  }

  // ---------------------------------------------------------------- node ports

  function portError(svc: ApiObject, i: number, value: number, r: 'range' | 'taken'): Error {
    const why = r === 'range' ? `provided port is not in the valid range. The range of valid ports is ${portPool.text}` : 'provided port is already allocated';
    return newInvalid(SERVICE_KIND, svc.metadata.name ?? '', [invalid(fieldPath('spec').child('ports').index(i).child('nodePort'), value, why)]);
  }

  /** initNodePorts (create): ports sharing a port number share one node port. */
  async function initNodePorts(svc: ApiObject, spec: Obj, txn: Txn): Promise<void> {
    const list = ports(spec);
    const byPort = new Map<number, number>();
    for (let i = 0; i < list.length; i++) {
      const sp = list[i]!;
      const np = portNum(sp.nodePort);
      if (Number.isNaN(np)) continue; // not a number: validation reports it
      if (np === 0 && !shouldAllocateNodePorts(spec)) continue; // respect requests only
      const portNo = portNum(sp.port);
      const shared = byPort.get(portNo) ?? 0;
      if (shared === 0) {
        const requested = list.find((p) => portNum(p.port) === portNo && portNum(p.nodePort) > 0);
        const want = requested ? portNum(requested.nodePort) : 0;
        if (want !== 0) {
          const r = await txn.claim(portPool, want);
          if (r !== 'ok') throw portError(svc, i, want, r);
          setPort(sp, 'nodePort', want);
          byPort.set(portNo, want);
        } else {
          const v = await txn.next(portPool);
          if (v === undefined) throw internal('failed to allocate a nodePort: range is full');
          setPort(sp, 'nodePort', v);
          byPort.set(portNo, v);
        }
      } else if (np !== shared) {
        if (np === 0) setPort(sp, 'nodePort', shared);
        else {
          const r = await txn.claim(portPool, np);
          if (r !== 'ok') throw portError(svc, i, np, r);
        }
      }
    }
  }

  /** updateNodePorts: claim what is new, keep what the old object had, defer releasing what is gone. */
  async function updateNodePorts(svc: ApiObject, spec: Obj, oldSpec: Obj, txn: Txn, release: Deferred[]): Promise<void> {
    const oldNums = nodePortsOf(oldSpec);
    const seen = new Set<string>();
    const claimedHere = new Set<number>();
    const list = ports(spec);
    for (let i = 0; i < list.length; i++) {
      const sp = list[i]!;
      let np = portNum(sp.nodePort);
      if (Number.isNaN(np)) continue;
      if (np === 0 && !shouldAllocateNodePorts(spec)) continue;
      if (np !== 0) {
        if (!oldNums.includes(np) && !claimedHere.has(np)) {
          const r = await txn.claim(portPool, np);
          if (r !== 'ok') throw portError(svc, i, np, r);
          claimedHere.add(np);
        }
      } else {
        const v = await txn.next(portPool);
        if (v === undefined) throw internal('failed to allocate a nodePort: range is full');
        setPort(sp, 'nodePort', v);
        np = v;
      }
      const key = `${str(sp.protocol)} ${np}`;
      if (seen.has(key)) throw internal(`duplicate nodePort: {${key}}`);
      seen.add(key);
    }
    const newNums = nodePortsOf(spec);
    for (const n of oldNums) if (!newNums.includes(n)) release.push({ kind: 'port', pool: portPool, value: n });
  }

  async function allocHealthCheckNodePort(spec: Obj, txn: Txn): Promise<void> {
    const hc = portNum(spec.healthCheckNodePort);
    if (Number.isNaN(hc)) return;
    if (hc !== 0) {
      const r = await txn.claim(portPool, hc);
      if (r !== 'ok') {
        const why = r === 'range' ? `provided port is not in the valid range. The range of valid ports is ${portPool.text}` : 'provided port is already allocated';
        throw internal(`failed to allocate requested HealthCheck NodePort ${hc}: ${why}`);
      }
      return;
    }
    const v = await txn.next(portPool);
    if (v === undefined) throw internal('failed to allocate a HealthCheck NodePort 0: range is full');
    spec.healthCheckNodePort = v;
  }

  // ---------------------------------------------------------------- update prep

  /** The strategy's dropTypeDependentFields: clear what the new type does not use, when the client left it as it was. */
  function dropTypeDependentFields(spec: Obj, oldSpec: Obj): void {
    if (needsClusterIP(oldSpec) && !needsClusterIP(spec)) {
      if (str(oldSpec.clusterIP) === str(spec.clusterIP) && sameListLoose(oldSpec.clusterIPs, spec.clusterIPs)) {
        delete spec.clusterIP;
        delete spec.clusterIPs;
      }
      if (sameListLoose(oldSpec.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
      if (str(oldSpec.ipFamilyPolicy) === str(spec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
    }
    if (needsNodePort(oldSpec) && !needsNodePort(spec)) {
      const old = new Set(nodePortsOf(oldSpec));
      if (nodePortsOf(spec).every((n) => old.has(n))) for (const p of ports(spec)) delete p.nodePort;
    }
    if (needsHCNodePort(oldSpec) && !needsHCNodePort(spec) && portNum(oldSpec.healthCheckNodePort) === portNum(spec.healthCheckNodePort)) {
      delete spec.healthCheckNodePort;
    }
    if (oldSpec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
      if (typeof spec.allocateLoadBalancerNodePorts === 'boolean' && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
      if (str(spec.loadBalancerClass) === str(oldSpec.loadBalancerClass)) delete spec.loadBalancerClass;
    }
  }

  /** patchAllocatedValues: an update that omits allocated values keeps them. */
  function patchAllocatedValues(spec: Obj, oldSpec: Obj): void {
    if (needsClusterIP(oldSpec) && needsClusterIP(spec)) {
      if (!str(spec.clusterIP)) {
        if (oldSpec.clusterIP !== undefined) spec.clusterIP = oldSpec.clusterIP;
      }
      if (strs(spec.clusterIPs).length === 0 && strs(oldSpec.clusterIPs).length > 0) spec.clusterIPs = [...strs(oldSpec.clusterIPs)];
    }
    if (needsNodePort(oldSpec) && needsNodePort(spec)) {
      const newUsed = new Set(nodePortsOf(spec));
      const used = new Set(nodePortsOf(oldSpec).filter((n) => newUsed.has(n)));
      const byName = new Map<string, number>();
      for (const p of ports(oldSpec)) byName.set(str(p.name), portNum(p.nodePort));
      for (const p of ports(spec)) {
        if (portNum(p.nodePort) !== 0) continue;
        const old = byName.get(str(p.name)) ?? 0;
        if (Number.isInteger(old) && old > 0 && !used.has(old)) p.nodePort = old;
      }
    }
    if (needsHCNodePort(oldSpec) && needsHCNodePort(spec) && portNum(spec.healthCheckNodePort) === 0 && portNum(oldSpec.healthCheckNodePort) > 0) {
      spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
    }
  }

  /** normalizeClusterIPs on update: keep clusterIP and clusterIPs in step the way old clients expect. */
  function normalizeClusterIPsUpdate(spec: Obj, oldSpec: Obj): void {
    if (strs(oldSpec.clusterIPs).length > 0 && strs(spec.clusterIPs).length === 0 && str(oldSpec.clusterIP) === str(spec.clusterIP)) {
      spec.clusterIPs = [...strs(oldSpec.clusterIPs)];
    }
    if (str(oldSpec.clusterIP) !== str(spec.clusterIP)) {
      const same = sameListLoose(oldSpec.clusterIPs, spec.clusterIPs);
      if (str(oldSpec.clusterIP) && !str(spec.clusterIP)) {
        if (same) delete spec.clusterIPs;
      } else if (same) spec.clusterIPs = [str(spec.clusterIP)];
    }
  }

  // ---------------------------------------------------------------- follow-ups

  /** After the update is written: release the dropped values the stored Service no longer uses. */
  function startFollowUp(svc: ApiObject, oldRevision: number, items: Deferred[]): FollowUp {
    const key = serviceKey(svc.metadata.namespace ?? '', svc.metadata.name ?? '');
    const uid = svc.metadata.uid ?? '';
    const f = new FollowUp(storage, claims, key, uid, oldRevision, items, deadlineMs);
    followUps.add(f);
    void f.done.finally(() => followUps.delete(f));
    return f;
  }

  // ---------------------------------------------------------------- hooks

  const asApiError = (err: unknown, name: string) => (isStatusError(err) ? err : fromStorage(err, SERVICES, name));

  return {
    async beforeCreate(obj, ctx): Promise<Undo | void> {
      const spec = obj.spec;
      if (!isObj(spec)) return;
      const txn = new Txn(claims, ownerOf(obj), ctx.dryRun);
      try {
        // normalizeClusterIPs on create: an old client sets only the singular field.
        if (str(spec.clusterIP) && strs(spec.clusterIPs).length === 0) spec.clusterIPs = [str(spec.clusterIP)];
        if (initIPFamilyFields(obj, spec, undefined)) await allocClusterIPs(obj, spec, txn);
        if (needsNodePort(spec)) await initNodePorts(obj, spec, txn);
        if (needsHCNodePort(spec)) await allocHealthCheckNodePort(spec, txn);
      } catch (err) {
        await txn.revert();
        throw asApiError(err, obj.metadata.name ?? '');
      }
      if (txn.claims.length === 0) return;
      return () => txn.revert();
    },

    async beforeUpdate(obj, old, ctx): Promise<Undo | void> {
      const spec = obj.spec;
      const oldSpec = isObj(old.spec) ? old.spec : {};
      if (!isObj(spec)) return;
      dropTypeDependentFields(spec, oldSpec);
      patchAllocatedValues(spec, oldSpec);
      normalizeClusterIPsUpdate(spec, oldSpec);
      const txn = new Txn(claims, ownerOf(obj), ctx.dryRun);
      const release: Deferred[] = [];
      try {
        const wellFormed = initIPFamilyFields(obj, spec, oldSpec);
        if (wellFormed && needsClusterIP(spec)) {
          if (!needsClusterIP(oldSpec)) await allocClusterIPs(obj, spec, txn); // ExternalName → a type with a cluster IP
          else if (!isHeadless(oldSpec) && clusterIPsOf(oldSpec).length === 0 && strs(oldSpec.clusterIPs).length === 0 && !isHeadless(spec)) {
            // Stored before cluster IPs were allocated here: it gets one now.
            await allocClusterIPs(obj, spec, txn);
          }
        } else if (!needsClusterIP(spec) && needsClusterIP(oldSpec) && !isHeadless(oldSpec)) {
          for (const v of clusterIPsOf(oldSpec)) release.push({ kind: 'ip', pool: ipPool, value: v });
        }
        if (needsNodePort(oldSpec) && (spec.type === 'ExternalName' || spec.type === 'ClusterIP')) {
          for (const v of nodePortsOf(oldSpec)) release.push({ kind: 'port', pool: portPool, value: v });
        }
        if (needsNodePort(spec)) await updateNodePorts(obj, spec, oldSpec, txn, release);
        const needed = needsHCNodePort(oldSpec);
        const needs = needsHCNodePort(spec);
        if (!needed && needs) await allocHealthCheckNodePort(spec, txn);
        else if (needed && !needs) {
          const hc = portNum(oldSpec.healthCheckNodePort);
          if (hc > 0) release.push({ kind: 'port', pool: portPool, value: hc });
        }
      } catch (err) {
        await txn.revert();
        throw asApiError(err, obj.metadata.name ?? '');
      }
      if (ctx.dryRun) return;
      const oldRevision = Number(old.metadata.resourceVersion);
      const follow = release.length > 0 ? startFollowUp(obj, Number.isSafeInteger(oldRevision) ? oldRevision : 0, dedupe(release)) : undefined;
      if (txn.claims.length === 0 && !follow) return;
      return async () => {
        follow?.cancel();
        await txn.revert();
      };
    },

    async afterDelete(obj): Promise<void> {
      const spec = isObj(obj.spec) ? obj.spec : {};
      const uid = obj.metadata.uid ?? '';
      const items: Deferred[] = [];
      if (needsClusterIP(spec) && !isHeadless(spec)) for (const v of clusterIPsOf(spec)) items.push({ kind: 'ip', pool: ipPool, value: v });
      for (const v of nodePortsOf(spec)) items.push({ kind: 'port', pool: portPool, value: v });
      const hc = portNum(spec.healthCheckNodePort);
      if (hc > 0) items.push({ kind: 'port', pool: portPool, value: hc });
      const failures: unknown[] = [];
      for (const it of dedupe(items)) {
        try {
          await claims.release(it.pool, it.value, uid);
        } catch (err) {
          failures.push(err);
        }
      }
      if (failures.length > 0) throw new AggregateError(failures, `releasing what Service ${obj.metadata.namespace}/${obj.metadata.name} held failed`);
    },

    async settled(): Promise<void> {
      // Follow-up deadlines do not hold the process open; whoever waits for them does.
      const keepAlive = setInterval(() => undefined, 1000);
      try {
        while (followUps.size > 0) await Promise.all([...followUps].map((f) => f.done));
      } finally {
        clearInterval(keepAlive);
      }
    },

    async close(): Promise<void> {
      for (const f of followUps) f.finishNow();
      await this.settled();
    },
  };
}

function dedupe(items: Deferred[]): Deferred[] {
  const seen = new Set<string>();
  return items.filter((it) => {
    const k = it.pool.prefix + it.value;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * ValidateServiceClusterIPsRelatedFields, the loose pre-check Kubernetes runs
 * before allocating (its errors answer the request; allocation never sees
 * malformed input).
 */
function clusterIPFieldErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const sp = fieldPath('spec');
  const ipsPath = sp.child('clusterIPs');
  const clusterIP = str(spec.clusterIP);
  const clusterIPs = strs(spec.clusterIPs);
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(required(ipsPath));
    else if (clusterIPs[0] !== clusterIP) errs.push(invalid(ipsPath, clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(invalid(ipsPath, clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  strs(spec.ipFamilies).forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(sp.child('ipFamilies').index(i), f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(duplicate(sp.child('ipFamilies').index(i), f));
    seen.add(f);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(str(policy))) {
    errs.push(notSupported(sp.child('ipFamilyPolicy'), policy, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
  }
  let badIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        badIPs = true;
        errs.push(invalid(ipsPath, clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    for (const m of ipErrors(ip)) {
      badIPs = true;
      errs.push(invalid(ipsPath.index(i), ip, m));
    }
  });
  if (clusterIPs.length > 2) errs.push(invalid(ipsPath, clusterIPs, 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (clusterIPs.length > 1) {
    const fams = clusterIPs.map(ipFamily);
    if (fams.length !== 2 || fams[0] === fams[1]) errs.push(invalid(ipsPath, clusterIPs, 'may specify no more than one IP for each IP family'));
  }
  const families = strs(spec.ipFamilies);
  if (!(clusterIPs.length === 1 && clusterIPs[0] === 'None') && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i >= families.length) return;
      const fam = ipFamily(ip);
      if (families[i] === 'IPv4' && fam === 'IPv6') errs.push(invalid(ipsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && fam !== 'IPv6') errs.push(invalid(ipsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** Whether a cluster IP field holds something that is not an address (left to validation). */
function malformedIPs(spec: Obj): boolean {
  return strs(spec.clusterIPs).some((ip, i) => !(i === 0 && ip === 'None') && ipFamily(ip) === undefined);
}

/**
 * One update's deferred releases: watches the Service's key from the old
 * revision and, on each change and at the deadline, releases the values the
 * stored Service no longer uses (claims.release checks the owner's uid).
 */
class FollowUp {
  readonly done: Promise<void>;
  private cancelled = false;
  private wake: (() => void) | undefined;
  private finish: (() => void) | undefined;
  private remaining: Deferred[];

  constructor(
    private readonly storage: Store,
    private readonly claims: Claims,
    private readonly key: string,
    private readonly uid: string,
    fromRevision: number,
    items: Deferred[],
    deadlineMs: number,
  ) {
    this.remaining = items;
    this.done = this.run(fromRevision, deadlineMs).catch((err) => {
      console.error(`svc: releasing node ports or cluster IPs dropped by an update of ${key} failed:`, err);
    });
  }

  /** The update failed: release nothing. */
  cancel(): void {
    this.cancelled = true;
    this.finish?.();
  }

  /** Shutdown: one last check now, then stop. */
  finishNow(): void {
    this.finish?.();
  }

  private async run(fromRevision: number, deadlineMs: number): Promise<void> {
    let changed = false;
    let ended = false;
    const ping = () => {
      changed = true;
      this.wake?.();
    };
    this.finish = () => {
      ended = true;
      this.wake?.();
    };
    const timer = setTimeout(() => this.finish?.(), deadlineMs);
    timer.unref?.();
    let handle: { close(): void } | undefined;
    try {
      handle = await this.storage.watch({ prefix: this.key, fromRevision }, {
        onEvents: (events) => {
          if (events.some((e) => (e.type === 'delete' ? e.key : e.kv.key) === this.key)) ping();
        },
        onError: () => this.finish?.(),
      });
    } catch {
      // No watch (history compacted, store closing): the deadline check still runs.
    }
    try {
      while (!this.cancelled && this.remaining.length > 0) {
        if (!changed && !ended) await new Promise<void>((r) => (this.wake = r));
        this.wake = undefined;
        if (this.cancelled) return;
        changed = false;
        await this.releaseUnused();
        if (ended) return;
      }
    } finally {
      clearTimeout(timer);
      handle?.close();
    }
  }

  private async releaseUnused(): Promise<void> {
    const kv = await this.storage.get(this.key);
    let svc: ApiObject | undefined;
    if (kv) {
      try {
        svc = JSON.parse(Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8')) as ApiObject;
      } catch {
        svc = undefined;
      }
    }
    const same = svc !== undefined && svc.metadata?.uid === this.uid;
    const spec = same && isObj(svc!.spec) ? svc!.spec : {};
    // Anything the stored object mentions counts as used, whatever its type.
    const usedIPs = new Set(clusterIPsOf(spec));
    const usedPorts = new Set(nodePortsOf(spec));
    const hc = portNum(spec.healthCheckNodePort);
    if (hc > 0) usedPorts.add(hc);
    const keep: Deferred[] = [];
    for (const it of this.remaining) {
      const used = it.kind === 'ip' ? usedIPs.has(it.value) : usedPorts.has(it.value);
      if (same && used) {
        keep.push(it);
        continue;
      }
      await this.claims.release(it.pool, it.value, this.uid);
    }
    this.remaining = keep;
  }
}
