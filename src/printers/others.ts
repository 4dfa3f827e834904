// Printers of the remaining groups (svc.io spellings): networking, discovery,
// rbac (bindings only: roles print the default table in v1.27), autoscaling,
// policy, scheduling, coordination, certificates, admissionregistration, node,
// flowcontrol, events.svc.io (the core event printer), apiregistration; and
// storage (storage.ts).
import { humanDuration } from './age.js';
import {
  AGE_COLUMN, NAME_COLUMN, WIDE, age, arr, col, formatLabelSelector, has, intOrString, listWithMore, nameOf, num, quantity, rec,
  spec, status, str,
} from './cells.js';
import type { Json } from './cells.js';
import { loadBalancerIngress } from './core.js';
import { eventPrinter } from './event.js';
import { storagePrinters } from './storage.js';
import type { KObject, Printer } from './table.js';

// ---- networking ----

/** Up to three hosts, `*` when no rule names one. */
function formatHosts(rules: unknown): string {
  const rs = arr(rules).map(rec);
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const r of rs) {
    if (list.length === max) more = true;
    if (!more && str(r.host) !== '') list.push(str(r.host));
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rs.length - max} more...` : list.join(',');
}

export const ingressPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Class', 'string', 'The ingress class that handles the ingress.'),
    col('Hosts', 'string', 'Hosts the rules match (the first few).'),
    col('Address', 'string', 'Load-balancer addresses of the ingress.'),
    col('Ports', 'string', 'Ports served: 80, and 443 when TLS is set up.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const className = typeof sp.ingressClassName === 'string' ? sp.ingressClassName : '<none>';
    const ports = arr(sp.tls).length > 0 ? '80, 443' : '80';
    return { cells: [nameOf(o), className, formatHosts(sp.rules), loadBalancerIngress(status(o).loadBalancer).join(','), ports, age(o, now)] };
  },
};

export const ingressClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Controller', 'string', 'The controller that implements the class.'),
    col('Parameters', 'string', 'Extra settings for the controller, as kind.group/name.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    let parameters = '<none>';
    if (has(sp.parameters)) {
      const p = rec(sp.parameters);
      parameters = `${str(p.kind)}${typeof p.apiGroup === 'string' ? `.${p.apiGroup}` : ''}/${str(p.name)}`;
    }
    return { cells: [nameOf(o), str(sp.controller), parameters, age(o, now)] };
  },
};

export const networkPolicyPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Pod-Selector', 'string', 'Labels of the pods the policy applies to.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => ({ cells: [nameOf(o), formatLabelSelector(rec(spec(o).podSelector)), age(o, now)] }),
};

export const endpointSlicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('AddressType', 'string', 'The kind of addresses in the slice: IPv4, IPv6 or FQDN.'),
    col('Ports', 'string', 'Ports of the endpoints (the first few).'),
    col('Endpoints', 'string', 'Endpoint addresses (the first few).'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const ports = arr(o.ports).map(rec).map((p) => (typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*'));
    const addresses = arr(o.endpoints).flatMap((e) => arr(rec(e).addresses).map(str));
    return { cells: [nameOf(o), str(o.addressType), listWithMore(ports, 3), listWithMore(addresses, 3), age(o, now)] };
  },
};

// ---- rbac ----

/** Role and cluster role bindings print alike. */
const bindingPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Role', 'string', 'The role the binding grants, as kind/name.'),
    AGE_COLUMN,
    col('Users', 'string', 'Users the binding applies to.', WIDE),
    col('Groups', 'string', 'Groups the binding applies to.', WIDE),
    col('ServiceAccounts', 'string', 'Service accounts the binding applies to, as namespace/name.', WIDE),
  ],
  row: (o, { now }) => {
    const ref = rec(o.roleRef);
    const users: string[] = [];
    const groups: string[] = [];
    const sas: string[] = [];
    for (const s of arr(o.subjects).map(rec)) {
      if (str(s.kind) === 'ServiceAccount') sas.push(`${str(s.namespace)}/${str(s.name)}`);
      else if (str(s.kind) === 'User') users.push(str(s.name));
      else if (str(s.kind) === 'Group') groups.push(str(s.name));
    }
    return { cells: [nameOf(o), `${str(ref.kind)}/${str(ref.name)}`, age(o, now), users.join(', '), groups.join(', '), sas.join(', ')] };
  },
};

// ---- autoscaling ----

/** One metric as `current/target`, the way formatHPAMetrics prints it. */
function formatMetric(m: Json, current: Json | undefined): string {
  const avgUtil = (x: Json | undefined): string | undefined => (x && typeof x.averageUtilization === 'number' ? `${x.averageUtilization}%` : undefined);
  const valueOrAvg = (src: string, srcStatus: Json | undefined): string => {
    const target = rec(rec(m[src]).target);
    const cur = srcStatus ? rec(rec(srcStatus[src]).current) : undefined;
    const curSet = srcStatus !== undefined && has(srcStatus[src]);
    if (has(target.averageValue)) {
      const c = curSet && has(cur!.averageValue) ? quantity(cur!.averageValue) : '<unknown>';
      return `${c}/${quantity(target.averageValue)} (avg)`;
    }
    const c = curSet ? quantity(cur!.value) : '<unknown>';
    return `${c}/${quantity(target.value)}`;
  };
  switch (str(m.type)) {
    case 'External': return valueOrAvg('external', current);
    case 'Object': return valueOrAvg('object', current);
    case 'Pods': {
      const c = current && has(current.pods) ? quantity(rec(rec(current.pods).current).averageValue) : '<unknown>';
      return `${c}/${quantity(rec(rec(m.pods).target).averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const src = str(m.type) === 'Resource' ? 'resource' : 'containerResource';
      const r = rec(m[src]);
      const target = rec(r.target);
      const cur = current && has(current[src]) ? rec(rec(current[src]).current) : undefined;
      if (has(target.averageValue)) {
        return `${str(r.name)}: ${cur ? quantity(cur.averageValue) : '<unknown>'}/${quantity(target.averageValue)}`;
      }
      return `${str(r.name)}: ${avgUtil(cur) ?? '<unknown>'}/${avgUtil(target) ?? '<auto>'}`;
    }
    default: return '<unknown type>';
  }
}

