// The status manager (kube's status.Manager): holds the status the agent
// wants each pod to have and writes it to pods/status when the API's copy
// differs — one write at a time per pod, merged with the conditions other
// writers own, never moving a pod out of a terminal phase — and deletes a
// pod the agent has finished once it is marked for deletion (grace period 0,
// UID precondition), which is how a graceful deletion ends. A static pod's
// status goes to its mirror pod. Failed writes are retried by the periodic
// resync (kube's syncBatch, 10 s).
import { isStatusError } from '../../api/meta/index.js';
import type { Target } from '../../controllers/client.js';
import { isObject, type ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import { KUBELET_CONDITIONS, statusDiffers } from './status.js';

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObject) : []);

export const PODS: Target = { group: '', version: 'v1', resource: 'pods' };
export const POD_STATUS: Target = { ...PODS, subresource: 'status' };

const TERMINAL = new Set(['Succeeded', 'Failed']);

/** Where a pod's status is written: the pod itself, or a static pod's mirror pod. */
export interface StatusTarget {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

interface Entry {
  target: StatusTarget;
  status: Obj;
  /** The agent finished the pod (containers stopped, volumes cleaned): it may be deleted. */
  finished: boolean;
  /** A static pod's status (its mirror pod is never deleted by the status manager). */
  mirror: boolean;
  writing: boolean;
  again: boolean;
}

export interface StatusManagerOptions {
  /** None in standalone mode: statuses are kept, never written. */
  readonly api?: AgentApi;
  /** The API's current copy of a pod (the pods informer), to skip writes that change nothing. */
  readonly lookup?: (namespace: string, name: string) => ApiObject | undefined;
  readonly onError?: (target: StatusTarget, err: unknown) => void;
  readonly resyncMs?: number;
}

/** kube's mergePodStatus: other writers' conditions from the API's copy, the agent's own from the new status. */
export function mergeStatus(current: Obj, desired: Obj): Obj {
  const byKubelet = (c: Obj) => KUBELET_CONDITIONS.includes(String(c.type));
  const conditions = [...list(current.conditions).filter((c) => !byKubelet(c)), ...list(desired.conditions).filter(byKubelet)];
  const merged: Obj = { ...desired, conditions };
  if (TERMINAL.has(String(current.phase)) && !TERMINAL.has(String(desired.phase))) merged.phase = current.phase;
  // kube keeps the order of the API's conditions where it can: the agent's own first as generated
  return merged;
}

export class StatusManager {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private idleWaiters: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly opts: StatusManagerOptions) {
    this.timer = setInterval(() => this.resyncAll(), opts.resyncMs ?? 10_000);
    this.timer.unref();
  }

  /** The status the agent wants for a pod (by the pod's UID); written soon. */
  setPodStatus(uid: string, target: StatusTarget, status: Obj, mirror = false): void {
    const e = this.entries.get(uid);
    if (e) {
      e.target = target;
      e.status = status;
      e.mirror = mirror;
    } else {
      this.entries.set(uid, { target, status, finished: false, mirror, writing: false, again: false });
    }
    this.schedule(uid);
  }

  getPodStatus(uid: string): Obj | undefined {
    return this.entries.get(uid)?.status;
  }

  /** The agent finished the pod: a pod marked for deletion is deleted now. */
  markFinished(uid: string): void {
    const e = this.entries.get(uid);
    if (!e) return;
    e.finished = true;
    this.schedule(uid);
  }

  /** The pod is gone from the agent's sources. */
  forget(uid: string): void {
    this.entries.delete(uid);
  }

  /** Resolves when no write is running or due (tests). */
  idle(): Promise<void> {
    for (const e of this.entries.values()) if (e.writing || e.again) return new Promise((resolve) => this.idleWaiters.push(resolve));
    return Promise.resolve();
  }

  /** No write starts after this (one in flight finishes). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private resyncAll(): void {
    for (const uid of this.entries.keys()) this.schedule(uid);
  }

  private schedule(uid: string): void {
    const e = this.entries.get(uid);
    if (!e || this.stopped) return;
    if (e.writing) {
      e.again = true;
      return;
    }
    e.writing = true;
    void this.write(uid, e).finally(() => {
      e.writing = false;
      if (e.again && this.entries.get(uid) === e) {
        e.again = false;
        this.schedule(uid);
        return;
      }
      e.again = false;
      if ([...this.entries.values()].every((x) => !x.writing && !x.again)) for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  private async write(uid: string, e: Entry): Promise<void> {
    const api = this.opts.api;
    if (!api) return;
    const { namespace, name } = e.target;
    try {
      const cached = this.opts.lookup?.(namespace, name);
      const upToDate = cached !== undefined && cached.metadata.uid === e.target.uid
        && !statusDiffers(isObject(cached.status) ? cached.status : {}, mergeStatus(isObject(cached.status) ? cached.status : {}, e.status));
      let latest = cached;
      if (!upToDate) {
        // the watched copy (when it is this pod) is the first attempt's base: no GET unless it is stale
        const base = cached !== undefined && cached.metadata.uid === e.target.uid ? cached : undefined;
        latest = await api.update(POD_STATUS, namespace, name, (current) => {
          if (current.metadata.uid !== e.target.uid) throw new PodReplaced();
          const cur = isObject(current.status) ? current.status : {};
          return { ...current, status: mergeStatus(cur, e.status) };
        }, base);
      }
      if (e.finished && !e.mirror && latest?.metadata.deletionTimestamp) {
        await api.delete(PODS, namespace, name, { gracePeriodSeconds: 0, preconditions: { uid: e.target.uid } });
        this.entries.delete(uid);
      }
    } catch (err) {
      if (err instanceof PodReplaced || (isStatusError(err) && (err.status.code === 404 || err.status.code === 409))) {
        // gone, or another pod of that name now: nothing to write
        if (isStatusError(err) && err.status.code === 404) this.entries.delete(uid);
        return;
      }
      this.opts.onError?.(e.target, err);
    }
  }
}

class PodReplaced extends Error {}
