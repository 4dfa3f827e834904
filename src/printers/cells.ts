// Shared pieces of printers: reading stored JSON loosely, the column helper and
// the columns many printers share (Name, Age, containers, replica counts), and
// Kubernetes' formatting of labels, label selectors, container lists and booleans.
import { since } from './age.js';
import type { ColumnType, KObject, TableColumnDefinition } from './table.js';

// ---- loose reads of stored JSON ----

export type Json = Readonly<Record<string, unknown>>;

export const rec = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const has = (v: unknown): boolean => v !== undefined && v !== null;
/** A string-valued map (labels, annotations, selectors). */
export const strMap = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(rec(v))) out[k] = str(x);
  return out;
};

export const meta = (o: KObject): Json => rec(o.metadata);
export const nameOf = (o: KObject): string => str(meta(o).name);
export const spec = (o: KObject): Json => rec(o.spec);
export const status = (o: KObject): Json => rec(o.status);

/** Number of keys of a map field (Data counts). */
export const keyCount = (v: unknown): number => Object.keys(rec(v)).length;

// ---- columns ----
//
// Column descriptions are our own short text; kubectl does not show them.

const NAME_DESCRIPTION = "The object's name.";
const AGE_DESCRIPTION = 'Time since the object was created.';
export const CREATED_AT_DESCRIPTION = 'When the object was created (RFC 3339, UTC).';

export interface ColumnOptions {
  /** 1 for columns only `kubectl get -o wide` shows; 0 by default. */
  readonly priority?: number;
  /** 'name' for the object's name column; '' by default. */
  readonly format?: string;
}

/** Options of a column shown only by `-o wide`. */
export const WIDE: ColumnOptions = { priority: 1 };

export function col(name: string, type: ColumnType, description: string, { priority = 0, format = '' }: ColumnOptions = {}): TableColumnDefinition {
  return { name, type, format, description, priority };
}

export const NAME_COLUMN = col('Name', 'string', NAME_DESCRIPTION, { format: 'name' });
export const AGE_COLUMN = col('Age', 'string', AGE_DESCRIPTION);
export const CONTAINERS_COLUMN = col('Containers', 'string', 'Names of the containers in the pod template.', WIDE);
export const IMAGES_COLUMN = col('Images', 'string', 'Images of the containers in the pod template.', WIDE);

/** Desired, Current and Ready replica counts (replica sets, replication controllers). */
export const REPLICA_COLUMNS = [
  col('Desired', 'integer', 'Number of replicas wanted.'),
  col('Current', 'integer', 'Number of replicas last observed.'),
  col('Ready', 'integer', 'Number of replicas that are ready.'),
];

/** Age, Containers, Images and a wide Selector: how the workload printers with a selector end. */
export function workloadColumns(kind: string): TableColumnDefinition[] {
  return [AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, col('Selector', 'string', `Label selector of the pods this ${kind} manages.`, WIDE)];
}

/** The Age cell: time since creation. */
export const age = (o: KObject, now: number): string => since(meta(o).creationTimestamp, now);

// ---- formatting ----

/** labels.FormatLabels: `a=1,b=2` with sorted keys, `<none>` when empty. */
export function formatLabels(v: unknown): string {
  const m = strMap(v);
  const s = Object.keys(m).sort().map((k) => `${k}=${m[k]}`).join(',');
  return s === '' ? '<none>' : s;
}

/** One requirement of a label selector, as labels.Requirement prints it. */
function requirementString(key: string, op: string, values: readonly string[]): string | undefined {
  const vals = [...values].sort();
  switch (op) {
    case 'In': return `${key} in (${vals.join(',')})`;
    case 'NotIn': return `${key} notin (${vals.join(',')})`;
    case 'Exists': return key;
    case 'DoesNotExist': return `!${key}`;
    default: return undefined;
  }
}

/**
 * metav1.LabelSelectorAsSelector(sel).String(): requirements sorted by key,
 * joined by commas; '' for a missing or empty selector; undefined when invalid.
 */
export function labelSelectorString(v: unknown): string | undefined {
  if (!has(v)) return '';
  const sel = rec(v);
  const reqs: [string, string][] = [];
  for (const [k, val] of Object.entries(strMap(sel.matchLabels))) reqs.push([k, `${k}=${val}`]);
  for (const e of arr(sel.matchExpressions)) {
    const expr = rec(e);
    const key = str(expr.key);
    const values = arr(expr.values).map(str);
    const op = str(expr.operator);
    if ((op === 'In' || op === 'NotIn') && values.length === 0) return undefined;
    if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0) return undefined;
    const s = requirementString(key, op, values);
    if (s === undefined) return undefined;
    reqs.push([key, s]);
  }
  return reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((r) => r[1]).join(',');
}

/** metav1.FormatLabelSelector: like labelSelectorString, `<none>` when it selects by nothing, `<error>` when invalid. */
export function formatLabelSelector(v: unknown): string {
  const s = labelSelectorString(v);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}

/** Container names and images, comma-separated, in order. */
export function containerCells(containers: unknown): [string, string] {
  const cs = arr(containers).map(rec);
  return [cs.map((c) => str(c.name)).join(','), cs.map((c) => str(c.image)).join(',')];
}

/** The pod template's containers of a workload (`spec.template.spec.containers`). */
export const templateContainers = (o: KObject): [string, string] => containerCells(rec(rec(spec(o).template).spec).containers);

/** printBool / printBoolPtr: `True`, `False`, `<unset>` for a missing pointer. */
export function boolPtr(v: unknown): string {
  if (typeof v !== 'boolean') return '<unset>';
  return v ? 'True' : 'False';
}

/** IntOrString as Go prints it. */
export function intOrString(v: unknown): string {
  return typeof v === 'number' ? String(v) : str(v);
}

/** A resource quantity as stored (canonical form); a missing quantity is Go's zero value `0`. */
export function quantity(v: unknown): string {
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v !== '' ? v : '0';
}

/** Lists capped at `max` entries: `a,b,c + 2 more...`; `<unset>` when empty (listWithMoreString). */
export function listWithMore(items: readonly string[], max: number, emptyText = '<unset>'): string {
  const shown = items.slice(0, max).join(',');
  if (items.length > max) return `${shown} + ${items.length - max} more...`;
  return shown === '' ? emptyText : shown;
}

/** Whether an annotation or label is set under the Kubernetes key or its svc.io spelling. */
export function annotationOrLabel(m: Record<string, string>, k8sKey: string): string | undefined {
  if (k8sKey in m) return m[k8sKey];
  const svcKey = k8sKey.replace('kubernetes.io/', 'svc.io/');
  return svcKey in m ? m[svcKey] : undefined;
}
