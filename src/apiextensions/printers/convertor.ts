// The Table convertor of a custom resource version (apiextensions-apiserver
// pkg/registry/customresource/tableconvertor, v1.27), as a Printer of
// src/printers so buildTable / watchTableStream serve it like any kind:
//
//   columns = Name (format name) + each additionalPrinterColumn
//             (description: the column's, else "Custom resource definition
//             column (in JSONPath format): <jsonPath>")
//   cell    = the column's JSONPath `{<jsonPath>}` with missing keys allowed,
//             first result only; nothing found or an error → null
//             string  → printed as kubectl prints it (maps and lists as JSON)
//             integer → int64 (floats truncated) · number → float64
//             boolean → bool · date → age of an RFC 3339 time
//             ("<invalid>" when unparsable, "<unknown>" for "" or "null")
//             any other value for the type → null
//
// A version without columns gets Age (.metadata.creationTimestamp, date);
// the scale subresource's Table gets Desired/Available/Age. A column whose
// JSONPath does not parse ends the list: Kubernetes keeps the columns before
// it and logs the error (`columns.error`).
import { humanDuration } from '../../printers/age.js';
import type { Cell, ColumnType, KObject, Printer, TableColumnDefinition } from '../../printers/table.js';
import type { CustomResourceColumnDefinition, CustomResourceDefinitionVersion } from '../types.js';
import { findResults, printValue } from './evaluate.js';
import { type ListNode, parseJSONPath } from './jsonpath.js';

/** metav1.ObjectMeta's documentation of `name`, the Name column's description. */
export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names';

/** metav1.ObjectMeta's documentation of `creationTimestamp`, the default Age column's description. */
export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const AGE: CustomResourceColumnDefinition = { name: 'Age', type: 'date', description: CREATION_TIMESTAMP_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' };

/** A version's columns as served: its additionalPrinterColumns, or Age alone (serveDefaultColumnsIfEmpty). */
export function columnsForVersion(version: Pick<CustomResourceDefinitionVersion, 'additionalPrinterColumns'>): CustomResourceColumnDefinition[] {
  const cols = version.additionalPrinterColumns ?? [];
  return cols.length > 0 ? [...cols] : [AGE];
}

/** The scale subresource's columns (getScaleColumnsForVersion): Desired, Available (when their paths are set), Age. */
export function scaleColumnsForVersion(version: Pick<CustomResourceDefinitionVersion, 'subresources'>): CustomResourceColumnDefinition[] {
  const cols: CustomResourceColumnDefinition[] = [];
  const scale = version.subresources?.scale;
  if (scale?.specReplicasPath) cols.push({ name: 'Desired', type: 'integer', description: 'Number of desired replicas', jsonPath: '.spec.replicas' });
  if (scale?.statusReplicasPath) cols.push({ name: 'Available', type: 'integer', description: 'Number of actual replicas', jsonPath: '.status.replicas' });
  cols.push(AGE);
  return cols;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** metav1.Time.UnmarshalQueryParameter then ConvertToHumanReadableDateType. */
export function dateCell(text: string, now: number): string {
  if (text === '' || text === 'null') return '<unknown>';
  const m = RFC3339.exec(text);
  if (!m) return '<invalid>';
  const [, , mo, d, h, mi, s] = m.map(Number) as number[];
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || s! > 59) return '<invalid>';
  const t = Date.parse(text);
  if (Number.isNaN(t)) return '<invalid>';
  // Go's zero time counts as unset.
  if (text.startsWith('0001-01-01T00:00:00') && t === Date.parse('0001-01-01T00:00:00Z')) return '<unknown>';
  return humanDuration(now - t);
}

/** cellForJSONValue: a non-string column's cell from the first result. */
export function cellFor(type: string, value: unknown, now: number): Cell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer': return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number': return typeof value === 'number' ? value : null;
    case 'boolean': return typeof value === 'boolean' ? value : null;
    case 'string': return typeof value === 'string' ? value : null;
    case 'date': return typeof value === 'string' ? dateCell(value, now) : null;
    default: return null;
  }
}

interface Column {
  readonly def: TableColumnDefinition;
  readonly path: ListNode;
}

export interface CustomResourcePrinter extends Printer {
  /** Why the columns stop early (a JSONPath that does not parse), as Kubernetes logs it. */
  readonly error?: string;
}

function nameOf(o: KObject): string {
  const name = o.metadata?.name;
  return typeof name === 'string' ? name : '';
}

/** The cell of one column for one object. */
function cell(col: Column, obj: KObject, now: number): Cell {
  let results: unknown[][];
  try {
    results = findResults(col.path, obj, { allowMissingKeys: true });
  } catch {
    return null;
  }
  const first = results[0];
  if (!first || first.length === 0) return null;
  const value = first[0];
  if (col.def.type === 'string') {
    try {
      return printValue(value);
    } catch {
      return null;
    }
  }
  return cellFor(col.def.type, value, now);
}

/** The Printer of a custom resource version with these columns (tableconvertor.New). */
export function tableConvertor(columns: readonly CustomResourceColumnDefinition[]): CustomResourcePrinter {
  const cols: Column[] = [];
  let error: string | undefined;
  for (const c of columns) {
    let path: ListNode;
    try {
      path = parseJSONPath(`{${c.jsonPath}}`);
    } catch {
      error = `unrecognized column definition ${JSON.stringify(c.jsonPath)}`;
      break;
    }
    const def: TableColumnDefinition = {
      name: c.name,
      type: c.type as ColumnType,
      format: c.format ?? '',
      description: c.description ? c.description : `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
    };
    cols.push({ def, path });
  }
  const nameColumn: TableColumnDefinition = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 };
  const printer: CustomResourcePrinter = {
    columns: [nameColumn, ...cols.map((c) => c.def)],
    row: (obj, ctx) => ({ cells: [nameOf(obj), ...cols.map((c) => cell(c, obj, ctx.now))] }),
    ...(error === undefined ? {} : { error }),
  };
  return printer;
}
