// Read conversions (spec "Table representation"; DESIGN §2): a get, list or
// watch answered as a meta Table (columns from src/printers) or as
// PartialObjectMetadata[List], in the meta group spelling the client asked for.
import { newBadRequest } from '../api/meta/index.js';
import { buildTable, objectListMeta, printerFor, watchTableStream, type IncludeObject, type KObject, type Printer, type TableApiVersion, type TableListMeta } from '../printers/index.js';
import type { ApiObject } from '../registry/object.js';
import type { Target } from './negotiate.js';

type Conversion = Exclude<Target, { as: 'object' }>;

const INCLUDE: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

/** `includeObject` of a Table request (default Metadata); other values are a client error. */
export function includeObjectOf(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  if (v === null || v === '') return 'Metadata';
  if (!(INCLUDE as readonly string[]).includes(v)) throw newBadRequest(`includeObject: Unsupported value: ${JSON.stringify(v)}: supported values: "Metadata", "None", "Object"`);
  return v as IncludeObject;
}

export interface ConvertContext {
  /** The served resource's group (either spelling) and plural name, to find its printer. */
  readonly group: string;
  readonly resource: string;
  readonly includeObject: IncludeObject;
  /** The resource's own printer (custom resources); otherwise the built-in one for group and resource. */
  readonly printer?: Printer;
}

const printerOf = (c: ConvertContext) => c.printer ?? printerFor(c.group, c.resource);

const metaVersion = (t: Conversion): string => `${t.group}/${t.version}`;

function partial(t: Conversion, obj: ApiObject): unknown {
  return { kind: 'PartialObjectMetadata', apiVersion: metaVersion(t), metadata: obj.metadata };
}

/** One object (a get) as the conversion asks. */
export function convertObject(t: Conversion, obj: ApiObject, c: ConvertContext, now = Date.now()): unknown {
  if (t.as === 'Table') {
    return buildTable({ printer: printerOf(c), objects: [obj as KObject], includeObject: c.includeObject, apiVersion: metaVersion(t) as TableApiVersion, listMeta: objectListMeta(obj as KObject), now });
  }
  return partial(t, obj);
}

/** A list page as the conversion asks. */
export function convertList(t: Conversion, items: readonly ApiObject[], listMeta: TableListMeta, c: ConvertContext, now = Date.now()): unknown {
  if (t.as === 'Table') {
    return buildTable({ printer: printerOf(c), objects: items as KObject[], includeObject: c.includeObject, apiVersion: metaVersion(t) as TableApiVersion, listMeta, now });
  }
  return { kind: 'PartialObjectMetadataList', apiVersion: metaVersion(t), metadata: listMeta, items: items.map((o) => partial(t, o)) };
}

/** Converts each watch event's object; a Table stream sends its columns with the first event only. */
export function watchConverter(t: Conversion, c: ConvertContext): (obj: ApiObject) => unknown {
  if (t.as !== 'Table') return (obj) => partial(t, obj);
  const stream = watchTableStream({ printer: printerOf(c), includeObject: c.includeObject, apiVersion: metaVersion(t) as TableApiVersion });
  return (obj) => stream.next(obj as KObject);
}
