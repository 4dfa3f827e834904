// The meta/v1 Table representation and how one is built from objects.
//
// A Printer (per resource) turns one object into cells; buildTable wraps the
// rows the way kube-apiserver v1.27 does for `Accept: …;as=Table`:
//
//   objects ──printer.cells──► rows ──includeObject──► row.object
//                                                       None     → null
//                                                       Metadata → PartialObjectMetadata (the default;
//                                                                  the whole ObjectMeta, managedFields included)
//                                                       Object   → the object as given
//   listMeta ──► metadata {resourceVersion, continue, remainingItemCount} (empty ones omitted)
//
// The server always prints "wide": every column, whatever its priority (the
// client hides priority > 0 unless -o wide). A watch sends one Table per event;
// v1.27 includes columnDefinitions only in the first event's Table and sends
// `null` afterwards (the watch handler flips TableOptions.noHeaders after the
// first object) — watchEventTable takes that flag.

/**
 * A JSON value in a cell; cells follow the column types but may also be strings (`<none>`, `<unset>`).
 * Custom resources' columns leave a cell null when their JSONPath finds nothing.
 */
export type Cell = string | number | boolean | null;

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date';

export interface TableColumnDefinition {
  readonly name: string;
  readonly type: ColumnType;
  /** `name` for the object's name column, otherwise ''. */
  readonly format: string;
  readonly description: string;
  /** 0: always shown; 1: shown by `kubectl get -o wide`. */
  readonly priority: number;
}

