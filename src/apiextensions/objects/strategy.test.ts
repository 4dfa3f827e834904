// The strategy's order of checks for create, update and status writes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invalid } from '../../api/meta/field.js';
import { renderCause } from '../../api/meta/govalue.js';
import type { Schema } from '../../schema/model.js';
import { customResourceErrors, type StrategyInput } from './strategy.js';

const schema: Schema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }, template: { type: 'object', 'x-kubernetes-embedded-resource': true } } } },
};
const kind = { group: 'g.example.com', version: 'v1', kind: 'Widget' };
const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
const bad = { apiVersion: 'g.example.com/v1', kind: 'Widget', spec: { replicas: -1, tags: ['a', 'a'], template: {} }, status: { replicas: -2 } };
const run = (over: Partial<StrategyInput>) =>
  customResourceErrors({ operation: 'create', obj: bad, kind, schema, scale, metaAndSchemaErrors: () => [invalid('metadata.name', 'X', 'caller')], ...over }).map(renderCause);

describe('customResourceErrors', () => {
  it('create: every check in order', () => {
    assert.deepEqual(run({}), [
      'metadata.name: Invalid value: "X": caller',
      '.spec.replicas: Invalid value: -1: should be a non-negative integer',
      '.status.replicas: Invalid value: -2: should be a non-negative integer',
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
      'spec.tags[1]: Duplicate value: "a"',
    ]);
  });
  it('a wrong kind is the whole answer (the caller\'s checks not run)', () => {
    assert.deepEqual(run({ obj: { ...bad, kind: 'Gadget' }, metaAndSchemaErrors: () => assert.fail('not called') }), ['kind: Invalid value: "Gadget": must be Widget']);
  });
  it('update ratchets list types against the old object', () => {
    assert.equal(run({ operation: 'update', old: bad }).some((m) => m.includes('Duplicate')), false);
    assert.equal(run({ operation: 'update', old: { spec: {} } }).some((m) => m.includes('Duplicate')), true);
  });
  it('status: no scale spec, no embedded resources', () => {
    assert.deepEqual(run({ operation: 'status', old: { spec: {} } }), [
      'metadata.name: Invalid value: "X": caller',
      '.status.replicas: Invalid value: -2: should be a non-negative integer',
      'spec.tags[1]: Duplicate value: "a"',
    ]);
  });
});
