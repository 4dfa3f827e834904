// The custom-resource strategy's type-meta and scale checks (validator.go).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../api/meta/govalue.js';
import type { CustomResourceSubresourceScale } from '../types.js';
import { validateScaleSpec, validateScaleStatus, validateTypeMeta } from './resource.js';

describe('validateTypeMeta', () => {
  const want = { group: 'stable.example.com', version: 'v1', kind: 'CronTab' };
  const rows: [string, Record<string, unknown>, string[]][] = [
    ['matching', { apiVersion: 'stable.example.com/v1', kind: 'CronTab' }, []],
    ['wrong kind', { apiVersion: 'stable.example.com/v1', kind: 'Other' }, ['kind: Invalid value: "Other": must be CronTab']],
    ['wrong version', { apiVersion: 'stable.example.com/v2', kind: 'CronTab' }, ['apiVersion: Invalid value: "stable.example.com/v2": must be stable.example.com/v1']],
    ['missing both', {}, ['kind: Invalid value: "": must be CronTab', 'apiVersion: Invalid value: "": must be stable.example.com/v1']],
  ];
  for (const [name, o, exp] of rows) it(name, () => assert.deepEqual(validateTypeMeta(o, want).map(renderCause), exp));
});

describe('validateScaleSpec / validateScaleStatus', () => {
  const scale: CustomResourceSubresourceScale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' };
  const rows: [string, Record<string, unknown>, string[], string[]][] = [
    ['absent values pass', {}, [], []],
    ['valid', { spec: { replicas: 3 }, status: { replicas: 2, labelSelector: 'a=b' } }, [], []],
    ['negative', { spec: { replicas: -1 }, status: { replicas: -2 } }, ['.spec.replicas: Invalid value: -1: should be a non-negative integer'], ['.status.replicas: Invalid value: -2: should be a non-negative integer']],
    ['too large', { spec: { replicas: 2147483648 } }, ['.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647'], []],
    ['not an integer', { spec: { replicas: 1.5 }, status: { replicas: '2' } },
      ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64'],
      ['.status.replicas: Invalid value: 0: .status.replicas accessor error: 2 is of the type string, expected int64']],
    ['a parent that is not an object', { spec: 'x', status: [1] },
      ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected map[string]interface{}'],
      ['.status.replicas: Invalid value: 0: .status.replicas accessor error: [1] is of the type []interface {}, expected map[string]interface{}',
        '.status.labelSelector: Invalid value: "": .status.labelSelector accessor error: [1] is of the type []interface {}, expected map[string]interface{}']],
    ['a selector that is not a string', { status: { labelSelector: { a: 'b' } } }, [],
      ['.status.labelSelector: Invalid value: "": .status.labelSelector accessor error: map[a:b] is of the type map[string]interface {}, expected string']],
    ['a null parent is absent', { spec: null }, [], []],
  ];
  for (const [name, o, spec, status] of rows) {
    it(name, () => {
      assert.deepEqual(validateScaleSpec(o, scale).map(renderCause), spec);
      assert.deepEqual(validateScaleStatus(o, scale).map(renderCause), status);
    });
  }
  it('no scale subresource, no checks', () => {
    assert.deepEqual(validateScaleSpec({ spec: { replicas: -1 } }, undefined), []);
    assert.deepEqual(validateScaleStatus({ status: { replicas: -1 } }, undefined), []);
  });
});
