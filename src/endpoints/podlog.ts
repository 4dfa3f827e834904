// pods/log through the node agent, as kube-apiserver's LogREST: the agent's
// /containerLogs/<namespace>/<pod>/<container> URL with the PodLogOptions that
// were given (follow, previous, timestamps, sinceSeconds, sinceTime, tailLines,
// limitBytes; keys in Go's sorted order), fetched with the kubelet client and
// streamed back as text/plain — a follow chunk by chunk until either side
// closes. The agent's refusals become Statuses as kube's response checker
// makes them: 400 → BadRequest with the agent's text, 500 → InternalError,
// others → kube's generic server response "(… pods/log <name>)".
import type { IncomingMessage } from 'node:http';
import { newBadRequest, newInternalError, newServiceUnavailable, StatusError } from '../api/meta/index.js';
import type { RequestContext } from '../server/context.js';
import { connectionGone } from '../server/drain.js';
import { joinHostPort, KubeletDialError, NoPreferredAddress, type KubeletClient } from './kubeletclient.js';
import { queryBool } from './requestinfo.js';
import type { ApiObject } from '../registry/object.js';
import { rfc3339 } from '../api/meta/time.js';

/** The agent URL of a pod's container log. */
export function logLocation(client: KubeletClient, node: ApiObject, namespace: string, pod: string, container: string, q: URLSearchParams): URL {
  const { host, port } = client.connection(node);
  const params: [string, string][] = [];
  for (const flag of ['follow', 'previous', 'timestamps']) if (queryBool(q, flag)) params.push([flag, 'true']);
  const sinceSeconds = q.get('sinceSeconds');
  if (sinceSeconds !== null) params.push(['sinceSeconds', String(Number(sinceSeconds))]);
  const sinceTime = q.get('sinceTime');
  if (sinceTime) params.push(['sinceTime', timeParam(sinceTime)]);
  for (const n of ['tailLines', 'limitBytes']) {
    const v = q.get(n);
    if (v !== null) params.push([n, String(Number(v))]);
  }
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const url = new URL(`https://${joinHostPort(host, port)}`);
  url.pathname = `/containerLogs/${encodeURIComponent(namespace)}/${encodeURIComponent(pod)}/${encodeURIComponent(container)}`;
  url.search = new URLSearchParams(params).toString();
  return url;
}

/** Streams the agent's answer to the client. */
export async function proxyPodLog(ctx: RequestContext, client: KubeletClient, url: URL, podName: string): Promise<void> {
  const ac = new AbortController();
  // the client leaving, or the server shutting down (a follow has no end of its own), ends the stream
  const gone = () => ac.abort();
  ctx.req.once('close', gone);
  ctx.res.once('close', gone);
  const unsubscribe = ctx.closing?.onBegin(gone);
  if (connectionGone(ctx.res)) gone();
  try {
    let upstream: IncomingMessage;
    try {
      upstream = await client.get(url, ac.signal);
    } catch (err) {
      if (ac.signal.aborted) {
        if (connectionGone(ctx.res)) return; // the client left: nobody to answer
        throw newServiceUnavailable('the apiserver is shutting down');
      }
      if (err instanceof KubeletDialError) throw unknownReason(err.message);
      throw err;
    }
    const code = upstream.statusCode ?? 500;
    if (code < 200 || code > 206) throw checkResponse(code, await readLimited(upstream, 50_000), podName);
    ctx.res.statusCode = 200;
    ctx.res.setHeader('content-type', 'text/plain'); // kube's LogREST names text/plain whatever the agent sent
    ctx.res.write(Buffer.alloc(0)); // the status goes out now, before the first line of a quiet follow
    await new Promise<void>((resolve) => {
      const finish = () => {
        ac.signal.removeEventListener('abort', finish);
        if (!ctx.res.writableEnded) ctx.res.end();
        upstream.destroy();
        resolve();
      };
      upstream.on('data', (chunk: Buffer) => {
        if (!ctx.res.write(chunk)) {
          upstream.pause();
          ctx.res.once('drain', () => upstream.resume());
        }
      });
      upstream.once('end', finish);
      upstream.once('error', finish);
      upstream.once('aborted', finish);
      ac.signal.addEventListener('abort', finish); // the client leaving (its close aborts) or the shutdown
      if (ac.signal.aborted) finish();
    });
  } finally {
    unsubscribe?.();
  }
}

/** kube's GenericHttpResponseChecker for pods/log. */
export function checkResponse(code: number, body: string, podName: string): StatusError {
  if (code === 500) return newInternalError(new Error(body));
  if (code === 400) return newBadRequest(body);
  const [reason, message] = GENERIC[code] ?? (code >= 500
    ? ['InternalError', `an error on the server (${goQuote(body)}) has prevented the request from succeeding`]
    : ['', `the server responded with the status code ${code} but did not return more information`]);
  const text = code === 403 ? body : code === 406 ? (body === '' || body === 'unknown' ? message : body) : code === 415 ? body : message;
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `${text} ( pods/log ${podName})`,
    ...(reason ? { reason } : {}),
    details: { name: podName, kind: 'pods/log' },
    code,
  });
}

const GENERIC: Record<number, [string, string]> = {
  404: ['NotFound', 'the server could not find the requested resource'],
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  403: ['Forbidden', ''],
  406: ['NotAcceptable', 'the server was unable to respond with a content type that the client supports'],
  415: ['UnsupportedMediaType', ''],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  409: ['Conflict', 'the server reported a conflict'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
};

/** An error that is not a Status: kube's ErrorToAPIStatus makes a 500 without a reason carrying its text. */
function unknownReason(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/** The node cannot be reached by address (kube: the error text, 500). */
export function noAddress(err: NoPreferredAddress): StatusError {
  return unknownReason(err.message);
}

function readLimited(res: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      if (size < max) chunks.push(c.subarray(0, max - size));
      size += c.length;
    });
    const done = () => resolve(Buffer.concat(chunks).toString());
    res.once('end', done);
    res.once('error', done);
    res.once('aborted', done);
  });
}

/** metav1.Time in a query → RFC3339 (seconds), as the API server re-encodes it. */
function timeParam(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : rfc3339(ms);
}

/** Go's %q of a short ASCII text. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}
