// The httpGet probe, as the kubelet's HTTP prober runs it (the request is
// built in httprequest.ts): HTTPS without verifying certificates, no
// keep-alive (Connection: close), and
//
//   result   200–399 success; a redirect (301/302/303/307/308) is followed
//            only to the same host name (at most 10), otherwise the 3xx is a
//            success with a warning; other codes fail with kube's text
//            `HTTP probe failed with statuscode: 500`; the body is read up to
//            10 KiB; the whole exchange must end within the timeout.
//
// Failures that never reach a response read as Go's client errors:
// `Get "http://10.0.0.1:80/healthz": dial tcp 10.0.0.1:80: connect: connection refused`.
import { request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { dialErrorText, errCode, goQuote, joinHostPort } from './goformat.js';
import { nextRequest, type HttpProbeRequest } from './httprequest.js';
import { ProbeError, type ProbeOutcome } from './types.js';

export { PROBE_USER_AGENT, buildHttpRequest, canonicalHeaderName, type HttpProbeRequest } from './httprequest.js';

/** kube's maxRespBodyLength. */
export const HTTP_MAX_BODY = 10 * 1024;
const MAX_REDIRECTS = 10;
const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);

/** What sending one request gave. */
type Exchange = { readonly res: IncomingMessage; readonly req: ClientRequest };

class Deadline {
  expired = false;
  private readonly timer: NodeJS.Timeout;
  private onExpire: (() => void) | undefined;
  constructor(ms: number) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.onExpire?.();
    }, ms);
  }
  watch(fn: () => void): void {
    this.onExpire = fn;
  }
  clear(): void {
    clearTimeout(this.timer);
  }
}

function send(r: HttpProbeRequest, deadline: Deadline): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const headers: OutgoingHttpHeaders = {};
    for (const [k, v] of r.headers) {
      const prev = headers[k];
      headers[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [String(prev), v];
    }
    headers.Host = r.hostHeader;
    const options = {
      host: r.host, port: r.port, path: r.target, method: 'GET', headers, agent: false as const,
      ...(r.scheme === 'https' ? { rejectUnauthorized: false, servername: isIP(r.host) ? '' : r.host } : {}),
    };
    let req: ClientRequest;
    try {
      req = (r.scheme === 'https' ? httpsRequest : httpRequest)(options);
    } catch (err) {
      reject(err);
      return;
    }
    deadline.watch(() => req.destroy(new Error('deadline')));
    req.once('response', (res) => resolve({ res, req }));
    req.once('error', reject);
    req.end();
  });
}

/** Go's text for a request that got no response. */
function transportErrorText(r: HttpProbeRequest, err: unknown): string {
  const code = errCode(err);
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL') {
    return dialErrorText(joinHostPort(r.host, r.port), r.host, err);
  }
  if (code === 'ECONNRESET' || (err instanceof Error && err.message === 'socket hang up')) return 'EOF';
  return err instanceof Error ? err.message : String(err);
}

/** Reads at most `limit` bytes of the body (more is dropped, as kube's ReadAtMost truncation). */
function readBody(res: IncomingMessage, gzip: boolean, limit: number, deadline: Deadline): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
    const stream: Readable = gzip && encoding === 'gzip' ? res.pipe(createGunzip()) : res;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (err?: Error): void => {
      if (settled) return;
      settled = true;
      res.destroy();
      if (err) reject(err);
      else resolve(Buffer.concat(chunks).subarray(0, limit));
    };
    const expired = (): void => done(new ProbeError('context deadline exceeded (Client.Timeout or context cancellation while reading body)'));
    if (deadline.expired) return expired();
    deadline.watch(expired);
    stream.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= limit) done();
    });
    stream.once('end', () => done());
    stream.once('error', (err) => done(new ProbeError(err.message)));
    res.once('aborted', () => done(new ProbeError('unexpected EOF')));
    res.once('close', () => {
      if (!res.complete) done(new ProbeError('unexpected EOF'));
    });
  });
}

/** Runs the probe request; throws ProbeError only when the body could not be read (kube's "errored"). */
export async function httpProbe(first: HttpProbeRequest, timeoutSeconds: number): Promise<ProbeOutcome> {
  const deadline = new Deadline(timeoutSeconds * 1000);
  try {
    let current = first;
    let hops = 0;
    for (;;) {
      let ex: Exchange;
      try {
        ex = await send(current, deadline);
      } catch (err) {
        const text = deadline.expired ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)' : transportErrorText(current, err);
        return { result: 'Failure', output: `Get ${goQuote(current.display)}: ${text}` };
      }
      const status = ex.res.statusCode ?? 0;
      const location = ex.res.headers.location;
      if (REDIRECT_CODES.has(status) && typeof location === 'string' && location !== '') {
        let next: HttpProbeRequest;
        try {
          next = nextRequest(current, location);
        } catch (err) {
          ex.res.destroy();
          return { result: 'Failure', output: `Get ${goQuote(current.display)}: failed to parse Location header ${goQuote(location)}: ${(err as Error).message}` };
        }
        if (next.host === first.host) {
          ex.res.destroy();
          // Go's checker sees the requests made so far (`via`) and stops at 10.
          if (hops + 1 >= MAX_REDIRECTS) {
            return { result: 'Failure', output: `Get ${goQuote(next.display)}: stopped after ${MAX_REDIRECTS} redirects` };
          }
          hops++;
          current = next;
          continue;
        }
        // A redirect to another host is not followed: its 3xx response is the answer.
      }
      const body = (await readBody(ex.res, current.gzip, HTTP_MAX_BODY, deadline)).toString('utf8');
      if (status >= 200 && status < 400) {
        if (status >= 300) return { result: 'Warning', output: `Probe terminated redirects, Response body: ${body}` };
        return { result: 'Success', output: body };
      }
      return { result: 'Failure', output: `HTTP probe failed with statuscode: ${status}` };
    }
  } finally {
    deadline.clear();
  }
}
