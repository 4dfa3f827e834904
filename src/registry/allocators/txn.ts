// One Service write's allocations: the claims it has made (or, under dryRun,
// the values it has only picked), so a failed write can give them back.
import type { Claims, Claim, Owner } from './claims.js';
import type { Pool } from './ranges.js';

/** What one write has claimed so far (or picked, under dryRun). */
export class Txn {
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
