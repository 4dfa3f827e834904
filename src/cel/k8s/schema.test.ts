import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ListType, MapType, ObjectType, Type } from '../types.js';
import { CelError, Double, Duration, Timestamp } from '../values.js';
import { schemaType, schemaTypeAndConverter, MAX_REQUEST_SIZE_BYTES, type Schema } from './schema.js';
import { valueOf } from './convert.js';
import { escape } from './escaping.js';

const typeOf = (s: Schema, resourceRoot = false): Type | undefined => schemaType(s, { name: 'Object', resourceRoot });
const obj = (t: Type | undefined): ObjectType => {
  assert.equal(t?.kind, 'object');
  return t as ObjectType;
};
const field = (t: Type | undefined, name: string): Type => {
  const f = obj(t).fields.get(name);
  assert.ok(f, `field ${name} of ${obj(t).name}`);
  return f.type;
};
const arrayOf = (type: string, format?: string, maxItems?: number): Schema => ({
  type: 'array',
  items: format ? { type, format } : { type },
  ...(maxItems !== undefined ? { maxItems } : {}),
});
const bound = (t: Type | undefined): number | undefined =>
  t === undefined ? undefined : 'maxElements' in t ? t.maxElements : 'maxLength' in t ? t.maxLength : undefined;

test('schemaType: the mapping table', () => {
  const rows: [string, Schema, string][] = [
    ['boolean', { type: 'boolean' }, 'bool'],
    ['integer', { type: 'integer', format: 'int32' }, 'int'],
    ['number', { type: 'number', format: 'float' }, 'double'],
    ['string', { type: 'string' }, 'string'],
    ['byte', { type: 'string', format: 'byte' }, 'bytes'],
    ['date', { type: 'string', format: 'date' }, 'timestamp'],
    ['date-time', { type: 'string', format: 'date-time' }, 'timestamp'],
    ['duration', { type: 'string', format: 'duration' }, 'duration'],
    ['other format', { type: 'string', format: 'email' }, 'string'],
    ['int-or-string', { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, 'dyn'],
    ['array', arrayOf('integer'), 'list'],
    ['map', { type: 'object', additionalProperties: { type: 'string' } }, 'map'],
    ['object', { type: 'object', properties: { a: { type: 'string' } } }, 'object'],
    ['object without properties', { type: 'object' }, 'object'],
    ['preserve-unknown object', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, 'object'],
  ];
  for (const [what, s, kind] of rows) assert.equal(typeOf(s)?.kind, kind, what);
  const hidden: [string, Schema][] = [
    ['preserve-unknown without type', { 'x-kubernetes-preserve-unknown-fields': true }],
    ['no type', {}],
    ['null', { type: 'null' }],
    ['array without items', { type: 'array' }],
    ['array of hidden items', { type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true } }],
    ['map of hidden values', { type: 'object', additionalProperties: {} }],
  ];
  for (const [what, s] of hidden) assert.equal(typeOf(s), undefined, what);
  const list = typeOf(arrayOf('number')) as ListType;
  assert.equal(list.elem.kind, 'double');
  const m = typeOf({ type: 'object', additionalProperties: { type: 'string', format: 'date' } }) as MapType;
  assert.deepEqual([m.key.kind, m.value.kind], ['string', 'timestamp']);
});

