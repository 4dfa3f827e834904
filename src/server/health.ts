// Health endpoints: /healthz (deprecated), /livez, /readyz and one path per
// check (/livez/ping, /readyz/etcd, /readyz/poststarthook/<name>, ...), with
// Kubernetes' text output: `?verbose` (also the empty `verbose=`) lists
// `[+]<check> ok` lines and ends with `<endpoint> check passed`; `?exclude=`
// skips checks; a failing check answers 500 with its line as `[-]<check>
// failed: reason withheld`.

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; throws (or rejects) with the reason otherwise. */
  check(): void | Promise<void>;
}

export type Endpoint = 'healthz' | 'livez' | 'readyz';

export interface HealthResponse {
  readonly status: number;
  readonly body: string;
}

/** A named start-up step; its check fails until done() is called. */
export class PostStartHook implements HealthCheck {
  readonly name: string;
  private finished = false;
  constructor(hookName: string) {
    this.name = `poststarthook/${hookName}`;
  }
  done(): void {
    this.finished = true;
  }
  get isDone(): boolean {
    return this.finished;
  }
  check(): void {
    if (!this.finished) throw new Error('not finished');
  }
}

export interface HealthOptions {
  readonly checks: Record<Endpoint, readonly HealthCheck[]>;
  /** livez treats unfinished post-start hooks as healthy for this long after start (--livez-grace-period). */
  readonly livezGracePeriodMs?: number;
  readonly startedAt?: number;
  readonly now?: () => number;
}

export class Health {
  private readonly startedAt: number;
  private readonly now: () => number;
  constructor(private readonly opts: HealthOptions) {
    this.now = opts.now ?? Date.now;
    this.startedAt = opts.startedAt ?? this.now();
  }

  /** Answers a health path, or returns null when the path is not a health path. */
  async handle(path: string, query: URLSearchParams): Promise<HealthResponse | null> {
    const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
    if (!m) return null;
    const endpoint = m[1] as Endpoint;
    const checks = this.opts.checks[endpoint];
    const single = m[2];
    if (single !== undefined) {
      const c = checks.find((x) => x.name === single);
      if (!c) return { status: 404, body: '404 page not found\n' };
      const err = await this.run(endpoint, c);
      return err ? { status: 500, body: `internal server error: ${err}\n` } : { status: 200, body: 'ok' };
    }
    const excluded = new Set(query.getAll('exclude').flatMap((v) => v.split(',')).filter(Boolean));
    const verbose = query.has('verbose');
    const lines: string[] = [];
    let failed = false;
    for (const c of checks) {
      if (excluded.has(c.name)) {
        lines.push(`[+]${c.name} excluded: ok`);
        continue;
      }
      const err = await this.run(endpoint, c);
      if (err) {
        failed = true;
        lines.push(`[-]${c.name} failed: reason withheld`);
      } else lines.push(`[+]${c.name} ok`);
    }
    if (failed) return { status: 500, body: `${lines.join('\n')}\n${endpoint} check failed\n` };
    if (verbose) return { status: 200, body: `${lines.join('\n')}\n${endpoint} check passed\n` };
    return { status: 200, body: 'ok' };
  }

  /** The failure reason, or undefined when healthy. */
  private async run(endpoint: Endpoint, c: HealthCheck): Promise<string | undefined> {
    if (endpoint === 'livez' && c instanceof PostStartHook && !c.isDone && this.now() - this.startedAt < (this.opts.livezGracePeriodMs ?? 0)) return undefined;
    try {
      await c.check();
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }
}

export const ping: HealthCheck = { name: 'ping', check: () => undefined };
export const log: HealthCheck = { name: 'log', check: () => undefined };

/** Fails once shutdown began, so load balancers stop sending traffic (readyz only). */
export class ShutdownCheck implements HealthCheck {
  readonly name = 'shutdown';
  private shuttingDown = false;
  begin(): void {
    this.shuttingDown = true;
  }
  check(): void {
    if (this.shuttingDown) throw new Error('process is shutting down');
  }
}
