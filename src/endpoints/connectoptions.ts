// The options object of a CONNECT request (kube's connecter.NewConnectOptions
// filled from the query): what admission sees as the object of pods/exec,
// pods/attach, pods/portforward and the proxies. Query parameters become
// fields as Kubernetes' parameter codec reads them: booleans as Go's
// strconv.ParseBool, repeated `command` and `ports` as lists; a malformed
// value is a 400 before admission runs.
import { newBadRequest } from '../api/meta/index.js';
import type { ApiObject } from '../registry/object.js';
import type { ResourceRequestInfo } from './requestinfo.js';

const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

function bool(q: URLSearchParams, key: string, into: Record<string, unknown>): void {
  const v = q.get(key);
  if (v === null) return;
  if (TRUE.has(v) || v === '') into[key] = true; // a bare `?stdin` means true, as kube's query conversion
  else if (FALSE.has(v)) into[key] = false;
  else throw newBadRequest(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

const OPTIONS_KIND: Record<string, string> = {
  'pods/exec': 'PodExecOptions', 'pods/attach': 'PodAttachOptions', 'pods/portforward': 'PodPortForwardOptions',
  'pods/proxy': 'PodProxyOptions', 'services/proxy': 'ServiceProxyOptions', 'nodes/proxy': 'NodeProxyOptions',
};

/** The connect options of a request on a connect subresource, or undefined when the subresource does not connect. */
export function connectOptions(resource: string, info: ResourceRequestInfo, q: URLSearchParams): ApiObject | undefined {
  const kind = OPTIONS_KIND[`${resource}/${info.subresource}`];
  if (!kind) return undefined;
  const o: Record<string, unknown> = { kind, apiVersion: 'v1' };
  if (info.subresource === 'exec' || info.subresource === 'attach') {
    for (const k of ['stdin', 'stdout', 'stderr', 'tty']) bool(q, k, o);
    const container = q.get('container');
    if (container) o.container = container;
    if (info.subresource === 'exec') {
      const command = q.getAll('command');
      if (command.length > 0) o.command = command;
    }
  } else if (info.subresource === 'portforward') {
    const ports = q.getAll('ports').flatMap((p) => p.split(',')).filter((p) => p !== '');
    if (ports.length > 0) {
      o.ports = ports.map((p) => {
        if (!/^\d+$/.test(p)) throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(p)}: invalid syntax`);
        return Number(p);
      });
    }
  } else {
    // the proxies: the path after …/proxy, or the `path` parameter
    const rest = info.parts.slice(3).join('/');
    const path = rest ? `/${rest}` : q.get('path') ?? '';
    if (path) o.path = path;
  }
  return o as unknown as ApiObject;
}
