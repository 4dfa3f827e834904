// The CRD table convertor: the real Tables of golden
// crd-06-printer-columns-and-discovery (kube-apiserver v1.26.1), and cell
// rules of tableconvertor.go.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildTable, type KObject, type Table } from '../../printers/table.js';
import type { CustomResourceColumnDefinition, CustomResourceDefinition } from '../types.js';
import { cellFor, columnsForVersion, dateCell, scaleColumnsForVersion, tableConvertor } from './convertor.js';

interface Step { name: string; request: { body?: unknown }; response: { body: unknown } }
const golden = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../../shared/reference/transcripts/golden/crd-06-printer-columns-and-discovery.json', import.meta.url)), 'utf8')) as { steps: Step[] };
const step = (name: string): Step => golden.steps.find((s) => s.name === name)!;

const NOW = Date.parse('2026-01-01T12:00:00Z');
const CREATED = '2026-01-01T11:55:00Z';

/** An object as the server stored it: the create response with a real time. */
function stored(name: string): KObject {
  return JSON.parse(JSON.stringify(step(name).response.body).replaceAll('"<time>"', JSON.stringify(CREATED))) as KObject;
}

/** The golden's normalisation: ages and times replaced. */
function normalise(t: Table): unknown {
  const text = JSON.stringify(t).replaceAll(JSON.stringify(CREATED), '"<time>"').replaceAll('"5m"', '"<age>"');
  return JSON.parse(text);
}

const crd = (name: string) => step(name).request.body as CustomResourceDefinition;

describe('tableConvertor: golden crd-06', () => {
  const databases = crd('create-crd').spec.versions[0]!;
  const notes = crd('create-plain-crd').spec.versions[0]!;
  const table = (version: typeof databases, objects: KObject[], resourceVersion: string) =>
    normalise(buildTable({ printer: tableConvertor(columnsForVersion(version)), objects, includeObject: 'Metadata', apiVersion: 'meta.k8s.io/v1', listMeta: { resourceVersion }, now: NOW }));

  it('table-list: columns with priority and descriptions, a missing value as null', () => {
    assert.deepEqual(table(databases, [stored('create-a'), stored('create-b')], 'rv#7'), step('table-list').response.body);
  });
  it('table-single', () => {
    assert.deepEqual(table(databases, [stored('create-a')], 'rv#6'), step('table-single').response.body);
  });
  it('table-default-columns: Name and Age for a version without columns', () => {
    assert.deepEqual(table(notes, [stored('create-note')], 'rv#8'), step('table-default-columns').response.body);
  });
  it('an empty list has rows: [] (not null)', () => {
    const t = buildTable({ printer: tableConvertor(columnsForVersion(notes)), objects: [], apiVersion: 'meta.k8s.io/v1', listMeta: {}, now: NOW });
    assert.deepEqual(t.rows, []);
  });
});