/** The Targets cell: the first two metrics, then `+ N more...`; `<none>` without metrics. */
export function formatHPAMetrics(specs: readonly Json[], statuses: readonly Json[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((m, i) => formatMetric(m, statuses[i]));
  const max = 2;
  return list.length > max ? `${list.slice(0, max).join(', ')} + ${list.length - max} more...` : list.join(', ');
}

/** autoscaling/v1 objects carry one CPU target; read them as the v2 metric they convert to. */
function hpaMetrics(o: KObject): { specs: Json[]; statuses: Json[] } {
  const sp = spec(o);
  const st = status(o);
  if (typeof sp.targetCPUUtilizationPercentage === 'number' && !has(sp.metrics)) {
    const specs = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: sp.targetCPUUtilizationPercentage } } }];
    const statuses = typeof st.currentCPUUtilizationPercentage === 'number'
      ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: st.currentCPUUtilizationPercentage } } }] : [];
    return { specs, statuses };
  }
  return { specs: arr(sp.metrics).map(rec), statuses: arr(st.currentMetrics).map(rec) };
}

export const horizontalPodAutoscalerPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Reference', 'string', 'The object whose replicas are scaled, as kind/name.'),
    col('Targets', 'string', 'Current and target values of the metrics (the first two).'),
    col('MinPods', 'string', 'The fewest replicas the autoscaler may scale to.'),
    col('MaxPods', 'string', 'The most replicas the autoscaler may scale to.'),
    col('Replicas', 'string', 'Replicas the autoscaler last saw.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const ref = rec(sp.scaleTargetRef);
    const { specs, statuses } = hpaMetrics(o);
    const minPods = typeof sp.minReplicas === 'number' ? String(sp.minReplicas) : '<unset>';
    return { cells: [nameOf(o), `${str(ref.kind)}/${str(ref.name)}`, formatHPAMetrics(specs, statuses), minPods, num(sp.maxReplicas), num(status(o).currentReplicas), age(o, now)] };
  },
};

// ---- policy, scheduling, coordination, node ----