export interface TableRowCondition {
  readonly type: 'Completed';
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

export interface TableRow {
  cells: Cell[];
  conditions?: TableRowCondition[];
  /** null for includeObject=None (Go marshals the empty RawExtension as null). */
  object: unknown;
}

export interface TableListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export type TableApiVersion = 'meta.k8s.io/v1' | 'meta.svc.io/v1' | 'meta.k8s.io/v1beta1' | 'meta.svc.io/v1beta1';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface Table {
  kind: 'Table';
  apiVersion: TableApiVersion;
  metadata: TableListMeta;
  /** null when headers are omitted (watch events after the first). */
  columnDefinitions: TableColumnDefinition[] | null;
  /** null only for the default printer over an empty list (v1.27 appends to a nil slice). */
  rows: TableRow[] | null;
}

/** The loosely typed object a printer reads: stored JSON. */
export interface KObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

export interface PrintContext {
  /** Current time in milliseconds since the epoch (ages and durations are relative to it). */
  readonly now: number;
}

export interface PrintedRow {
  readonly cells: Cell[];
  readonly conditions?: TableRowCondition[];
}

/** How one resource is printed. */
export interface Printer {
  readonly columns: readonly TableColumnDefinition[];
  /** Cells in column order, every column (wide). */
  row(obj: KObject, ctx: PrintContext): PrintedRow;
  /** Reorders a list before printing (FlowSchemas print by matching precedence). */
  order?(objects: readonly KObject[]): readonly KObject[];
  /** v1.27's default convertor builds rows by appending to nil: an empty list has `rows: null`. */
  readonly nilRowsWhenEmpty?: boolean;
  /** Some convertors (APIService) ignore noHeaders and always send columns. */
  readonly alwaysHeaders?: boolean;
}

/** The group of a Table apiVersion's spelling, k8s.io or svc.io. */
function tableGroup(apiVersion: TableApiVersion): string {
  return apiVersion.slice(0, apiVersion.indexOf('/'));
}

/** The row object for an includeObject mode. */
export function rowObject(obj: KObject, includeObject: IncludeObject, apiVersion: TableApiVersion): unknown {
  switch (includeObject) {
    case 'None': return null;
    case 'Object': return obj;
    case 'Metadata': {
      const group = tableGroup(apiVersion);
      const version = apiVersion.slice(group.length + 1);
      return { kind: 'PartialObjectMetadata', apiVersion: `${group}/${version}`, metadata: obj.metadata ?? {} };
    }
  }
}

function tableRow(printer: Printer, obj: KObject, ctx: PrintContext, includeObject: IncludeObject, apiVersion: TableApiVersion): TableRow {
  const { cells, conditions } = printer.row(obj, ctx);
  const object = rowObject(obj, includeObject, apiVersion);
  // Go's field order: cells, conditions (omitted when empty), object.
  return conditions && conditions.length > 0 ? { cells, conditions, object } : { cells, object };
}

/** ListMeta with Go's omitempty: empty strings and zero counts are left out. */
function cleanListMeta(meta: TableListMeta): TableListMeta {
  const out: TableListMeta = {};
  if (meta.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta.continue) out.continue = meta.continue;
  if (meta.remainingItemCount !== undefined && meta.remainingItemCount !== null) out.remainingItemCount = meta.remainingItemCount;
  return out;
}

/** The Table metadata of a single-object GET: the object's resourceVersion. */
export function objectListMeta(obj: KObject): TableListMeta {
  const rv = obj.metadata?.resourceVersion;
  return typeof rv === 'string' && rv !== '' ? { resourceVersion: rv } : {};
}

export interface BuildTableOptions {
  readonly printer: Printer;
  /** The list's items, or the one object of a GET. */
  readonly objects: readonly KObject[];
  /** Default Metadata, as in Kubernetes. */
  readonly includeObject?: IncludeObject;
  readonly apiVersion: TableApiVersion;
  /** The list's metadata; for a GET use objectListMeta(obj). */
  readonly listMeta: TableListMeta;
  /** Milliseconds since the epoch. */
  readonly now: number;
  /** Omit columnDefinitions (sent as null). */
  readonly noHeaders?: boolean;
}

/** A Table for a list or a single object, exactly as v1.27 serves it. */
export function buildTable(opts: BuildTableOptions): Table {
  const { printer, apiVersion } = opts;
  const includeObject = opts.includeObject ?? 'Metadata';
  const ctx: PrintContext = { now: opts.now };
  const objects = printer.order ? printer.order(opts.objects) : opts.objects;
  const rows = objects.map((o) => tableRow(printer, o, ctx, includeObject, apiVersion));
  const headers = !opts.noHeaders || printer.alwaysHeaders === true;
  return {
    kind: 'Table',
    apiVersion,
    metadata: cleanListMeta(opts.listMeta),
    columnDefinitions: headers ? [...printer.columns] : null,
    rows: rows.length === 0 && printer.nilRowsWhenEmpty ? null : rows,
  };
}

export interface WatchEventTableOptions {
  readonly printer: Printer;
  readonly object: KObject;
  readonly includeObject?: IncludeObject;
  readonly apiVersion: TableApiVersion;
  readonly now: number;
  /** True for the first object the watch sends: only that Table carries columnDefinitions. */
  readonly first: boolean;
}

/** The Table sent as one watch event's object: one row, headers only on the first event. */
export function watchEventTable(opts: WatchEventTableOptions): Table {
  return buildTable({
    printer: opts.printer,
    objects: [opts.object],
    includeObject: opts.includeObject ?? 'Metadata',
    apiVersion: opts.apiVersion,
    listMeta: objectListMeta(opts.object),
    now: opts.now,
    noHeaders: !opts.first,
  });
}

/**
 * A watch stream's Table maker: remembers whether columns were sent.
 * `next(obj)` gives the event object; call it once per event, in order.
 */
export function watchTableStream(opts: Omit<WatchEventTableOptions, 'object' | 'first' | 'now'> & { readonly clock?: () => number }): { next(obj: KObject): Table } {
  let first = true;
  const clock = opts.clock ?? Date.now;
  return {
    next(obj: KObject): Table {
      const t = watchEventTable({ ...opts, object: obj, now: clock(), first });
      first = false;
      return t;
    },
  };
}
