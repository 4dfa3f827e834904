// The digested APF configuration (kube's apf_controller digestConfigObjects):
// from the FlowSchemas and PriorityLevelConfigurations, the priority levels
// with their limits and queue sets, and the flow schemas in matching order.
// A new configuration keeps each surviving level's queue set (its limits and
// queues change in place). While a mandatory object is missing from storage
// its bootstrap copy is used, as kube does. A schema whose priority level does
// not exist is dangling: it matches nothing.
import type { ApiObject } from '../registry/object.js';
import type { Clock } from './clock.js';
import { byPrecedence, candidatesFor, compileFlowSchema, firstCandidate, type CompiledFlowSchema, type UserCandidate } from './classify.js';
import type { UserInfo } from '../authn/user.js';
import type { RequestInfo } from '../endpoints/requestinfo.js';
import { levelLimits, updateDemandStats, fairAllocation, type DemandStats, type LevelLimits } from './concurrency.js';
import { QueueSet, type QueuingConfig } from './queueset.js';
import { levelMetrics } from './metrics.js';
import { priorityAndFairnessRatios } from './readvswrite.js';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_NAMES, MANDATORY_PRIORITY_LEVELS } from './bootstrap.js';
import { validateDeal } from './dealer.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export interface PriorityLevel {
  readonly name: string;
  uid: string;
  exempt: boolean;
  limits: LevelLimits;
  /** The limit in force after borrowing (the nominal one until the first adjustment). */
  currentCL: number;
  readonly stats: DemandStats;
  /** Limited levels: the queue set; exempt levels count what runs. */
  readonly qs: QueueSet;
  /** Requests executing at an exempt level. */
  exemptExecuting: number;
  /** Whether the configuration still has it. */
  live: boolean;
}

interface LevelSpec {
  readonly exempt: boolean;
  readonly shares: number;
  readonly lendablePercent: number;
  readonly borrowingLimitPercent: number | undefined;
  readonly queuing: QueuingConfig | undefined;
}

function levelSpec(pl: ApiObject): LevelSpec {
  const spec = obj((pl as unknown as Obj).spec);
  if (spec.type === 'Exempt') return { exempt: true, shares: 0, lendablePercent: 0, borrowingLimitPercent: undefined, queuing: undefined };
  const l = obj(spec.limited);
  const num = (v: unknown, d: number) => (typeof v === 'number' ? v : d);
  const lr = obj(l.limitResponse);
  const q = obj(lr.queuing);
  let queuing: QueuingConfig | undefined;
  if (lr.type === 'Queue') {
    queuing = { queues: num(q.queues, 64), handSize: num(q.handSize, 8), queueLengthLimit: num(q.queueLengthLimit, 50) };
    // a hand the dealer cannot deal (validation should have refused it): no queuing
    if (validateDeal(queuing.queues, queuing.handSize) !== undefined) queuing = undefined;
  }
  return {
    exempt: false, shares: num(l.nominalConcurrencyShares ?? l.assuredConcurrencyShares, 30), lendablePercent: num(l.lendablePercent, 0),
    borrowingLimitPercent: typeof l.borrowingLimitPercent === 'number' ? l.borrowingLimitPercent : undefined, queuing,
  };
}

export interface Classified {
  readonly schema: CompiledFlowSchema;
  readonly level: PriorityLevel;
}

/** Users whose candidate schemas are remembered by name and groups (the cache is emptied when full). */
const USER_CACHE_LIMIT = 4096;

