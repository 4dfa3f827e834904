// The agent's routes, after authentication and authorization:
//
//   GET /healthz                                 "ok" (or kube's failed-check list, 500)
//   GET /pods                                    PodList of the pods the agent runs
//   GET /containerLogs/{namespace}/{pod}/{container}   the container's log (PodLogOptions query)
//
// The routes of exec, attach, port-forward, run, stats and metrics come later
// (LATER_ROUTES): a handler given in `extra` under one of those prefixes takes
// the prefix's paths; until then they answer 404 as any unknown path, as the
// kubelet answers a handler it did not install.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObject, type ApiObject } from '../../registry/object.js';
import { LogReadError, readLogs } from '../logs/read.js';
import type { AgentHost } from './host.js';
import { LogQueryError, parseLogQuery } from './logquery.js';

/** Path prefixes the later issue's handlers will take (exec/attach/portForward/run/stats/metrics). */
export const LATER_ROUTES = ['/exec', '/attach', '/portForward', '/run', '/stats', '/metrics', '/cri'] as const;
export type LaterRoute = (typeof LATER_ROUTES)[number];

export interface HandlerOptions {
  readonly host: AgentHost;
  /** The forced re-check of a followed log (kube: 1 s). */
  readonly logCheckIntervalMs?: number;
  /** Handlers of the later routes, by prefix (one of LATER_ROUTES). */
  readonly extra?: Readonly<Partial<Record<LaterRoute, Route>>>;
  /** Told when a log stream opens and closes (the server's count of open streams). */
  readonly streams?: { opened(): void; closed(): void };
}

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void;

export function agentRoutes(o: HandlerOptions): Route {
  return async (req, res, url) => {
    const path = url.pathname;
    if (path === '/healthz') return healthz(res, o.host);
    if (path === '/pods' && isRead(req)) return writeJson(res, 200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: o.host.pods() });
    const logs = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(path);
    if (logs && isRead(req)) return containerLogs(req, res, url, o, logs.slice(1).map(decodeURIComponent) as [string, string, string]);
    const later = LATER_ROUTES.find((p) => path === p || path.startsWith(`${p}/`));
    const handler = later && o.extra?.[later];
    if (handler) return handler(req, res, url);
    notFound(res);
  };
}

function isRead(req: IncomingMessage): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}

async function containerLogs(req: IncomingMessage, res: ServerResponse, url: URL, o: HandlerOptions, [namespace, podName, container]: [string, string, string]): Promise<void> {
  let query;
  try {
    query = parseLogQuery(url.searchParams);
  } catch (err) {
    if (err instanceof LogQueryError) return writeText(res, err.code, err.message);
    throw err;
  }
  const pod = o.host.pods().find((p) => p.metadata.namespace === namespace && p.metadata.name === podName);
  if (!pod) return writeText(res, 404, `pod "${podName}" does not exist`);
  if (!hasContainer(pod, container)) return writeText(res, 404, `container "${container}" not found in pod "${podName}"`);
  let log;
  try {
    log = await o.host.logPath(namespace, podName, container, query.previous);
  } catch (err) {
    // kube answers any failure to find the log 400 with its text (LogUnavailable is the expected kind)
    return writeText(res, 400, err instanceof Error ? err.message : String(err));
  }
  // Headers go out before the first line, so a follow of a quiet container is answered at once.
  res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
  res.flushHeaders();
  if (req.method === 'HEAD') return void res.end();
  const ac = new AbortController();
  const gone = () => ac.abort();
  res.on('close', gone);
  o.streams?.opened();
  try {
    await readLogs({
      path: log.path,
      options: query,
      isRunning: () => log.running(),
      signal: ac.signal,
      checkIntervalMs: o.logCheckIntervalMs ?? 1000,
      sink: {
        write: (chunk) => (res.write(chunk) ? undefined : new Promise<void>((resolve) => {
          const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
          res.on('drain', done);
          res.on('close', done);
        })),
      },
    });
    res.end();
  } catch (err) {
    // The status is already sent: the kubelet's late error text ends the body, as its WriteError after the flush does.
    if (err instanceof LogReadError) res.end(err.message);
    else res.destroy();
  } finally {
    res.off('close', gone);
    o.streams?.closed();
  }
}

/** kube's GetContainerSpec: containers, init containers and ephemeral containers. */
function hasContainer(pod: ApiObject, name: string): boolean {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return ['containers', 'initContainers', 'ephemeralContainers'].some((k) => Array.isArray(spec[k]) && (spec[k] as unknown[]).some((c) => isObject(c) && c.name === name));
}

/** /healthz as the kubelet's: ping, log and syncloop checks. */
export function healthz(res: ServerResponse, host: AgentHost): void {
  const failure = host.unhealthy?.();
  if (failure === undefined) return writeText(res, 200, 'ok');
  writeText(res, 500, '[+]ping ok\n[+]log ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n');
}

export function notFound(res: ServerResponse): void {
  writeText(res, 404, '404 page not found\n');
}

export function writeText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function writeJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
