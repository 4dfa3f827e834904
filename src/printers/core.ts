// Printers of the core group (/api/v1) other than pods (pod.ts) and events
// (event.ts): services, nodes, namespaces, config maps, secrets, service
// accounts, endpoints, persistent volumes and claims, replication controllers,
// pod templates, resource quotas, component statuses. Limit ranges have no
// printer in v1.27 and get the default table.
import {
  AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, REPLICA_COLUMNS, WIDE, age, annotationOrLabel, arr, col, containerCells,
  formatLabels, has, keyCount, meta, nameOf, num, quantity, rec, spec, status, str, strMap, templateContainers, workloadColumns,
} from './cells.js';
import type { Json } from './cells.js';
import { eventPrinter } from './event.js';
import { podPrinter } from './pod.js';
import type { KObject, Printer } from './table.js';

// ---- services ----

const SERVICE_COLUMNS = [
  NAME_COLUMN,
  col('Type', 'string', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.'),
  col('Cluster-IP', 'string', "The service's virtual IP inside the cluster."),
  col('External-IP', 'string', 'Addresses outside the cluster the service can be reached on.'),
  col('Port(s)', 'string', 'The ports the service exposes.'),
  AGE_COLUMN,
  col('Selector', 'string', "Labels of the pods that receive the service's traffic.", WIDE),
];

/** Load-balancer ingress points: IPs, else hostnames; unique and sorted (never clipped: the server prints wide). */
export function loadBalancerIngress(lbStatus: unknown): string[] {
  const set = new Set<string>();
  for (const i of arr(rec(lbStatus).ingress).map(rec)) {
    if (str(i.ip) !== '') set.add(str(i.ip));
    else if (str(i.hostname) !== '') set.add(str(i.hostname));
  }
  return [...set].sort();
}

function externalIP(sp: Json, st: Json): string {
  const externalIPs = arr(sp.externalIPs).map(str);
  switch (str(sp.type)) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIngress(st.loadBalancer);
      if (externalIPs.length > 0) return [...lb, ...externalIPs].join(',');
      return lb.length > 0 ? lb.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(sp.externalName);
    default:
      return '<unknown>';
  }
}

function servicePorts(ports: unknown): string {
  const s = arr(ports).map(rec).map((p) =>
    num(p.nodePort) > 0 ? `${num(p.port)}:${num(p.nodePort)}/${str(p.protocol)}` : `${num(p.port)}/${str(p.protocol)}`).join(',');
  return s === '' ? '<none>' : s;
}

export const servicePrinter: Printer = {
  columns: SERVICE_COLUMNS,
  row: (o, { now }) => {
    const sp = spec(o);
    const clusterIPs = arr(sp.clusterIPs).map(str);
    const clusterIP = clusterIPs[0] ?? (str(sp.clusterIP) || '<none>');
    return { cells: [nameOf(o), str(sp.type), clusterIP, externalIP(sp, status(o)), servicePorts(sp.ports), age(o, now), formatLabels(sp.selector)] };
  },
};

// ---- nodes ----

const NODE_COLUMNS = [
  NAME_COLUMN,
  col('Status', 'string', 'Whether the node is ready, and whether scheduling is disabled.'),
  col('Roles', 'string', "The node's roles, from its labels."),
  AGE_COLUMN,
  col('Version', 'string', 'The kubelet version the node reports.'),
  col('Internal-IP', 'string', "The node's internal IP address.", WIDE),
  col('External-IP', 'string', "The node's external IP address.", WIDE),
  col('OS-Image', 'string', 'The operating system image the node reports.', WIDE),
  col('Kernel-Version', 'string', 'The kernel version the node reports.', WIDE),
  col('Container-Runtime', 'string', 'The container runtime and version the node reports.', WIDE),
];

const ROLE_PREFIXES = ['node-role.kubernetes.io/', 'node-role.svc.io/'];
const ROLE_LABELS = ['kubernetes.io/role', 'svc.io/role'];

/** Roles from `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role=<role>` values (either spelling), sorted. */
export function nodeRoles(labels: unknown): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(strMap(labels))) {
    const prefix = ROLE_PREFIXES.find((p) => k.startsWith(p));
    if (prefix !== undefined) {
      if (k.length > prefix.length) roles.add(k.slice(prefix.length));
    } else if (ROLE_LABELS.includes(k) && v !== '') {
      roles.add(v);
    }
  }
  return [...roles].sort();
}

function nodeAddress(st: Json, type: string): string {
  const a = arr(st.addresses).map(rec).find((x) => str(x.type) === type);
  return a ? str(a.address) : '<none>';
}