function sameGroups(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class FlowControlConfig {
  private levelsByName = new Map<string, PriorityLevel>();
  private schemas: readonly CompiledFlowSchema[] = [];
  private orderedNow: readonly Classified[] = [];
  /** Per user name: the groups last seen with it and the schemas its subjects can match; emptied with every new order. */
  private byUser = new Map<string, { readonly groups: readonly string[]; readonly candidates: readonly UserCandidate<Classified>[] }>();
  private catchAll: Classified | undefined;
  /** Dangling (true) or not, by the stored schemas' names (the in-memory mandatory copies are not written). */
  dangling = new Map<string, { level: string; dangling: boolean }>();
  nominalSum = 0;
  /** The fair proportion of the last borrowing adjustment (seat_fair_frac). */
  fairFrac = 0;

  constructor(private readonly clock: Clock, readonly serverCL: number) {}

  /** Schemas in matching order, each with its level (the dangling ones left out). */
  get ordered(): readonly Classified[] {
    return this.orderedNow;
  }
  set ordered(v: readonly Classified[]) {
    this.orderedNow = v;
    this.byUser.clear();
    this.catchAll = v.find((c) => c.schema.name === MANDATORY_NAMES.catchAll);
  }

  /** The user's candidate schemas, worked out once per user (name and groups) and configuration. */
  private candidates(user: UserInfo): readonly UserCandidate<Classified>[] {
    const hit = this.byUser.get(user.name);
    if (hit && sameGroups(hit.groups, user.groups)) return hit.candidates;
    const candidates = candidatesFor(this.orderedNow, (x) => x.schema, user);
    if (this.byUser.size >= USER_CACHE_LIMIT) this.byUser.clear();
    this.byUser.set(user.name, { groups: [...user.groups], candidates });
    return candidates;
  }

  get levels(): readonly PriorityLevel[] {
    return [...this.levelsByName.values()];
  }

  level(name: string): PriorityLevel | undefined {
    return this.levelsByName.get(name);
  }

  get flowSchemas(): readonly CompiledFlowSchema[] {
    return this.schemas;
  }

  /** A new set of objects (from the informers). */
  apply(flowSchemas: readonly ApiObject[], priorityLevels: readonly ApiObject[]): void {
    const pls = [...priorityLevels];
    for (const m of MANDATORY_PRIORITY_LEVELS) if (!pls.some((p) => p.metadata.name === m.metadata.name)) pls.push(m);
    const fss = [...flowSchemas];
    const stored = new Set(fss.map((f) => f.metadata.name));
    for (const m of MANDATORY_FLOW_SCHEMAS) if (!stored.has(m.metadata.name)) fss.push(m);

    const specs = pls.map((p) => ({ p, s: levelSpec(p) }));
    const limited = specs.filter((x) => !x.s.exempt);
    const limits = levelLimits(this.serverCL, limited.map((x) => x.s));
    const limitsByName = new Map(limited.map((x, i) => [x.p.metadata.name!, limits[i]!]));
    this.nominalSum = limits.reduce((s, l) => s + l.nominalCL, 0);
    for (const l of this.levelsByName.values()) l.live = false;
    for (const { p, s } of specs) {
      const name = p.metadata.name!;
      const lim = limitsByName.get(name) ?? { nominalCL: 0, lendableCL: 0, borrowingCL: 0 };
      let level = this.levelsByName.get(name);
      if (!level) {
        const initialCL = lim.nominalCL - Math.floor(lim.lendableCL / 2);
        level = {
          name, uid: '', exempt: s.exempt, limits: lim, currentCL: initialCL, stats: { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 },
          qs: new QueueSet(name, this.clock, initialCL, s.queuing, levelMetrics(name, () => this.clock.now())), exemptExecuting: 0, live: true,
        };
        this.levelsByName.set(name, level);
      } else {
        level.limits = lim;
        level.exempt = s.exempt;
        level.live = true;
        level.qs.setConfig(level.currentCL, s.queuing);
      }
      level.uid = p.metadata.uid ?? '';
      if (!s.exempt) level.qs.setNominalLimit(lim.nominalCL);
    }
    // read_vs_write_current_requests: over the queues' total capacity and the nominal limits' sum
    priorityAndFairnessRatios(limited.reduce((n, x) => n + (x.s.queuing ? x.s.queuing.queues * x.s.queuing.queueLengthLimit : 0), 0), this.nominalSum);
    // levels gone from the configuration are forgotten once nothing runs or waits there
    for (const [name, l] of this.levelsByName) if (!l.live && l.qs.totExecuting === 0 && l.qs.totWaiting === 0 && l.exemptExecuting === 0) this.levelsByName.delete(name);

    this.schemas = fss.map(compileFlowSchema).sort(byPrecedence);
    const ordered: Classified[] = [];
    const dangling = new Map<string, { level: string; dangling: boolean }>();
    for (const fs of this.schemas) {
      const level = this.levelsByName.get(fs.priorityLevel);
      const isDangling = !level || !level.live;
      if (stored.has(fs.name)) dangling.set(fs.name, { level: fs.priorityLevel, dangling: isDangling });
      if (!isDangling) ordered.push({ schema: fs, level: level! });
    }
    this.ordered = ordered;
    this.dangling = dangling;
    // as kube, the limits are re-divided with every new configuration
    this.adjustBorrowing();
  }

  /** The schema and level of a request: the first match in order; the catch-all (always present) when nothing matches. */
  classify(user: UserInfo, info: RequestInfo): Classified {
    return firstCandidate(this.candidates(user), info) ?? this.catchAll!;
  }

  /** kube's updateBorrowing: the current limits re-divided by smoothed seat demand. */
  adjustBorrowing(): void {
    const limited = this.levels.filter((l) => l.live && !l.exempt);
    const items = limited.map((l) => {
      updateDemandStats(l.stats, l.qs.demand.reset());
      const { nominalCL, lendableCL, borrowingCL } = l.limits;
      const lower = Math.max(nominalCL - lendableCL, Math.min(nominalCL, l.stats.highWatermark));
      return { lower, upper: nominalCL + borrowingCL, target: Math.max(lower, l.stats.smoothed) };
    });
    // bounds that cannot meet (kube logs it): the current limits stay
    const result = fairAllocation(this.nominalSum, items);
    if (!result) return;
    this.fairFrac = result.fairProp;
    limited.forEach((l, i) => {
      l.currentCL = Math.round(result.allocs[i]!);
      l.qs.setConfig(l.currentCL, l.qs.queuingConfig);
    });
  }
}
