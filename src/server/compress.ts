// Response compression (the APIResponseCompression gate, beta and on in
// v1.27): a body larger than 128 KiB is sent gzip-encoded when the client's
// Accept-Encoding allows gzip, as kube-apiserver does. Small bodies are not
// worth the CPU; watch streams are never compressed.
import { gzip } from 'node:zlib';
import { countResponseBytes, type RequestContext } from './context.js';

/** Kubernetes' threshold (defaultGzipThresholdBytes). */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** Whether the Accept-Encoding header accepts gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of text.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/** Whether this response body should be gzip-encoded. */
export function shouldCompress(ctx: RequestContext, byteLength: number): boolean {
  return ctx.compression === true && byteLength > GZIP_THRESHOLD_BYTES && acceptsGzip(ctx.req.headers['accept-encoding']);
}

/** Ends the response with `body`, gzip-encoded when it should be (headers other than the encoding are set by the caller). */
export function endBody(ctx: RequestContext, body: string | Buffer): void {
  const res = ctx.res;
  countResponseBytes(ctx, body);
  // On the hot path (small answers) no byte count is taken: a string of n UTF-16 units has at most 3n UTF-8 bytes.
  const small = (typeof body === 'string' ? body.length * 3 : body.length) <= GZIP_THRESHOLD_BYTES;
  if (small || !shouldCompress(ctx, typeof body === 'string' ? Buffer.byteLength(body) : body.length)) {
    res.end(body);
    return;
  }
  res.setHeader('Vary', 'Accept-Encoding');
  gzip(body, (err, zipped) => {
    if (res.writableEnded) return;
    if (err) {
      res.end(body); // headers not sent yet: fall back to identity
      return;
    }
    res.setHeader('Content-Encoding', 'gzip');
    res.end(zipped);
  });
}
