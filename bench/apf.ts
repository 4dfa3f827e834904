// API Priority and Fairness (issue 26): the filter's cost per request in
// process, against the plain max-in-flight filter it replaces, over the
// bootstrap configuration at 600 seats: an exempt request (system:masters),
// an ordinary user's get (global-default: classification, work estimate,
// shuffle sharding, virtual-time bookkeeping, metrics), a list (object count
// read from the watch cache's size) and a service account's request.
import { withPriorityAndFairness } from '../src/server/filters/apf.js';
import { withMaxInFlight } from '../src/server/filters/inflight.js';
import { FlowControlConfig } from '../src/flowcontrol/config.js';
import { realClock } from '../src/flowcontrol/clock.js';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from '../src/flowcontrol/bootstrap.js';
import type { Handler, RequestContext } from '../src/server/context.js';
import type { UserInfo } from '../src/authn/user.js';
import type { RequestInfo } from '../src/endpoints/requestinfo.js';
import { fmt } from './report.js';

const N = 200_000;

function ctxFor(user: UserInfo, verb: string, resource: string): RequestContext {
  const headers: Record<string, unknown> = {};
  const info: RequestInfo = {
    isResourceRequest: true, verb: verb as never, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'default', resource, subresource: '', name: verb === 'get' ? 'x' : '',
    parts: [resource], path: `/api/v1/namespaces/default/${resource}`,
  };
  return {
    req: { method: 'GET', headers: {}, socket: {}, once: () => undefined } as never,
    res: { statusCode: 200, headersSent: false, writableEnded: false, setHeader: (n: string, v: unknown) => (headers[n] = v), getHeader: (n: string) => headers[n] } as never,
    url: new URL(`https://x${info.path}`), requestInfo: info, user, longRunning: false,
  };
}

async function perRequestMicros(h: Handler, ctx: RequestContext): Promise<number> {
  for (let i = 0; i < 20_000; i++) await h(ctx);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await h(ctx);
  return Number(process.hrtime.bigint() - t0) / 1000 / N;
}

export async function benchApf(): Promise<string[]> {
  const config = new FlowControlConfig(realClock, 600);
  config.apply([...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS], [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]);
  const next: Handler = async () => undefined;
  const counts = { objects: () => 1500, watchers: () => 3 };
  const apf = withPriorityAndFairness(next, { controller: config, counts, watchList: false, requestTimeoutMs: 60_000 });
  const inflight = withMaxInFlight(next, { readonly: 400, mutating: 200 });
  const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
  const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
  const sa: UserInfo = { name: 'system:serviceaccount:default:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] };
  const rows: [string, Handler, RequestContext][] = [
    ['max-in-flight (the filter APF replaces), a get', inflight, ctxFor(alice, 'get', 'configmaps')],
    ['APF, exempt (system:masters) get', apf, ctxFor(admin, 'get', 'configmaps')],
    ['APF, a user\'s get (global-default; subjects matched once per user, 2 candidate schemas)', apf, ctxFor(alice, 'get', 'configmaps')],
    ['APF, a user\'s list of 1,500 objects (15 → 10 seats)', apf, ctxFor(alice, 'list', 'configmaps')],
    ['APF, a service account\'s get (service-accounts)', apf, ctxFor(sa, 'get', 'configmaps')],
  ];
  const lines = [
    '### API Priority and Fairness filter (issue 26)', '',
    `In process, one request at a time (${N.toLocaleString('en')} after 20,000 warm-up), next handler empty; the bootstrap configuration at 600 seats; metrics recorded through prom-client.`, '',
    '| request | µs per request |', '|---|---|',
  ];
  for (const [name, h, ctx] of rows) lines.push(`| ${name} | ${fmt(await perRequestMicros(h, ctx), 2)} |`);
  return lines;
}