describe('tableConvertor: cells', () => {
  const col = (type: string, jsonPath: string, format?: string): CustomResourceColumnDefinition => ({ name: 'C', type, jsonPath, ...(format ? { format } : {}) });
  const cellOf = (c: CustomResourceColumnDefinition, obj: Record<string, unknown>) => tableConvertor([c]).row({ metadata: { name: 'x' }, ...obj }, { now: NOW }).cells[1];
  const rows: [string, CustomResourceColumnDefinition, Record<string, unknown>, unknown][] = [
    ['string', col('string', '.spec.s'), { spec: { s: 'v' } }, 'v'],
    ['string of a number', col('string', '.spec.n'), { spec: { n: 3 } }, '3'],
    ['string of a float', col('string', '.spec.n'), { spec: { n: 1e6 + 0.5 } }, '1.0000005e+06'],
    ['string of a bool', col('string', '.spec.b'), { spec: { b: false } }, 'false'],
    ['string of a map: JSON', col('string', '.spec'), { spec: { b: 1, a: ['x'] } }, '{"a":["x"],"b":1}'],
    ['string of null', col('string', '.spec.s'), { spec: { s: null } }, '<no value>'],
    ['missing', col('string', '.spec.s'), {}, null],
    ['first result only', col('string', '.spec.l[*]'), { spec: { l: ['a', 'b'] } }, 'a'],
    ['filter', col('string', '.status.conditions[?(@.type=="Ready")].status'), { status: { conditions: [{ type: 'X', status: 'False' }, { type: 'Ready', status: 'True' }] } }, 'True'],
    ['an evaluation error is null', col('string', '.spec.s[0]'), { spec: { s: 'abc' } }, null],
    ['integer', col('integer', '.spec.n'), { spec: { n: 7 } }, 7],
    ['integer of a float truncates', col('integer', '.spec.n'), { spec: { n: -7.9 } }, -7],
    ['integer of a string', col('integer', '.spec.n'), { spec: { n: '7' } }, null],
    ['number', col('number', '.spec.n'), { spec: { n: 2 } }, 2],
    ['boolean', col('boolean', '.spec.b'), { spec: { b: true } }, true],
    ['boolean of a string', col('boolean', '.spec.b'), { spec: { b: 'true' } }, null],
    ['date', col('date', '.status.t'), { status: { t: '2026-01-01T10:00:00Z' } }, '120m'],
    ['date unparsable', col('date', '.status.t'), { status: { t: 'yesterday' } }, '<invalid>'],
    ['date empty', col('date', '.status.t'), { status: { t: '' } }, '<unknown>'],
    ['date of a number', col('date', '.status.t'), { status: { t: 5 } }, null],
    ['an unknown type', col('widget', '.spec.s'), { spec: { s: 'v' } }, null],
  ];
  for (const [name, c, obj, want] of rows) it(name, () => assert.deepEqual(cellOf(c, obj), want));

  it('column definitions: description, format and priority carried', () => {
    const p = tableConvertor([{ name: 'Size', type: 'integer', format: 'int32', priority: 1, description: 'how big', jsonPath: '.spec.size' }]);
    assert.deepEqual(p.columns[1], { name: 'Size', type: 'integer', format: 'int32', description: 'how big', priority: 1 });
    assert.equal(p.columns[0]!.format, 'name');
  });
  it('a column that does not parse ends the columns, with kube\'s error', () => {
    const p = tableConvertor([col('string', '.a'), col('string', '.b['), col('string', '.c')]);
    assert.deepEqual(p.columns.map((c) => c.name), ['Name', 'C']);
    assert.equal(p.error, 'unrecognized column definition ".b["');
  });
});

describe('columns for a version', () => {
  it('scale columns', () => {
    assert.deepEqual(scaleColumnsForVersion({ subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } }).map((c) => `${c.name}:${c.jsonPath}`),
      ['Desired:.spec.replicas', 'Available:.status.replicas', 'Age:.metadata.creationTimestamp']);
    assert.deepEqual(scaleColumnsForVersion({}).map((c) => c.name), ['Age']);
  });
  it('declared columns are served as they are', () => {
    assert.deepEqual(columnsForVersion({ additionalPrinterColumns: [{ name: 'X', type: 'string', jsonPath: '.x' }] }).map((c) => c.name), ['X']);
  });
});

describe('dateCell / cellFor', () => {
  it('zero time is unknown', () => assert.equal(dateCell('0001-01-01T00:00:00Z', NOW), '<unknown>'));
  it('"null" is unknown', () => assert.equal(dateCell('null', NOW), '<unknown>'));
  it('offsets', () => assert.equal(dateCell('2026-01-01T13:00:00+02:00', NOW), '60m'));
  it('out-of-range fields are invalid', () => assert.equal(dateCell('2026-13-01T00:00:00Z', NOW), '<invalid>'));
  it('null stays null', () => assert.equal(cellFor('integer', null, NOW), null));
});
