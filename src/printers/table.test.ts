// The Table envelope: includeObject modes, metadata, spellings, the default
// printer, watch events, the registry; and the recorded kube-apiserver Tables
// in ../shared/reference/transcripts (read at test time, never copied).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PRINTER, PrinterRegistry, buildTable, builtinPrinters, printerFor, watchTableStream } from './index.js';
import type { KObject, Printer, Table, TableApiVersion } from './index.js';
import { CREATED_AT_DESCRIPTION } from './cells.js';

const now = Date.parse('2024-05-01T12:00:00Z');
const cm = (name: string, extra: Record<string, unknown> = {}): KObject => ({
  kind: 'ConfigMap', apiVersion: 'v1',
  metadata: {
    name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2024-05-01T11:59:00Z',
    labels: { a: 'b' }, managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }],
  },
  data: { x: '1', y: '2' }, binaryData: { z: 'AA==' }, ...extra,
});
const cmPrinter = printerFor('', 'configmaps');

describe('buildTable', () => {
  it('Metadata (the default): PartialObjectMetadata with the whole ObjectMeta, managedFields kept', () => {
    const t = buildTable({ printer: cmPrinter, objects: [cm('c1')], apiVersion: 'meta.k8s.io/v1', listMeta: { resourceVersion: '9' }, now });
    assert.equal(t.kind, 'Table');
    assert.deepEqual(t.metadata, { resourceVersion: '9' });
    assert.deepEqual(t.rows, [{ cells: ['c1', 3, '60s'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm('c1').metadata } }]);
    assert.deepEqual(Object.keys(t), ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
  });
  it('the PartialObjectMetadata apiVersion follows the Table (v1beta1, svc.io)', () => {
    const versions: TableApiVersion[] = ['meta.k8s.io/v1beta1', 'meta.svc.io/v1', 'meta.svc.io/v1beta1'];
    for (const apiVersion of versions) {
      const t = buildTable({ printer: cmPrinter, objects: [cm('c1')], apiVersion, listMeta: {}, now });
      assert.equal(t.apiVersion, apiVersion);
      assert.equal((t.rows![0]!.object as { apiVersion: string }).apiVersion, apiVersion);
    }
  });
  it('Object: the object itself; None: null', () => {
    const o = cm('c1');
    assert.equal(buildTable({ printer: cmPrinter, objects: [o], includeObject: 'Object', apiVersion: 'meta.k8s.io/v1', listMeta: {}, now }).rows![0]!.object, o);
    assert.equal(buildTable({ printer: cmPrinter, objects: [o], includeObject: 'None', apiVersion: 'meta.k8s.io/v1', listMeta: {}, now }).rows![0]!.object, null);
  });
  it('list metadata: empty values omitted, continue and remainingItemCount kept', () => {
    const t = buildTable({ printer: cmPrinter, objects: [], apiVersion: 'meta.k8s.io/v1', listMeta: { resourceVersion: '5', continue: 'tok', remainingItemCount: 4 }, now });
    assert.deepEqual(t.metadata, { resourceVersion: '5', continue: 'tok', remainingItemCount: 4 });
    assert.deepEqual(t.rows, []);
    assert.deepEqual(buildTable({ printer: cmPrinter, objects: [], apiVersion: 'meta.k8s.io/v1', listMeta: { resourceVersion: '', continue: '' }, now }).metadata, {});
  });
  it('row conditions sit between cells and object', () => {
    const pod: KObject = { metadata: { name: 'p', creationTimestamp: '2024-05-01T11:00:00Z' }, spec: { containers: [] }, status: { phase: 'Succeeded' } };
    const row = buildTable({ printer: printerFor('', 'pods'), objects: [pod], includeObject: 'None', apiVersion: 'meta.k8s.io/v1', listMeta: {}, now }).rows![0]!;
    assert.deepEqual(Object.keys(row), ['cells', 'conditions', 'object']);
  });
  it('descriptions: our own one-line text, the same in every Table apiVersion', () => {
    const versions: TableApiVersion[] = ['meta.k8s.io/v1', 'meta.k8s.io/v1beta1', 'meta.svc.io/v1', 'meta.svc.io/v1beta1'];
    const registry = builtinPrinters();
    const printers = [DEFAULT_PRINTER, ...registry.keys().map((k) => registry.lookup(k.slice(0, k.lastIndexOf('/')), k.slice(k.lastIndexOf('/') + 1))!)];
    for (const printer of printers) {
      const [first, ...rest] = versions.map((apiVersion) => buildTable({ printer, objects: [], apiVersion, listMeta: {}, now }).columnDefinitions!);
      for (const other of rest) assert.deepEqual(other, first);
      for (const c of first!) {
        assert.match(c.description, /^[A-Z][^\n]*\.$/, `${c.name}: ${c.description}`);
        assert.doesNotMatch(c.description, /kubernetes\.io|k8s\.io|More info/, c.name);
      }
    }
  });
  it('FlowSchemas print in matching order', () => {
    const fs = (name: string, p: number): KObject => ({ metadata: { name }, spec: { matchingPrecedence: p, priorityLevelConfiguration: { name: 'x' } } });
    const t = buildTable({ printer: printerFor('flowcontrol.apiserver.k8s.io', 'flowschemas'), objects: [fs('b', 500), fs('z', 100), fs('a', 500)], apiVersion: 'meta.k8s.io/v1', listMeta: {}, now });
    assert.deepEqual(t.rows!.map((r) => r.cells[0]), ['z', 'a', 'b']);
  });
});

describe('the default printer', () => {
  const role: KObject = { metadata: { name: 'r', creationTimestamp: '2024-05-01T10:00:00.123Z', resourceVersion: '3' } };
  it('Name and Created At (a date, RFC 3339)', () => {
    const t = buildTable({ printer: DEFAULT_PRINTER, objects: [role], apiVersion: 'meta.k8s.io/v1', listMeta: { resourceVersion: '3' }, now, includeObject: 'None' });
    assert.deepEqual(t.columnDefinitions!.map((c) => [c.name, c.type, c.format, c.priority]), [['Name', 'string', 'name', 0], ['Created At', 'date', '', 0]]);
    assert.equal(t.columnDefinitions![1]!.description, CREATED_AT_DESCRIPTION);
    assert.deepEqual(t.rows, [{ cells: ['r', '2024-05-01T10:00:00Z'], object: null }]);
  });
  it('an empty list has rows: null', () => {
    assert.equal(buildTable({ printer: DEFAULT_PRINTER, objects: [], apiVersion: 'meta.k8s.io/v1', listMeta: {}, now }).rows, null);
  });
  it('resources without a v1.27 printer fall back to it', () => {
    for (const [g, r] of [['rbac.authorization.k8s.io', 'roles'], ['rbac.authorization.svc.io', 'clusterroles'], ['', 'limitranges'], ['apiextensions.k8s.io', 'customresourcedefinitions'], ['example.com', 'widgets']]) {
      assert.equal(printerFor(g!, r!), DEFAULT_PRINTER, `${g}/${r}`);
    }
  });
});

describe('watch tables', () => {
  it('one row per event; columns on the first event only, null after', () => {
    const s = watchTableStream({ printer: cmPrinter, apiVersion: 'meta.k8s.io/v1', clock: () => now });
    const first = s.next(cm('a'));
    const second = s.next(cm('b', { metadata: { name: 'b', resourceVersion: '8', creationTimestamp: '2024-05-01T11:00:00Z' } }));
    assert.equal(first.columnDefinitions!.length, 3);
    assert.equal(second.columnDefinitions, null);
    assert.deepEqual(first.metadata, { resourceVersion: '7' });
    assert.deepEqual(second.metadata, { resourceVersion: '8' });
    assert.deepEqual(second.rows!.map((r) => r.cells), [['b', 3, '60m']]);
    assert.equal((second.rows![0]!.object as { kind: string }).kind, 'PartialObjectMetadata');
  });
  it('APIService tables always carry their columns', () => {
    const s = watchTableStream({ printer: printerFor('apiregistration.k8s.io', 'apiservices'), apiVersion: 'meta.k8s.io/v1', clock: () => now });
    s.next({ metadata: { name: 'v1.' } });
    assert.equal(s.next({ metadata: { name: 'v1.apps' } }).columnDefinitions!.length, 4);
  });
});

describe('registry', () => {
  const p: Printer = { columns: [], row: () => ({ cells: [] }) };
  it('throws on a duplicate, in either spelling', () => {
    const r = new PrinterRegistry().register('rbac.authorization.svc.io', 'rolebindings', p);
    assert.throws(() => r.register('rbac.authorization.k8s.io', 'rolebindings', p), /already registered/);
    assert.equal(r.lookup('rbac.authorization.k8s.io', 'rolebindings'), p);
  });
  it('the built-ins cover the brief\'s resources', () => {
    const keys = builtinPrinters().keys();
    for (const k of ['/pods', '/services', '/nodes', '/events', '/namespaces', '/configmaps', '/secrets', '/serviceaccounts', '/endpoints',
      '/persistentvolumes', '/persistentvolumeclaims', '/replicationcontrollers', '/podtemplates', '/resourcequotas', 'apps/deployments',
      'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets', 'apps/controllerrevisions', 'batch/jobs', 'batch/cronjobs',
      'coordination.svc.io/leases', 'networking.svc.io/ingresses', 'rbac.authorization.svc.io/rolebindings', 'rbac.authorization.svc.io/clusterrolebindings',
      'storage.svc.io/storageclasses', 'scheduling.svc.io/priorityclasses', 'autoscaling/horizontalpodautoscalers', 'policy/poddisruptionbudgets',
      'certificates.svc.io/certificatesigningrequests', 'discovery.svc.io/endpointslices', 'networking.svc.io/networkpolicies',
      'admissionregistration.svc.io/mutatingwebhookconfigurations', 'admissionregistration.svc.io/validatingwebhookconfigurations',
      'node.svc.io/runtimeclasses', 'storage.svc.io/csidrivers', 'storage.svc.io/csinodes', 'storage.svc.io/volumeattachments', 'events.svc.io/events']) {
      assert.ok(keys.includes(k), k);
    }
  });
});

// ---- recorded kube-apiserver Tables ----

const here = dirname(fileURLToPath(import.meta.url));
/** dist/src/printers → the repository root → ../shared. */
const golden = join(here, '..', '..', '..', '..', '..', 'shared', 'reference', 'transcripts', 'golden');
const goldenAlt = join(process.cwd(), '..', 'shared', 'reference', 'transcripts', 'golden');
const goldenDir = [golden, goldenAlt].find((d) => existsSync(d));

interface Step { name: string; request: { path: string; headers?: Record<string, string> }; response: { body: unknown } }

/**
 * Intended difference: column descriptions are our own text, not kube-apiserver's
 * (kubectl ignores them), so both sides drop `columnDefinitions[].description`.
 */
const withoutDescriptions = (t: Table): unknown => ({
  ...t, columnDefinitions: t.columnDefinitions && t.columnDefinitions.map(({ description: _description, ...c }) => c),
});

/** Replaces cells of Age columns with the transcript's `<age>` placeholder. */
function normaliseAges(t: Table): Table {
  const ageIdx = (t.columnDefinitions ?? []).flatMap((c, i) => (c.name === 'Age' ? [i] : []));
  return { ...t, rows: t.rows && t.rows.map((r) => ({ ...r, cells: r.cells.map((c, i) => (ageIdx.includes(i) ? '<age>' : c)) })) };
}

describe('recorded Tables (kube-apiserver v1.26.1 transcripts)', { skip: goldenDir === undefined ? 'no ../shared/reference/transcripts' : false }, () => {
  for (const file of ['table-01-pods-and-configmaps.json', 'table-03-yaml-and-negotiation.json']) {
    const steps = goldenDir === undefined ? [] : (JSON.parse(readFileSync(join(goldenDir, file), 'utf8')) as { steps: Step[] }).steps;
    // Objects as the server returned them on create (their placeholders match the table's).
    const created = new Map<string, KObject>();
    const collections = new Map<string, KObject[]>();
    for (const s of steps) {
      const body = s.response.body as KObject & { kind?: string };
      if (s.request.headers?.['Content-Type'] && body && typeof body === 'object' && body.kind !== 'Status' && body.metadata) {
        const path = s.request.path.split('?')[0]!;
        const name = String(body.metadata.name);
        created.set(`${path}/${name}`, body);
        collections.set(path, [...(collections.get(path) ?? []), body]);
      }
    }
    for (const s of steps) {
      const body = s.response.body as Table;
      if (!body || typeof body !== 'object' || body.kind !== 'Table') continue;
      it(`${file}: ${s.name}`, () => {
        const [path, query = ''] = s.request.path.split('?') as [string, string?];
        const segments = path.split('/');
        const resource = segments.includes('configmaps') ? 'configmaps' : segments.includes('pods') ? 'pods' : 'namespaces';
        const objects = created.has(path) ? [created.get(path)!] : (collections.get(path) ?? []);
        assert.ok(objects.length > 0, `objects for ${path}`);
        const include = new URLSearchParams(query).get('includeObject') as 'None' | 'Object' | null;
        const listMeta = created.has(path) ? { resourceVersion: String(objects[0]!.metadata!.resourceVersion) } : { resourceVersion: body.metadata.resourceVersion ?? '' };
        const table = buildTable({
          printer: printerFor('', resource), objects, includeObject: include ?? 'Metadata', apiVersion: body.apiVersion, listMeta, now,
        });
        assert.deepEqual(withoutDescriptions(normaliseAges(JSON.parse(JSON.stringify(table)) as Table)), withoutDescriptions(body));
      });
    }
  }
});
