// The pod subresources that stream from the node agent: log, exec, attach and
// portforward. pods/log is proxied to the node's agent (podlog.ts) when the
// server has a kubelet client; exec, attach and portforward (a later issue)
// answer at once, never a hang:
//
//   pod (or node) missing              404 NotFound, as Kubernetes
//   bad PodLogOptions                  422 Invalid, kind PodLogOptions, as Kubernetes
//   container unknown or ambiguous     400 BadRequest, Kubernetes' wording
//   pod without spec.nodeName          log: 204 No Content (Kubernetes streams
//                                      nothing for an unscheduled pod);
//                                      exec/attach/portforward: 400 "pod X does
//                                      not have a host assigned", as Kubernetes
//   log of a pod on a node             the agent's /containerLogs streamed back;
//                                      a node without a preferred address or an
//                                      agent that cannot be reached: 500 with
//                                      the error's text, as Kubernetes
//   exec/attach/portforward on a node  503 ServiceUnavailable: the message says
//                                      this server does not stream them yet
import { fieldPath, forbidden, invalid, newBadRequest, newInvalid, newServiceUnavailable, type FieldError } from '../api/meta/index.js';
import type { RequestContext } from '../server/context.js';
import { isObject, type ApiObject } from '../registry/object.js';
import type { ResourceRequestInfo } from './requestinfo.js';
import { NoPreferredAddress, type KubeletClient } from './kubeletclient.js';
import { logLocation, noAddress, proxyPodLog } from './podlog.js';

export const POD_STREAM_SUBRESOURCES: ReadonlySet<string> = new Set(['log', 'exec', 'attach', 'portforward']);

export interface PodStreamDeps {
  /** The pod named by the request (throws NotFound). */
  readonly pod: (namespace: string, name: string) => Promise<ApiObject>;
  /** The node a pod is assigned to (throws NotFound). */
  readonly node: (name: string) => Promise<ApiObject>;
  /** The client to node agents; without it pods/log answers 503 as the other streams. */
  readonly kubelet?: KubeletClient;
}

export async function servePodStream(ctx: RequestContext, info: ResourceRequestInfo, deps: PodStreamDeps): Promise<void> {
  const q = ctx.url.searchParams;
  if (info.subresource === 'log') {
    const errs = logOptionErrors(q);
    if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, info.name, errs);
  }
  const pod = await deps.pod(info.namespace, info.name);
  const container = info.subresource !== 'portforward' ? checkContainer(pod, q.get('container') ?? '') : '';
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
  const node = await deps.node(nodeName);
  if (info.subresource === 'log' && deps.kubelet) {
    let url;
    try {
      url = logLocation(deps.kubelet, node, info.namespace, info.name, container, q);
    } catch (err) {
      if (err instanceof NoPreferredAddress) throw noAddress(err);
      throw err;
    }
    return proxyPodLog(ctx, deps.kubelet, url, info.name);
  }
  throw newServiceUnavailable(`pod ${info.name} runs on node ${nodeName}, but this server has no node agent to reach it: ${WHAT[info.subresource] ?? info.subresource} is not available`);
}

const WHAT: Record<string, string> = { log: 'reading container logs', exec: 'exec', attach: 'attach', portforward: 'port forwarding' };

/** The container a request names must be one of the pod's; with none named, the pod must have exactly one (returned). */
function checkContainer(pod: ApiObject, container: string): string {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const names = (key: string) => (Array.isArray(spec[key]) ? (spec[key] as unknown[]) : []).map((c) => (isObject(c) && typeof c.name === 'string' ? c.name : ''));
  const main = names('containers');
  const all = [...main, ...names('initContainers'), ...names('ephemeralContainers')];
  const podName = pod.metadata.name ?? '';
  if (container) {
    if (!all.includes(container)) throw newBadRequest(`container ${container} is not valid for pod ${podName}`);
    return container;
  }
  if (main.length === 1) return main[0]!;
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
