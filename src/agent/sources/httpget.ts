// A GET of the manifest URL (--manifest-url with its --manifest-url-header)
// over node:http/https: the status and the body as text, redirects followed
// as Go's http.Client follows them (at most 10), the whole exchange bounded
// by a timeout. Not fetch(): Node's fetch parses HTTP with a WebAssembly
// module, and `svc agent` runs V8 without a JIT (bin/svc: --lite-mode), where
// WebAssembly does not exist.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface TextAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly text: string;
}

const MAX_REDIRECTS = 10;

/** GETs `url` with `headers` (each name may repeat); rejects on a network error, too many redirects or after `timeoutMs`. */
export function getText(url: string, headers: Readonly<Record<string, readonly string[]>>, timeoutMs: number): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${url}: timed out after ${timeoutMs} ms`)), timeoutMs);
    let current: ReturnType<typeof httpRequest> | undefined;
    function fail(err: Error): void {
      clearTimeout(timer);
      current?.destroy();
      reject(err);
    }
    function get(target: URL, redirects: number): void {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') return fail(new Error(`${target.href}: unsupported protocol scheme ${JSON.stringify(target.protocol.slice(0, -1))}`));
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(target, { method: 'GET', headers: headers as Record<string, string[]> }, (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
          res.resume();
          if (redirects >= MAX_REDIRECTS) return fail(new Error(`${url}: stopped after ${MAX_REDIRECTS} redirects`));
          return get(new URL(res.headers.location, target), redirects + 1);
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status, statusText: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      current = req;
      req.on('error', fail);
      req.end();
    }
    try {
      get(new URL(url), 0);
    } catch (err) {
      fail(err as Error);
    }
  });
}
