// The scenario runner for apply tests, in structured-merge-diff's style
// ({ ops: [apply(…), update(…), forceApply(…)], object, managed }).
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { JsonValue, Schema } from '../schema/model.js';
import type { FieldsV1 } from './fieldpath.js';
import { applyObject, updateObject } from './merge.js';
import { ApplyConflictError, type Conflict } from './managed.js';

export type Op =
  | { op: 'apply'; manager: string; yaml: string; force: boolean; apiVersion?: string; conflicts?: string[] }
  | { op: 'update'; manager: string; yaml: string; apiVersion?: string };

export const apply = (manager: string, yaml: string, opts: { apiVersion?: string; conflicts?: string[] } = {}): Op => ({ op: 'apply', manager, yaml, force: false, ...opts });
export const forceApply = (manager: string, yaml: string, opts: { apiVersion?: string } = {}): Op => ({ op: 'apply', manager, yaml, force: true, ...opts });
export const update = (manager: string, yaml: string, opts: { apiVersion?: string } = {}): Op => ({ op: 'update', manager, yaml, ...opts });

export interface Scenario {
  ops: Op[];
  /** The expected object (YAML), without metadata.managedFields. */
  object: string;
  /** The expected FieldsV1 per `manager/operation` (e.g. "a/Apply"), in entry order. */
  managed: Record<string, FieldsV1>;
  /** The starting live object (YAML), if any. */
  live?: string;
}

const y = (text: string): JsonValue => (parse(text) ?? {}) as JsonValue;

/** Runs a scenario with a fixed clock; conflicting ops must declare their expected conflicts. */
export function runScenario(schema: Schema | undefined, sc: Scenario): void {
  let obj: { [k: string]: JsonValue } = (sc.live ? y(sc.live) : {}) as { [k: string]: JsonValue };
  let exists = sc.live !== undefined;
  let tick = 0;
  const now = (): string => new Date(Date.UTC(2024, 0, 1, 0, 0, tick++)).toISOString().replace('.000Z', 'Z');
  for (const [i, op] of sc.ops.entries()) {
    const apiVersion = op.apiVersion ?? 'v1';
    if (op.op === 'apply') {
      try {
        const r = applyObject({ live: exists ? obj : undefined, config: y(op.yaml) as { [k: string]: JsonValue }, manager: op.manager, apiVersion, force: op.force, schema, now });
        assert.equal(op.conflicts, undefined, `op ${i}: expected conflicts ${JSON.stringify(op.conflicts)}`);
        obj = r.object;
        exists = true;
      } catch (e) {
        if (!(e instanceof ApplyConflictError) || op.conflicts === undefined) throw e;
        assert.deepEqual(e.conflicts.map(describeConflict), op.conflicts, `op ${i}: conflicts`);
      }
    } else {
      const r = updateObject({ live: exists ? obj : undefined, updated: y(op.yaml) as { [k: string]: JsonValue }, manager: op.manager, apiVersion, schema, now });
      obj = r.object;
      exists = true;
    }
  }
  const { managedFields, ...rest } = (obj.metadata ?? {}) as { [k: string]: JsonValue };
  const got = { ...obj, metadata: rest };
  if (Object.keys(rest).length === 0) delete (got as { metadata?: unknown }).metadata;
  assert.deepEqual(got, y(sc.object), 'object');
  const entries = (managedFields ?? []) as { manager: string; operation: string; fieldsV1: FieldsV1 }[];
  const gotManaged: Record<string, FieldsV1> = {};
  for (const e of entries) gotManaged[`${e.manager}/${e.operation}`] = e.fieldsV1;
  assert.deepEqual(gotManaged, sc.managed, 'managed');
  assert.deepEqual(Object.keys(gotManaged), Object.keys(sc.managed), 'managed entry order');
}

export const describeConflict = (c: Conflict): string => `${c.manager.manager}: ${c.pathString}`;