export const nodePrinter: Printer = {
  columns: NODE_COLUMNS,
  row: (o, { now }) => {
    const st = status(o);
    // Only the Ready condition counts; the last one of that type wins.
    const ready = arr(st.conditions).map(rec).filter((c) => str(c.type) === 'Ready').at(-1);
    const states = [ready === undefined ? 'Unknown' : str(ready.status) === 'True' ? 'Ready' : 'NotReady'];
    if (spec(o).unschedulable === true) states.push('SchedulingDisabled');
    const roles = nodeRoles(meta(o).labels).join(',');
    const info = rec(st.nodeInfo);
    return {
      cells: [
        nameOf(o), states.join(','), roles === '' ? '<none>' : roles, age(o, now), str(info.kubeletVersion),
        nodeAddress(st, 'InternalIP'), nodeAddress(st, 'ExternalIP'),
        str(info.osImage) || '<unknown>', str(info.kernelVersion) || '<unknown>', str(info.containerRuntimeVersion) || '<unknown>',
      ],
    };
  },
};

// ---- namespaces, config maps, secrets, service accounts ----

export const namespacePrinter: Printer = {
  columns: [NAME_COLUMN, col('Status', 'string', "The namespace's phase: Active or Terminating."), AGE_COLUMN],
  row: (o, { now }) => ({ cells: [nameOf(o), str(status(o).phase), age(o, now)] }),
};

export const configMapPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Data', 'string', 'Number of keys in data and binaryData.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => ({ cells: [nameOf(o), keyCount(o.data) + keyCount(o.binaryData), age(o, now)] }),
};

export const secretPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'The kind of secret, which tells what its data holds.'),
    col('Data', 'string', 'Number of keys in data.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => ({ cells: [nameOf(o), str(o.type), keyCount(o.data), age(o, now)] }),
};

export const serviceAccountPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Secrets', 'string', 'Number of secrets listed for the account.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => ({ cells: [nameOf(o), arr(o.secrets).length, age(o, now)] }),
};

// ---- endpoints ----

/** Go's net.JoinHostPort: IPv6 hosts in brackets. */
const joinHostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** formatEndpoints: up to three `ip:port` (or `ip` for port-less subsets), then `+ N more...`; `<none>` without subsets. */
export function formatEndpoints(subsets: unknown): string {
  const ss = arr(subsets).map(rec);
  if (ss.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let count = 0;
  let more = false;
  for (const s of ss) {
    const addresses = arr(s.addresses).map(rec);
    const ports = arr(s.ports).map(rec);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) { more = true; break; }
        list.push(str(a.ip));
      }
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) { more = true; break; }
        list.push(joinHostPort(str(a.ip), num(p.port)));
      }
    }
  }
  const joined = list.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

export const endpointsPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Endpoints', 'string', 'Endpoint addresses and ports (the first few).'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => ({ cells: [nameOf(o), formatEndpoints(o.subsets), age(o, now)] }),
};

