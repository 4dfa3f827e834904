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
import { fieldPath, newInternalError, newInvalid, invalid, isStatusError, type FieldError } from '../../api/meta/index.js';
import { ipFamily } from '../../api/meta/checks.js';
import { fromStorage } from '../errors.js';
import { keysOf } from '../keys.js';
import type { ApiObject } from '../object.js';
import type { Undo, WriteHooks } from '../hooks.js';
import { Claims, type Owner } from './claims.js';
import { clusterIPPool, nodePortPool, parseIPv4, formatIPv4, type ClusterIPRange, type NodePortRange } from './ranges.js';
import {
  clusterIPFieldErrors, clusterIPsOf, isHeadless, isObj, malformedIPs, needsClusterIP, needsHCNodePort, needsNodePort,
  nodePortsOf, portNum, ports, sameListLoose, setPort, shouldAllocateNodePorts, str, strs, type Obj,
} from './servicespec.js';
import { Txn } from './txn.js';
import { dedupe, FollowUp, type Deferred } from './followup.js';

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

const SERVICES = { group: '', resource: 'services' };
const SERVICE_KIND = { group: '', kind: 'Service' };

/** Internal error (500) with Kubernetes' "Internal error occurred: …" wording. */
const internal = (msg: string) => newInternalError(new Error(msg));

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
