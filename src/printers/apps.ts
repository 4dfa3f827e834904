// Printers of the apps group: deployments, replica sets, stateful sets, daemon
// sets, controller revisions.
import {
  AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, REPLICA_COLUMNS, age, arr, col, formatLabelSelector, formatLabels,
  labelSelectorString, meta, nameOf, num, rec, spec, status, str, templateContainers, workloadColumns,
} from './cells.js';
import type { Printer } from './table.js';

const READY_OF_DESIRED = col('Ready', 'string', 'Ready pods out of the replicas wanted.');

export const deploymentPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    READY_OF_DESIRED,
    col('Up-to-date', 'string', 'Pods that run the current pod template.'),
    col('Available', 'string', 'Pods that have been ready long enough to count as available.'),
    ...workloadColumns('deployment'),
  ],
  row: (o, { now }) => {
    const st = status(o);
    const [names, images] = templateContainers(o);
    // LabelSelectorAsSelector(...).String(): '' for no selector, `<invalid>` when it does not parse.
    const selector = labelSelectorString(spec(o).selector) ?? '<invalid>';
    return {
      cells: [nameOf(o), `${num(st.readyReplicas)}/${num(spec(o).replicas)}`, num(st.updatedReplicas), num(st.availableReplicas), age(o, now), names, images, selector],
    };
  },
};

export const replicaSetPrinter: Printer = {
  columns: [NAME_COLUMN, ...REPLICA_COLUMNS, ...workloadColumns('replica set')],
  row: (o, { now }) => {
    const st = status(o);
    const [names, images] = templateContainers(o);
    return { cells: [nameOf(o), num(spec(o).replicas), num(st.replicas), num(st.readyReplicas), age(o, now), names, images, formatLabelSelector(spec(o).selector)] };
  },
};

export const statefulSetPrinter: Printer = {
  columns: [NAME_COLUMN, READY_OF_DESIRED, AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  row: (o, { now }) => {
    const [names, images] = templateContainers(o);
    return { cells: [nameOf(o), `${num(status(o).readyReplicas)}/${num(spec(o).replicas)}`, age(o, now), names, images] };
  },
};

export const daemonSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Desired', 'integer', 'Nodes that should run the daemon pod.'),
    col('Current', 'integer', 'Nodes that run the daemon pod.'),
    col('Ready', 'integer', 'Nodes whose daemon pod is ready.'),
    col('Up-to-date', 'integer', 'Nodes whose daemon pod runs the current template.'),
    col('Available', 'integer', 'Nodes whose daemon pod is available.'),
    col('Node Selector', 'string', 'Labels a node must have to run the daemon pod.'),
    ...workloadColumns('daemon set'),
  ],
  row: (o, { now }) => {
    const st = status(o);
    const [names, images] = templateContainers(o);
    const nodeSelector = formatLabels(rec(rec(spec(o).template).spec).nodeSelector);
    return {
      cells: [
        nameOf(o), num(st.desiredNumberScheduled), num(st.currentNumberScheduled), num(st.numberReady), num(st.updatedNumberScheduled),
        num(st.numberAvailable), nodeSelector, age(o, now), names, images, formatLabelSelector(spec(o).selector),
      ],
    };
  },
};

/** `kind.group/name` in lower case for the controller owner (`statefulset.apps/web`); the core group has no suffix. */
function controllerName(ownerReferences: unknown): string {
  const ref = arr(ownerReferences).map(rec).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = str(ref.apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = str(ref.kind);
  if (kind === '' && group === '') return str(ref.name);
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${str(ref.name)}`;
}

export const controllerRevisionPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Controller', 'string', 'The object that owns the revision, as kind.group/name.'),
    col('Revision', 'string', 'The revision number.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => ({ cells: [nameOf(o), controllerName(meta(o).ownerReferences), num(o.revision), age(o, now)] }),
};

export const appsPrinters: Readonly<Record<string, Printer>> = {
  deployments: deploymentPrinter,
  replicasets: replicaSetPrinter,
  statefulsets: statefulSetPrinter,
  daemonsets: daemonSetPrinter,
  controllerrevisions: controllerRevisionPrinter,
};
