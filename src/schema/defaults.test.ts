// applyDefaults: the apiextensions defaulting algorithm, case by case.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bool, int32, list, mapOf, obj, str } from './dsl.js';
import { applyDefaults } from './defaults.js';

const Spec = obj({
  replicas: int32().default(1),
  paused: bool().default(false),
  name: str(),
  nullableWithDefault: str().nullable().default('d'),
  strategy: obj({ type: str().default('RollingUpdate'), maxSurge: int32().default(25) }),
  template: obj({ policy: str().default('Always') }).default({}),
  ports: list(obj({ port: int32(), protocol: str().default('TCP') })),
  tags: list(str().default('none')),
  limits: mapOf(obj({ max: int32().default(10) })),
  flags: mapOf(str().default('on')),
});
const Root = obj({ spec: Spec });
const run = (v: unknown) => applyDefaults(Root.schema, v);

describe('applyDefaults', () => {
  const rows: [string, unknown, unknown][] = [
    ['absent properties of a present object', { spec: {} }, { spec: { replicas: 1, paused: false, nullableWithDefault: 'd', template: { policy: 'Always' } } }],
    ['an absent parent stays absent', {}, {}],
    ['present values are kept', { spec: { replicas: 3, paused: true, template: { policy: 'Never' } } }, { spec: { replicas: 3, paused: true, nullableWithDefault: 'd', template: { policy: 'Never' } } }],
    ['null is replaced unless nullable', { spec: { replicas: null, nullableWithDefault: null, template: {} } }, { spec: { replicas: 1, paused: false, nullableWithDefault: null, template: { policy: 'Always' } } }],
    ['nested objects, when present', { spec: { strategy: {}, template: {} } }, { spec: { replicas: 1, paused: false, nullableWithDefault: 'd', strategy: { type: 'RollingUpdate', maxSurge: 25 }, template: { policy: 'Always' } } }],
    ['a defaulted object gets its own defaults', { spec: { replicas: 1, paused: false, nullableWithDefault: 'd' } }, { spec: { replicas: 1, paused: false, nullableWithDefault: 'd', template: { policy: 'Always' } } }],
    ['list items', { spec: { template: {}, ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }], tags: ['a', null] } }, { spec: { replicas: 1, paused: false, nullableWithDefault: 'd', template: { policy: 'Always' }, ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], tags: ['a', 'none'] } }],
    ['map values', { spec: { template: {}, limits: { a: {}, b: { max: 3 } }, flags: { x: null, y: 'off' } } }, { spec: { replicas: 1, paused: false, nullableWithDefault: 'd', template: { policy: 'Always' }, limits: { a: { max: 10 }, b: { max: 3 } }, flags: { x: 'on', y: 'off' } } }],
    ['wrong types are left alone', { spec: { template: {}, strategy: 'x', ports: {} } }, { spec: { replicas: 1, paused: false, nullableWithDefault: 'd', template: { policy: 'Always' }, strategy: 'x', ports: {} } }],
  ];
  for (const [name, input, want] of rows) it(name, () => assert.deepEqual(run(input), want));

  it('defaults are copies, never shared', () => {
    const a = run({ spec: {} }) as { spec: { template: { policy: string } } };
    const b = run({ spec: {} }) as { spec: { template: { policy: string } } };
    a.spec.template.policy = 'changed';
    assert.equal(b.spec.template.policy, 'Always');
    assert.deepEqual(Spec.schema.properties!.template!.default, {});
  });
  it('works in place', () => {
    const v = { spec: {} };
    applyDefaults(Root.schema, v);
    assert.equal((v.spec as { replicas?: number }).replicas, 1);
  });
});