// ---- persistent volumes and claims ----

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, once each. */
export function accessModes(modes: unknown): string {
  const set = new Set(arr(modes).map(str));
  const out: string[] = [];
  if (set.has('ReadWriteOnce')) out.push('RWO');
  if (set.has('ReadOnlyMany')) out.push('ROX');
  if (set.has('ReadWriteMany')) out.push('RWX');
  if (set.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** The storage class: the beta annotation wins over spec.storageClassName. */
function storageClass(o: KObject): string {
  const beta = annotationOrLabel(strMap(meta(o).annotations), 'volume.beta.kubernetes.io/storage-class');
  return beta ?? str(spec(o).storageClassName);
}

/** The phase of a volume or claim; Terminating once it is being deleted. */
const volumePhase = (o: KObject): string => (has(meta(o).deletionTimestamp) ? 'Terminating' : str(status(o).phase));

const VOLUME_MODE_COLUMN = col('VolumeMode', 'string', 'Whether the volume is a filesystem or a raw block device.', WIDE);

const PV_COLUMNS = [
  NAME_COLUMN,
  col('Capacity', 'string', "The volume's storage size."),
  col('Access Modes', 'string', 'How the volume can be mounted (RWO, ROX, RWX, RWOP).'),
  col('Reclaim Policy', 'string', 'What happens to the volume once its claim is released.'),
  col('Status', 'string', "The volume's phase."),
  col('Claim', 'string', 'The claim the volume is bound to, as namespace/name.'),
  col('StorageClass', 'string', "The volume's storage class."),
  col('Reason', 'string', 'A short reason for the phase, when there is one.'),
  AGE_COLUMN,
  VOLUME_MODE_COLUMN,
];

export const persistentVolumePrinter: Printer = {
  columns: PV_COLUMNS,
  row: (o, { now }) => {
    const sp = spec(o);
    const st = status(o);
    const claim = has(sp.claimRef) ? `${str(rec(sp.claimRef).namespace)}/${str(rec(sp.claimRef).name)}` : '';
    return {
      cells: [
        nameOf(o), quantity(rec(sp.capacity).storage), accessModes(sp.accessModes), str(sp.persistentVolumeReclaimPolicy),
        volumePhase(o), claim, storageClass(o), str(st.reason), age(o, now), str(sp.volumeMode) || '<unset>',
      ],
    };
  },
};

const PVC_COLUMNS = [
  NAME_COLUMN,
  col('Status', 'string', "The claim's phase."),
  col('Volume', 'string', 'The volume the claim is bound to.'),
  col('Capacity', 'string', 'Storage size of the bound volume.'),
  col('Access Modes', 'string', 'How the bound volume can be mounted (RWO, ROX, RWX, RWOP).'),
  col('StorageClass', 'string', "The claim's storage class."),
  AGE_COLUMN,
  VOLUME_MODE_COLUMN,
];

export const persistentVolumeClaimPrinter: Printer = {
  columns: PVC_COLUMNS,
  row: (o, { now }) => {
    const sp = spec(o);
    const st = status(o);
    const bound = str(sp.volumeName) !== '';
    return {
      cells: [
        nameOf(o), volumePhase(o), str(sp.volumeName), bound ? quantity(rec(st.capacity).storage) : '', bound ? accessModes(st.accessModes) : '',
        storageClass(o), age(o, now), str(sp.volumeMode) || '<unset>',
      ],
    };
  },
};

// ---- replication controllers, pod templates ----

export const replicationControllerPrinter: Printer = {
  columns: [NAME_COLUMN, ...REPLICA_COLUMNS, ...workloadColumns('replication controller')],
  row: (o, { now }) => {
    const sp = spec(o);
    const st = status(o);
    const [names, images] = templateContainers(o);
    return { cells: [nameOf(o), num(sp.replicas), num(st.replicas), num(st.readyReplicas), age(o, now), names, images, formatLabels(sp.selector)] };
  },
};

export const podTemplatePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    { ...CONTAINERS_COLUMN, priority: 0 },
    { ...IMAGES_COLUMN, priority: 0 },
    col('Pod Labels', 'string', 'Labels of the pods made from the template.'),
  ],
  row: (o) => {
    const template = rec(o.template);
    const [names, images] = containerCells(rec(template.spec).containers);
    return { cells: [nameOf(o), names, images, formatLabels(rec(template.metadata).labels)] };
  },
};

// ---- resource quotas, component statuses ----

export const resourceQuotaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Request', 'string', 'Used out of hard quota, for every resource but limits.*.'),
    col('Limit', 'string', 'Used out of hard quota, for the limits.* resources.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const st = status(o);
    const hard = rec(st.hard);
    const used = rec(st.used);
    const requests: string[] = [];
    const limits: string[] = [];
    for (const r of Object.keys(hard).sort()) {
      const pieces = r.split('.');
      const entry = `${r}: ${quantity(used[r])}/${quantity(hard[r])}`;
      (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(entry);
    }
    return { cells: [nameOf(o), requests.join(', '), limits.join(', '), age(o, now)] };
  },
};

export const componentStatusPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'Whether the component is healthy.'),
    col('Message', 'string', "The health check's message."),
    col('Error', 'string', "The health check's error."),
  ],
  row: (o) => {
    const healthy = arr(o.conditions).map(rec).find((c) => str(c.type) === 'Healthy');
    if (!healthy) return { cells: [nameOf(o), 'Unknown', '', ''] };
    return { cells: [nameOf(o), str(healthy.status) === 'True' ? 'Healthy' : 'Unhealthy', str(healthy.message), str(healthy.error)] };
  },
};

/** The core group's printers by resource. */
export const corePrinters: Readonly<Record<string, Printer>> = {
  pods: podPrinter,
  services: servicePrinter,
  nodes: nodePrinter,
  events: eventPrinter,
  namespaces: namespacePrinter,
  configmaps: configMapPrinter,
  secrets: secretPrinter,
  serviceaccounts: serviceAccountPrinter,
  endpoints: endpointsPrinter,
  persistentvolumes: persistentVolumePrinter,
  persistentvolumeclaims: persistentVolumeClaimPrinter,
  replicationcontrollers: replicationControllerPrinter,
  podtemplates: podTemplatePrinter,
  resourcequotas: resourceQuotaPrinter,
  componentstatuses: componentStatusPrinter,
};
