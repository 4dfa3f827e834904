// storedBytes must write exactly the UTF-8 of what JSON.stringify writes for the object
// without metadata.resourceVersion, whether or not its FieldsV1 objects came
// from the engine (memoized text) and however their sets share subtrees.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyObject, updateObject } from '../smd/index.js';
import { Thing } from '../smd/fixtures.js';
import { prng } from '../testing/prng.js';
import type { JsonObject } from '../smd/typed.js';
import type { ApiObject } from './object.js';
import { storedBytes } from './storedjson.js';

const storedJSON = (o: ApiObject): string => storedBytes(o).toString('utf8');

const reference = (o: ApiObject): string => {
  const { resourceVersion: _rv, ...meta } = o.metadata;
  return JSON.stringify({ ...o, metadata: meta });
};
const as = (o: unknown) => o as ApiObject;
const now = () => '2026-01-01T00:00:00Z';
const common = { apiVersion: 'v1', schema: Thing, now };

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}

describe('storedBytes', () => {
  const cases: [string, unknown][] = [
    ['no metadata fields beyond a name', { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' } }],
    ['resourceVersion is left out', { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a', resourceVersion: '7', uid: 'u' }, spec: { replicas: 1 } }],
    ['undefined values are left out, as JSON.stringify does', { kind: 'Thing', metadata: { name: 'a', labels: undefined, managedFields: [{ manager: 'm', time: undefined, fieldsV1: { 'f:spec': {} } }] }, spec: undefined }],
    ['parsed (not engine-made) FieldsV1 and odd keys', JSON.parse('{"kind":"T","metadata":{"name":"\\u00e9\\"q","managedFields":[{"manager":"x","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:k\\"\\\\":{}}}}}]},"1":"integer keys first"}')],
    ['managedFields that are not a list of objects', { kind: 'T', metadata: { name: 'a', managedFields: [null, 3, 'x', [1]] } }],
  ];
  for (const [name, obj] of cases) it(name, () => assert.equal(storedJSON(as(obj)), reference(as(obj))));

  it('objects written by the engine, applied and updated by several managers (frozen, as kept objects are)', () => {
    const r = prng(7);
    const rand = () => r.next();
    let live: JsonObject | undefined;
    for (let i = 0; i < 300; i++) {
      const manager = `m${Math.floor(rand() * 4)}`;
      const containers = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, c) => ({ name: `c${c}`, image: `img:${Math.floor(rand() * 3)}`, ...(rand() < 0.5 ? { args: ['a', `${i}`] } : {}) }));
      const config = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 't', labels: { [manager]: String(i) } }, spec: { replicas: Math.floor(rand() * 3), containers, config: { [`k${Math.floor(rand() * 5)}`]: 'v' } } };
      if (rand() < 0.7) live = applyObject({ ...common, live, config: config as JsonObject, manager, force: true }).object;
      else if (live) live = updateObject({ ...common, live, updated: { ...JSON.parse(JSON.stringify(live)), spec: config.spec } as JsonObject, manager: `u${manager}` }).object;
      const obj = deepFreeze({ ...live!, metadata: { ...(live!.metadata as JsonObject), resourceVersion: String(i) } });
      assert.equal(storedJSON(as(obj)), reference(as(obj)), `after write ${i}`);
    }
  });
});