export const podDisruptionBudgetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Min Available', 'string', 'Pods that must stay available.'),
    col('Max Unavailable', 'string', 'Pods that may be unavailable.'),
    col('Allowed Disruptions', 'integer', 'Pods that may be disrupted right now.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    return {
      cells: [nameOf(o), has(sp.minAvailable) ? intOrString(sp.minAvailable) : 'N/A', has(sp.maxUnavailable) ? intOrString(sp.maxUnavailable) : 'N/A', num(status(o).disruptionsAllowed), age(o, now)],
    };
  },
};

export const priorityClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Value', 'integer', 'The priority that pods of this class get.'),
    col('Global-Default', 'boolean', 'Whether pods that name no class get this one.'),
    AGE_COLUMN,
    col('PreemptionPolicy', 'string', 'Whether pods of this class may preempt lower-priority pods.'),
  ],
  row: (o, { now }) => ({ cells: [nameOf(o), num(o.value), o.globalDefault === true, age(o, now), str(o.preemptionPolicy)] }),
};

export const leasePrinter: Printer = {
  columns: [NAME_COLUMN, col('Holder', 'string', 'Who holds the lease now.'), AGE_COLUMN],
  row: (o, { now }) => ({ cells: [nameOf(o), str(spec(o).holderIdentity), age(o, now)] }),
};

export const runtimeClassPrinter: Printer = {
  columns: [NAME_COLUMN, col('Handler', 'string', 'The runtime handler that runs pods of this class.'), AGE_COLUMN],
  row: (o, { now }) => ({ cells: [nameOf(o), str(o.handler), age(o, now)] }),
};

// ---- certificates ----

/** Denied, else Approved, else Pending; then `,Failed` and `,Issued`. */
function csrCondition(st: Json): string {
  const types = new Set(arr(st.conditions).map((c) => str(rec(c).type)));
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) s += ',Failed';
  if (str(st.certificate) !== '') s += ',Issued';
  return s;
}

export const certificateSigningRequestPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    col('SignerName', 'string', 'The signer asked to issue the certificate.'),
    col('Requestor', 'string', 'The user who made the request.'),
    col('RequestedDuration', 'string', 'How long the issued certificate should be valid.'),
    col('Condition', 'string', 'Approved, Denied or Pending, then Failed and Issued when they apply.'),
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const duration = typeof sp.expirationSeconds === 'number' ? humanDuration(sp.expirationSeconds * 1000) : '<none>';
    return { cells: [nameOf(o), age(o, now), str(sp.signerName) || '<none>', str(sp.username), duration, csrCondition(status(o))] };
  },
};

// ---- admissionregistration ----

const webhookPrinter: Printer = {
  columns: [NAME_COLUMN, col('Webhooks', 'integer', 'Number of webhooks in the configuration.'), AGE_COLUMN],
  row: (o, { now }) => ({ cells: [nameOf(o), arr(o.webhooks).length, age(o, now)] }),
};

export const validatingAdmissionPolicyPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Validations', 'integer', 'Number of validation rules in the policy.'),
    col('ParamKind', 'string', 'The kind of resource that parameterizes the policy, as apiVersion/kind.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const pk = has(sp.paramKind) ? `${str(rec(sp.paramKind).apiVersion)}/${str(rec(sp.paramKind).kind)}` : '<unset>';
    return { cells: [nameOf(o), arr(sp.validations).length, pk, age(o, now)] };
  },
};

export const validatingAdmissionPolicyBindingPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('PolicyName', 'string', 'The policy the binding applies.'),
    col('ParamRef', 'string', 'The parameter resource, as namespace/name.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    let param = '<unset>';
    if (has(sp.paramRef)) {
      const ref = rec(sp.paramRef);
      param = str(ref.namespace) !== '' ? `${str(ref.namespace)}/${str(ref.name)}` : str(ref.name);
    }
    return { cells: [nameOf(o), str(sp.policyName), param, age(o, now)] };
  },
};

// ---- flowcontrol ----

