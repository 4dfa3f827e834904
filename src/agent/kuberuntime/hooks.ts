// Lifecycle hooks (kube's HandlerRunner): exec runs through CRI ExecSync (no
// timeout, as kube passes none), httpGet sends a GET to the pod's IP (or the
// handler's host) and fails only when no response comes. The message of a
// failure is kube's; Events only say that the hook failed.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { RuntimeService } from '../cri/types.js';
import { formatPod, type Container, type LifecycleHandler, type Pod } from './types.js';

export class HookError extends Error {
  override readonly name = 'HookError';
}

/** A named port (`http`) → the container's port number. */
export function resolvePort(port: number | string, container: Container): number {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  const p = container.ports?.find((x) => x.name === port);
  if (!p) throw new HookError(`couldn't find port: ${port} in ${JSON.stringify(container.ports ?? [])}`);
  return p.containerPort;
}

/** Go's %v of a []string. */
const goList = (xs: readonly string[]): string => `[${xs.join(' ')}]`;

export interface HookContext {
  readonly runtime: RuntimeService;
  /** The pod's first IP (the host's for host-network pods). */
  readonly podIP: string;
  /** HTTP timeout for httpGet hooks (ms). */
  readonly httpTimeoutMs?: number;
}

function httpGet(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', headers, timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      res.resume();
      res.on('end', () => resolve());
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`Get "${url.href}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)));
    req.on('error', reject);
    req.end();
  });
}

/** Runs a handler; resolves, or rejects with HookError carrying kube's message. */
export async function runHandler(ctx: HookContext, containerId: string, pod: Pod, container: Container, handler: LifecycleHandler): Promise<void> {
  if (handler.exec) {
    const cmd = handler.exec.command ?? [];
    let output = '';
    let err: string | undefined;
    try {
      const r = await ctx.runtime.execSync(containerId, cmd, 0);
      output = Buffer.concat([r.stdout, r.stderr]).toString('utf8');
      if (r.exitCode !== 0) err = `command '${cmd.join(' ')}' exited with ${r.exitCode}: ${r.stderr.toString('utf8')}`;
    } catch (e) {
      err = (e as Error).message;
    }
    if (err !== undefined) {
      throw new HookError(`Exec lifecycle hook (${goList(cmd)}) for Container "${container.name}" in Pod "${formatPod(pod)}" failed - error: ${err}, message: ${JSON.stringify(output)}`);
    }
    return;
  }
  if (handler.httpGet) {
    const h = handler.httpGet;
    const path = h.path ?? '';
    try {
      const port = resolvePort(h.port, container);
      const host = h.host || ctx.podIP;
      const scheme = (h.scheme ?? 'HTTP').toLowerCase();
      const url = new URL(`${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${path.startsWith('/') ? path : `/${path}`}`);
      const headers: Record<string, string> = { 'User-Agent': 'kube-lifecycle/1.27', Accept: '*/*' };
      for (const x of h.httpHeaders ?? []) headers[x.name] = x.value;
      await httpGet(url, headers, ctx.httpTimeoutMs ?? 10_000);
    } catch (e) {
      throw new HookError(`HTTP lifecycle hook (${path}) for Container "${container.name}" in Pod "${formatPod(pod)}" failed - error: ${(e as Error).message}`);
    }
    return;
  }
  throw new HookError(`Cannot run handler: invalid handler: ${JSON.stringify(handler)}`);
}
