// The pod subresources that stream from the node agent: log, exec, attach and
// portforward. svc has no node agent yet, so none of them can stream; each
// answers at once with the Status Kubernetes gives when it cannot reach a
// node, never a hang:
//
//   pod (or node) missing              404 NotFound, as Kubernetes
//   bad PodLogOptions                  422 Invalid, kind PodLogOptions, as Kubernetes
//   container unknown or ambiguous     400 BadRequest, Kubernetes' wording
//   pod without spec.nodeName          log: 204 No Content (Kubernetes streams
//                                      nothing for an unscheduled pod);
//                                      exec/attach/portforward: 400 "pod X does
//                                      not have a host assigned", as Kubernetes
//   pod on a node                      503 ServiceUnavailable: where Kubernetes
//                                      would call the node's kubelet, svc has no
//                                      node agent to call; the message says so
import { fieldPath, forbidden, invalid, newBadRequest, newInvalid, newServiceUnavailable, type FieldError } from '../api/meta/index.js';
import type { RequestContext } from '../server/context.js';
import { isObject, type ApiObject } from '../registry/object.js';
import type { ResourceRequestInfo } from './requestinfo.js';

export const POD_STREAM_SUBRESOURCES: ReadonlySet<string> = new Set(['log', 'exec', 'attach', 'portforward']);

export interface PodStreamDeps {
  /** The pod named by the request (throws NotFound). */
  readonly pod: (namespace: string, name: string) => Promise<ApiObject>;
  /** The node a pod is assigned to (throws NotFound). */
  readonly node: (name: string) => Promise<ApiObject>;
}

export async function servePodStream(ctx: RequestContext, info: ResourceRequestInfo, deps: PodStreamDeps): Promise<void> {
  const q = ctx.url.searchParams;
  if (info.subresource === 'log') {
    const errs = logOptionErrors(q);
    if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, info.name, errs);
  }
  const pod = await deps.pod(info.namespace, info.name);
  if (info.subresource !== 'portforward') checkContainer(pod, q.get('container') ?? '');
  const spec = isObject(pod.spec) ? pod.spec : {};
  const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
  if (!nodeName) {
    if (info.subresource === 'log') {
      ctx.res.statusCode = 204;
      ctx.res.end();
      return;
    }
    throw newBadRequest(`pod ${info.name} does not have a host assigned`);
  }
  await deps.node(nodeName);
  throw newServiceUnavailable(`pod ${info.name} runs on node ${nodeName}, but this server has no node agent to reach it: ${WHAT[info.subresource] ?? info.subresource} is not available`);
}

const WHAT: Record<string, string> = { log: 'reading container logs', exec: 'exec', attach: 'attach', portforward: 'port forwarding' };

/** The container a request names must be one of the pod's; with none named, the pod must have exactly one. */
function checkContainer(pod: ApiObject, container: string): void {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const names = (key: string) => (Array.isArray(spec[key]) ? (spec[key] as unknown[]) : []).map((c) => (isObject(c) && typeof c.name === 'string' ? c.name : ''));
  const main = names('containers');
  const all = [...main, ...names('initContainers'), ...names('ephemeralContainers')];
  const podName = pod.metadata.name ?? '';
  if (container) {
    if (!all.includes(container)) throw newBadRequest(`container ${container} is not valid for pod ${podName}`);
    return;
  }
  if (main.length === 1) return;
  if (main.length === 0) throw newBadRequest(`a container name must be specified for pod ${podName}`);
  throw newBadRequest(`a container name must be specified for pod ${podName}, choose one of: [${all.join(' ')}]`);
}

/** PodLogOptions from the query, checked as Kubernetes checks them (a malformed number is a 400). */
function logOptionErrors(q: URLSearchParams): FieldError[] {
  const int = (key: string): number | undefined => {
    const v = q.get(key);
    if (v === null) return undefined;
    if (!/^[+-]?\d+$/.test(v)) throw newBadRequest(`${key}: invalid integer ${JSON.stringify(v)}`);
    return Number(v);
  };
  const errs: FieldError[] = [];
  const tailLines = int('tailLines');
  const limitBytes = int('limitBytes');
  const sinceSeconds = int('sinceSeconds');
  const sinceTime = q.get('sinceTime');
  if (tailLines !== undefined && tailLines < 0) errs.push(invalid(fieldPath('tailLines'), tailLines, 'must be greater than or equal to 0'));
  if (limitBytes !== undefined && limitBytes < 1) errs.push(invalid(fieldPath('limitBytes'), limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && sinceTime !== null) errs.push(forbidden(fieldPath(''), 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (sinceSeconds !== undefined && sinceSeconds < 1) errs.push(invalid(fieldPath('sinceSeconds'), sinceSeconds, 'must be greater than 0'));
  return errs;
}
