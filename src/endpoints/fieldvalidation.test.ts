// Typed decoding of write bodies per fieldValidation: type errors, unknown and
// duplicate fields, pruning.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaFor } from '../api/schemas.js';
import { StatusError } from '../api/meta/status.js';
import { decodeTyped, type FieldValidation } from './fieldvalidation.js';

const schema = schemaFor('', 'v1', 'Pod')!;
const body = (): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', nmae: 'typo' },
  spec: { containers: [{ name: 'c', image: 'i', bogus: true }] },
});
const decode = (b: Record<string, unknown>, mode: FieldValidation, duplicates: string[] = []) => decodeTyped({ body: b, duplicates, schema, kind: 'Pod', version: 'v1', mode });
const failure = (f: () => unknown): { code?: number; message?: string } => {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return { code: e.status.code, message: e.status.message };
  }
  assert.fail('no error');
};

describe('decodeTyped', () => {
  it('Warn: one warning per unknown field, then per duplicate; unknown fields are pruned', () => {
    const b = body();
    assert.deepEqual(decode(b, 'Warn', ['metadata.name']), ['unknown field "metadata.nmae"', 'unknown field "spec.containers[0].bogus"', 'duplicate field "metadata.name"']);
    assert.deepEqual(b, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  });
  it('Ignore: no warnings, still pruned', () => {
    const b = body();
    assert.deepEqual(decode(b, 'Ignore', ['metadata.name']), []);
    assert.deepEqual(b.metadata, { name: 'p' });
  });
  it('Strict: one 400 naming every problem', () => {
    assert.deepEqual(failure(() => decode(body(), 'Strict', ['spec.containers[0].name'])), {
      code: 400,
      message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "metadata.nmae", unknown field "spec.containers[0].bogus", duplicate field "spec.containers[0].name"',
    });
  });
  it('Strict with nothing to report passes', () => {
    const b = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    assert.deepEqual(decode(b, 'Strict'), []);
  });
  it('a type error wins over unknown fields in every mode, and leaves the body as sent', () => {
    for (const mode of ['Ignore', 'Warn', 'Strict'] as const) {
      const b = body();
      (b.spec as { containers: Record<string, unknown>[] }).containers[0]!.image = 7;
      const before = JSON.stringify(b);
      assert.deepEqual(failure(() => decode(b, mode)), {
        code: 400,
        message: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string',
      });
      assert.equal(JSON.stringify(b), before);
    }
  });
  it('a strictError replaces the 400', () => {
    const err = new Error('patch');
    assert.throws(() => decodeTyped({ body: body(), duplicates: [], schema, kind: 'Pod', version: 'v1', mode: 'Strict', strictError: () => err }), (e) => e === err);
  });
  it('without a schema the body is taken as sent', () => {
    const b = body();
    assert.deepEqual(decodeTyped({ body: b, duplicates: ['x'], schema: undefined, kind: 'Thing', version: 'v1', mode: 'Strict' }), []);
    assert.deepEqual(b, body());
  });
});
