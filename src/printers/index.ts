// Server-side Table printing (meta/v1 Table), the way kube-apiserver v1.27
// prints. Entry points for the HTTP layer:
//   printerFor(group, resource)  the resource's Printer (default: Name, Created At)
//   buildTable({...})            a Table for a list or a GET
//   watchTableStream({...})      one-row Tables for a watch, headers on the first
// Files: table.ts (types, builder), registry.ts (lookup, default printer),
// age.ts (durations), cells.ts (shared formatting), one printer file per group.
import { appsPrinters } from './apps.js';
import { batchPrinters } from './batch.js';
import { corePrinters } from './core.js';
import { otherPrinters } from './others.js';
import { PrinterRegistry } from './registry.js';
import type { Printer } from './table.js';

export { buildTable, objectListMeta, rowObject, watchEventTable, watchTableStream } from './table.js';
export type {
  BuildTableOptions, Cell, ColumnType, IncludeObject, KObject, PrintContext, PrintedRow, Printer, Table, TableApiVersion,
  TableColumnDefinition, TableListMeta, TableRow, TableRowCondition, WatchEventTableOptions,
} from './table.js';
export { DEFAULT_PRINTER, PrinterRegistry } from './registry.js';
export { humanDuration, shortHumanDuration } from './age.js';

/** A registry holding every built-in printer. */
export function builtinPrinters(): PrinterRegistry {
  const r = new PrinterRegistry().registerGroup('', corePrinters).registerGroup('apps', appsPrinters).registerGroup('batch', batchPrinters);
  for (const [group, printers] of Object.entries(otherPrinters)) r.registerGroup(group, printers);
  return r;
}

let builtin: PrinterRegistry | undefined;

/** The built-in printer of a resource (group in either spelling), or the default printer. */
export function printerFor(group: string, resource: string): Printer {
  builtin ??= builtinPrinters();
  return builtin.printerFor(group, resource);
}
