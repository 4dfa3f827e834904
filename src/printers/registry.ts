// Printers by resource. Keys are `group/resource` with the group in its svc.io
// spelling ('' for core: `/pods`, `apps/deployments`,
// `rbac.authorization.svc.io/rolebindings`); lookups accept either spelling.
// Registering a key twice throws. A resource without a printer gets the default
// Table of kube-apiserver's default convertor: Name and Created At.
import { canonicalGroup } from '../endpoints/requestinfo.js';
import { CREATED_AT_DESCRIPTION, NAME_COLUMN, col, meta, nameOf } from './cells.js';
import { parseTime } from './age.js';
import type { KObject, Printer } from './table.js';
import { rfc3339 } from '../api/meta/time.js';

/** Go's time.RFC3339 of a UTC timestamp, seconds precision; the zero time when unset. */
function createdAt(o: KObject): string {
  const t = parseTime(meta(o).creationTimestamp);
  if (t === undefined) return '0001-01-01T00:00:00Z';
  return rfc3339(t);
}

/**
 * The default convertor: `Name` (string, format name) and `Created At` (date,
 * an RFC 3339 cell, not an age). Its rows start as nil, so an empty list has
 * `rows: null`.
 */
export const DEFAULT_PRINTER: Printer = {
  columns: [NAME_COLUMN, col('Created At', 'date', CREATED_AT_DESCRIPTION)],
  row: (o) => ({ cells: [nameOf(o), createdAt(o)] }),
  nilRowsWhenEmpty: true,
};

const key = (group: string, resource: string): string => `${canonicalGroup(group)}/${resource}`;

export class PrinterRegistry {
  private readonly printers = new Map<string, Printer>();

  /** Adds a printer; throws when the resource already has one. */
  register(group: string, resource: string, printer: Printer): this {
    const k = key(group, resource);
    if (this.printers.has(k)) throw new Error(`printers: a printer for ${k} is already registered`);
    this.printers.set(k, printer);
    return this;
  }

  /** Adds every printer of a group's table (`{ resource: printer }`). */
  registerGroup(group: string, printers: Readonly<Record<string, Printer>>): this {
    for (const [resource, p] of Object.entries(printers)) this.register(group, resource, p);
    return this;
  }

  /** The resource's printer, or undefined. */
  lookup(group: string, resource: string): Printer | undefined {
    return this.printers.get(key(group, resource));
  }

  /** The resource's printer, falling back to the default one. */
  printerFor(group: string, resource: string): Printer {
    return this.lookup(group, resource) ?? DEFAULT_PRINTER;
  }

  /** Registered keys, sorted. */
  keys(): string[] {
    return [...this.printers.keys()].sort();
  }
}