export const flowSchemaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('PriorityLevel', 'string', 'The priority level that matching requests go to.'),
    col('MatchingPrecedence', 'string', 'Order among flow schemas; the lowest matches first.'),
    col('DistinguisherMethod', 'string', 'How matching requests are split into flows.'),
    AGE_COLUMN,
    col('MissingPL', 'string', 'Whether the priority level it names is missing.'),
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const dangling = arr(status(o).conditions).map(rec).find((c) => str(c.type) === 'Dangling');
    const method = has(sp.distinguisherMethod) ? str(rec(sp.distinguisherMethod).type) : '<none>';
    return { cells: [nameOf(o), str(rec(sp.priorityLevelConfiguration).name), num(sp.matchingPrecedence), method, age(o, now), dangling ? str(dangling.status) : '?'] };
  },
  // Printed in matching order: precedence, then name.
  order: (objects) => [...objects].sort((a, b) => {
    const pa = num(spec(a).matchingPrecedence);
    const pb = num(spec(b).matchingPrecedence);
    return pa !== pb ? pa - pb : nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
  }),
};

export const priorityLevelConfigurationPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'Exempt (never limited) or Limited.'),
    col('NominalConcurrencyShares', 'string', "The level's share of the server's concurrency."),
    col('Queues', 'string', 'Number of queues.'),
    col('HandSize', 'string', 'Number of queues each flow is shuffle-sharded over.'),
    col('QueueLengthLimit', 'string', 'The most requests one queue may hold.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    let cells: [string | number, string | number, string | number, string | number] = ['<none>', '<none>', '<none>', '<none>'];
    if (has(sp.limited)) {
      const limited = rec(sp.limited);
      // v1beta3 calls the shares nominal, v1beta2 assured.
      const shares = num(has(limited.nominalConcurrencyShares) ? limited.nominalConcurrencyShares : limited.assuredConcurrencyShares);
      const q = rec(rec(limited.limitResponse).queuing);
      cells = has(rec(limited.limitResponse).queuing) ? [shares, num(q.queues), num(q.handSize), num(q.queueLengthLimit)] : [shares, '<none>', '<none>', '<none>'];
    }
    return { cells: [nameOf(o), str(sp.type), ...cells, age(o, now)] };
  },
};

// ---- apiregistration ----

/**
 * APIServices have their own convertor in kube-aggregator: Service
 * (`namespace/name` or `Local`), Available (the Available condition, with its
 * reason when not True). It always sends its columns.
 */
export const apiServicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Service', 'string', 'The service that serves the API, or Local.'),
    col('Available', 'string', 'Whether the API is available, with the reason when it is not.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const service = has(sp.service) ? `${str(rec(sp.service).namespace)}/${str(rec(sp.service).name)}` : 'Local';
    const cond = arr(status(o).conditions).map(rec).find((c) => str(c.type) === 'Available');
    let available = 'Unknown';
    if (cond) available = str(cond.status) === 'True' || str(cond.reason) === '' ? str(cond.status) : `${str(cond.status)} (${str(cond.reason)})`;
    return { cells: [nameOf(o), service, available, age(o, now)] };
  },
  alwaysHeaders: true,
};

/** Printers by group (svc.io spelling), then resource. */
export const otherPrinters: Readonly<Record<string, Readonly<Record<string, Printer>>>> = {
  'networking.svc.io': { ingresses: ingressPrinter, ingressclasses: ingressClassPrinter, networkpolicies: networkPolicyPrinter },
  'discovery.svc.io': { endpointslices: endpointSlicePrinter },
  'rbac.authorization.svc.io': { rolebindings: bindingPrinter, clusterrolebindings: bindingPrinter },
  autoscaling: { horizontalpodautoscalers: horizontalPodAutoscalerPrinter },
  policy: { poddisruptionbudgets: podDisruptionBudgetPrinter },
  'scheduling.svc.io': { priorityclasses: priorityClassPrinter },
  'coordination.svc.io': { leases: leasePrinter },
  'node.svc.io': { runtimeclasses: runtimeClassPrinter },
  'certificates.svc.io': { certificatesigningrequests: certificateSigningRequestPrinter },
  'admissionregistration.svc.io': {
    mutatingwebhookconfigurations: webhookPrinter,
    validatingwebhookconfigurations: webhookPrinter,
    validatingadmissionpolicies: validatingAdmissionPolicyPrinter,
    validatingadmissionpolicybindings: validatingAdmissionPolicyBindingPrinter,
  },
  'flowcontrol.apiserver.svc.io': { flowschemas: flowSchemaPrinter, prioritylevelconfigurations: priorityLevelConfigurationPrinter },
  'events.svc.io': { events: eventPrinter },
  'apiregistration.svc.io': { apiservices: apiServicePrinter },
  'storage.svc.io': storagePrinters,
};