test('schemaType: maximum sizes as kube estimates them', () => {
  const rows: [string, Schema, number][] = [
    ['boolean array', arrayOf('boolean'), 629145],
    ['duration array', arrayOf('string', 'duration'), 786431],
    ['date-time array', arrayOf('string', 'date-time'), 142987],
    ['date array', arrayOf('string', 'date'), 241978],
    ['integer array', arrayOf('integer'), 1572863],
    ['string array', arrayOf('string'), 1048575],
    ['string map', { type: 'object', additionalProperties: { type: 'string' } }, 393215],
    [
      'array of objects with a required property',
      { type: 'array', items: { type: 'object', required: ['required'], properties: { required: { type: 'string' }, optional: { type: 'string' } } } },
      185042,
    ],
    [
      'array of objects whose required property has a default',
      { type: 'array', items: { type: 'object', required: ['field'], properties: { field: { type: 'string', default: 'default' } } } },
      1048575,
    ],
    ['maxItems', arrayOf('integer', 'int64', 10), 10],
    ['negative maxItems', arrayOf('integer', undefined, -1), 0],
    ['string maxLength (code points → bytes)', { type: 'string', maxLength: 20 }, 80],
    ['map maxProperties', { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 15 }, 15],
    ['duration', { type: 'string', format: 'duration' }, 32],
    ['duration ignores maxLength', { type: 'string', format: 'duration', maxLength: 5 }, 32],
    ['date', { type: 'string', format: 'date' }, 12],
    ['date-time', { type: 'string', format: 'date-time' }, 32],
    ['int-or-string', { 'x-kubernetes-int-or-string': true }, MAX_REQUEST_SIZE_BYTES - 2],
    ['string', { type: 'string' }, 3145726],
    ['byte', { type: 'string', format: 'byte' }, 3145726],
    ['byte maxLength (bytes)', { type: 'string', format: 'byte', maxLength: 20 }, 20],
    ['array of int-or-string', { type: 'array', items: { 'x-kubernetes-int-or-string': true } }, 1572863],
    ['array of lists', { type: 'array', items: arrayOf('integer') }, 1048575],
  ];
  for (const [what, s, max] of rows) assert.equal(bound(typeOf(s)), max, what);
});

test('schemaType: object type names follow the path, fields are escaped', () => {
  const s: Schema = {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        required: ['replicas'],
        properties: {
          replicas: { type: 'integer' },
          template: { type: 'object', properties: { 'app.kubernetes.io/name': { type: 'string' } } },
          containers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
          byZone: { type: 'object', additionalProperties: { type: 'object', properties: { weight: { type: 'number' } } } },
          namespace: { type: 'string' },
          'x-y': { type: 'object', properties: { z: { type: 'boolean' } } },
          '1st': { type: 'string' },
          'a b': { type: 'string' },
        },
      },
    },
  };
  const root = obj(typeOf(s));
  assert.equal(root.name, 'Object');
  const spec = obj(field(root, 'spec'));
  assert.equal(spec.name, 'Object.spec');
  assert.equal(root.fields.get('spec')?.required, true);
  assert.equal(spec.fields.get('replicas')?.required, true);
  assert.equal(spec.fields.get('template')?.required, undefined);
  const template = obj(field(spec, 'template'));
  assert.equal(template.name, 'Object.spec.template');
  assert.deepEqual([...template.fields.keys()], ['app__dot__kubernetes__dot__io__slash__name']);
  assert.equal(template.fields.get('app__dot__kubernetes__dot__io__slash__name')?.wireName, 'app.kubernetes.io/name');
  assert.equal(obj((field(spec, 'containers') as ListType).elem).name, 'Object.spec.containers.@idx');
  assert.equal(obj((field(spec, 'byZone') as MapType).value).name, 'Object.spec.byZone.@elem');
  assert.equal(spec.fields.get('__namespace__')?.wireName, 'namespace');
  assert.equal(obj(field(spec, 'x__dash__y')).name, 'Object.spec.x__dash__y');
  assert.ok(!spec.fields.has('1st') && !spec.fields.has('a b') && !spec.fields.has('namespace'));
  assert.equal(spec.fields.size, 6);
});

test('schemaType: resource roots and embedded resources declare apiVersion, kind, metadata.name/generateName', () => {
  const s: Schema = {
    type: 'object',
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          plain: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
  };
  const root = obj(typeOf(s, true));
  assert.deepEqual([...root.fields.keys()].sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  const meta = obj(field(root, 'metadata'));
  assert.equal(meta.name, 'Object.metadata');
  assert.deepEqual([...meta.fields.keys()].sort(), ['generateName', 'name']);
  const spec = obj(field(root, 'spec'));
  const tmpl = obj(field(spec, 'template'));
  assert.deepEqual([...tmpl.fields.keys()].sort(), ['apiVersion', 'kind', 'metadata']);
  assert.equal(obj(field(tmpl, 'metadata')).name, 'Object.spec.template.metadata');
  assert.equal(obj(field(spec, 'plain')).fields.size, 0);
  // A rule's root on an embedded resource is a resource root by default.
  const embedded = schemaType(s.properties!['spec']!.properties!['template']!, { name: 'T' });
  assert.deepEqual([...obj(embedded).fields.keys()].sort(), ['apiVersion', 'kind', 'metadata']);
  assert.equal(obj(schemaType(s.properties!['spec']!.properties!['template']!, { name: 'T', resourceRoot: false })).fields.size, 0);
  // Not a resource root: only what the schema says.
  assert.deepEqual([...obj(typeOf(s)).fields.keys()].sort(), ['metadata', 'spec']);
  // A schema that already declares them is kept as is (metadata keeps its other properties).
  const full: Schema = {
    type: 'object',
    properties: {
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
    },
  };
  assert.deepEqual([...obj(field(typeOf(full, true), 'metadata')).fields.keys()].sort(), ['generateName', 'labels', 'name']);
});

test('schemaType: list types', () => {
  const set = typeOf({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }) as ListType;
  assert.deepEqual(set.k8sList, { listType: 'set' });
  const m = typeOf({
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    items: { type: 'object', properties: { containerPort: { type: 'integer' }, protocol: { type: 'string' } } },
  }) as ListType;
  assert.deepEqual(m.k8sList, { listType: 'map', mapKeys: ['containerPort', 'protocol'] });
  assert.equal((typeOf({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }) as ListType).k8sList, undefined);
});

test('FieldType.convert and valueOf: JSON values that are not runtime values', () => {
  const s: Schema = {
    type: 'object',
    properties: {
      ratio: { type: 'number' },
      count: { type: 'integer' },
      name: { type: 'string' },
      data: { type: 'string', format: 'byte' },
      at: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      every: { type: 'string', format: 'duration' },
      ratios: { type: 'array', items: { type: 'number' } },
      counts: { type: 'array', items: { type: 'integer' } },
      port: { 'x-kubernetes-int-or-string': true },
      names: { type: 'array', items: { type: 'string' } },
      deadlines: { type: 'object', additionalProperties: { type: 'string', format: 'date-time' } },
      nested: { type: 'array', items: { type: 'array', items: { type: 'string', format: 'duration' } } },
      objs: { type: 'array', items: { type: 'object', properties: { r: { type: 'number' } } } },
    },
  };
  const t = obj(typeOf(s));
  const conv = (f: string, raw: unknown): unknown => {
    const c = t.fields.get(f)!.convert;
    return c ? c(raw) : raw;
  };
  for (const f of ['name', 'names', 'objs']) assert.equal(t.fields.get(f)!.convert, undefined, f);
  assert.equal(conv('count', 3), 3);
  assert.equal(conv('port', 'http'), 'http');
  assert.equal(conv('port', 8080), 8080);
  assert.equal(conv('port', 2 ** 60), 2n ** 60n);
  assert.throws(() => conv('port', 1.5), (e: unknown) => e instanceof CelError && e.message === 'invalid data, expected XIntOrString value to be either a string or integer');
  assert.throws(() => conv('port', true), (e: unknown) => e instanceof CelError && e.message === 'invalid data, expected XIntOrString value to be either a string or integer');
  assert.equal(conv('count', 2 ** 62), 2n ** 62n);
  assert.equal(conv('count', -(2 ** 63)), -(2n ** 63n));
  assert.throws(() => conv('count', 2 ** 63), (e: unknown) => e instanceof CelError && e.message === 'invalid data, expected int, got float64');
  assert.throws(() => conv('count', 1.5), (e: unknown) => e instanceof CelError && e.message === 'invalid data, expected int, got float64');
  assert.deepEqual(conv('ratio', 1), new Double(1));
  assert.deepEqual(conv('ratio', 0.5), new Double(0.5));
  assert.equal(conv('ratio', null), null);
  assert.deepEqual(conv('data', 'aGVsbG8='), new TextEncoder().encode('hello'));
  assert.deepEqual(conv('at', '2024-03-01T12:00:00Z'), new Timestamp(1709294400, 0));
  assert.deepEqual(conv('at', '2024-03-01T14:00:00.25+02:00'), new Timestamp(1709294400, 250000000));
  assert.deepEqual(conv('day', '2024-03-01'), new Timestamp(1709251200, 0));
  assert.deepEqual(conv('every', '1h30m'), new Duration(5400000000000n));
  assert.deepEqual(conv('every', '2 days'), new Duration(172800000000000n));
  assert.deepEqual(conv('ratios', [1, 2.5]), [new Double(1), new Double(2.5)]);
  const raw = [1];
  assert.equal(conv('ratios', raw), conv('ratios', raw), 'converted once per JSON list');
  const ints = [1, 2, 3];
  assert.equal(t.fields.get('counts')!.convert!(ints), ints, 'a list whose elements need no conversion is not copied');
  assert.deepEqual(t.fields.get('counts')!.convert!([1, 2 ** 60]), [1, 2n ** 60n]);
  assert.deepEqual(conv('deadlines', { a: '1970-01-01T00:00:01Z' }), { a: new Timestamp(1, 0) });
  const tricky = conv('deadlines', JSON.parse('{"__proto__": "1970-01-01T00:00:02Z"}')) as Record<string, unknown>;
  assert.deepEqual(Object.entries(tricky), [['__proto__', new Timestamp(2, 0)]]);
  assert.deepEqual(conv('nested', [['1s'], []]), [[new Duration(1000000000n)], []]);
  const errors: [string, unknown, string][] = [
    ['ratio', 'x', 'invalid data, expected float, got string'],
    ['data', 'a', 'Invalid byte formatted string a: illegal base64 data at input byte 0'],
    ['data', 'a===', 'Invalid byte formatted string a===: illegal base64 data at input byte 1'],
    ['data', 'aGVsbG8', 'Invalid byte formatted string aGVsbG8: illegal base64 data at input byte 4'],
    ['every', 'soon', 'Invalid duration soon: unable to parse soon as duration'],
    ['at', 'yesterday', 'Invalid date-time formatted string yesterday: parsing time "yesterday" as "2006-01-02T15:04": cannot parse "yesterday" as "2006-01-02T15:04"'],
    ['day', '2024-02-30', 'Invalid date formatted string 2024-02-30: parsing time "2024-02-30" as "2006-01-02": cannot parse "2024-02-30" as "2006-01-02"'],
    ['at', 5, 'invalid data, expected string, got int64'],
  ];
  for (const [f, v, msg] of errors) {
    assert.throws(() => conv(f, v), (e: unknown) => e instanceof CelError && e.message === msg, `${f} ${String(v)}`);
  }
  // Root values.
  assert.deepEqual(valueOf({ type: 'string', format: 'date-time' }, '1970-01-01T00:00:00Z'), new Timestamp(0, 0));
  assert.deepEqual(valueOf({ type: 'number' }, 3), new Double(3));
  assert.equal(valueOf({ type: 'integer' }, 3), 3);
  assert.equal(valueOf({ type: 'integer' }, 2 ** 60), 2n ** 60n);
  assert.deepEqual(valueOf({ kind: 'list', elem: { kind: 'duration' } }, ['1m']), [new Duration(60000000000n)]);
  assert.deepEqual(valueOf({ kind: 'timestamp' }, '2024-03-01'), new Timestamp(1709251200, 0));
  assert.deepEqual(schemaTypeAndConverter({ type: 'string' }, { name: 'x' }), { type: { kind: 'string', maxLength: 3145726 } });
});

// Real CRDs: every schema carrying x-kubernetes-validations has a CEL type at its path.
const CRDS = [
  'cert-manager/cert-manager.io_issuers.yaml',
  'cert-manager/cert-manager.io_clusterissuers.yaml',
  'prometheus-operator/monitoring.coreos.com_prometheuses.yaml',
  'prometheus-operator/monitoring.coreos.com_scrapeconfigs.yaml',
];
const loadCrd = (f: string): Schema => {
  const doc = parse(readFileSync(`../shared/reference/crds/${f}`, 'utf8'), { maxAliasCount: -1 }) as { spec: { versions: { schema: { openAPIV3Schema: Schema } }[] } };
  return doc.spec.versions[0]!.schema.openAPIV3Schema;
};

test('schemaType: real CRDs (cert-manager, prometheus-operator)', () => {
  let rules = 0;
  for (const f of CRDS) {
    const s = loadCrd(f);
    const root = obj(typeOf(s, true));
    for (const k of ['apiVersion', 'kind', 'metadata', 'spec']) assert.ok(root.fields.has(k), `${f}: ${k}`);
    // Walk schema and type together.
    const walk = (sc: Schema, t: Type, path: string): void => {
      if (sc['x-kubernetes-validations']) rules++;
      if (t.kind === 'object') {
        for (const [p, ps] of Object.entries(sc.properties ?? {})) {
          const ft = t.fields.get(escape(p) ?? '');
          if (ps.type === 'object' || ps.type === 'array' || ps.type === 'string' || ps.type === 'integer' || ps.type === 'boolean' || ps.type === 'number') {
            assert.ok(ft, `${f}: ${path}.${p} has a type`);
          }
          if (ft) walk(ps, ft.type, `${path}.${p}`);
        }
      } else if (t.kind === 'list') {
        assert.equal(sc.type, 'array', path);
        const lt = sc['x-kubernetes-list-type'];
        assert.equal(t.k8sList?.listType, lt === 'atomic' ? undefined : lt, path);
        walk(sc.items!, t.elem, `${path}[]`);
      } else if (t.kind === 'map') {
        walk(sc.additionalProperties as Schema, t.value, `${path}{}`);
      }
    };
    walk(s, root, f);
  }
  assert.equal(rules, 8);
  // Spot checks on the Prometheus CRD.
  const prom = obj(typeOf(loadCrd('prometheus-operator/monitoring.coreos.com_prometheuses.yaml'), true));
  const spec = obj(field(prom, 'spec'));
  assert.equal(spec.name, 'Object.spec');
  const containers = field(spec, 'containers') as ListType;
  const container = obj(containers.elem);
  assert.equal(container.name, 'Object.spec.containers.@idx');
  assert.deepEqual((field(container, 'ports') as ListType).k8sList, { listType: 'map', mapKeys: ['containerPort', 'protocol'] });
  assert.deepEqual((field(container, 'env') as ListType).k8sList, { listType: 'map', mapKeys: ['name'] });
  assert.equal(field(spec, 'replicas').kind, 'int');
  assert.equal(field(spec, 'scrapeInterval').kind, 'string');
  assert.equal(field(obj(field(container, 'livenessProbe')), 'httpGet').kind, 'object');
  assert.equal(field(obj(field(obj(field(container, 'livenessProbe')), 'httpGet')), 'port').kind, 'dyn');
  const limits = field(obj(field(container, 'resources')), 'limits') as MapType;
  assert.deepEqual([limits.kind, limits.value.kind], ['map', 'dyn']);
});
