// Every property of every registered schema has a protobuf field number
// (Kubernetes' generated.proto numbers, written into our schemas), numbers
// are unique within each message (embedded Go structs counting as their own
// message), and each kind encodes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registeredKinds, schemaFor } from '../api/schemas.js';
import { isObject, type Schema } from '../schema/model.js';
import { encodeMessage } from './codec.js';
import { typeMeta } from '../schema/common.js';
import { toSchema } from '../schema/dsl.js';

/**
 * The one kind of property with no number: TypeMeta (apiVersion, kind) is not
 * in the message, the envelope carries it — also where a kind is embedded in
 * another (StatefulSet's volumeClaimTemplates, Eviction's deleteOptions).
 */
const TYPE_META = new Set([toSchema(typeMeta.apiVersion), toSchema(typeMeta.kind)]);

function walk(s: Schema, path: string[], seen: Set<Schema>, out: { missing: string[]; duplicates: string[] }): void {
  if (seen.has(s)) return;
  seen.add(s);
  if (s.items) walk(s.items, [...path, '[]'], seen, out);
  if (isObject(s.additionalProperties)) walk(s.additionalProperties as Schema, [...path, '{}'], seen, out);
  if (!s.properties) return;
  const used = new Map<string, string>();
  for (const [name, p] of Object.entries(s.properties)) {
    if (p.proto === undefined) {
      if (!TYPE_META.has(p)) out.missing.push([...path, name].join('.'));
    } else {
      const key = `${(p.protoIn ?? []).join('/')}:${p.proto}`;
      if (used.has(key)) out.duplicates.push(`${[...path, name].join('.')} and ${used.get(key)} share ${key}`);
      used.set(key, name);
    }
    walk(p, [...path, name], seen, out);
  }
}

describe('protobuf field numbers', () => {
  const kinds = registeredKinds();
  it('covers the registered kinds', () => assert.ok(kinds.length > 60));
  for (const { group, version, kind } of kinds) {
    it(`${group || 'core'}/${version} ${kind}: every property numbered, no number used twice`, () => {
      const s = schemaFor(group, version, kind)!;
      const out = { missing: [] as string[], duplicates: [] as string[] };
      walk(s, [], new Set(), out);
      assert.deepEqual(out, { missing: [], duplicates: [] });
      assert.ok(encodeMessage(s, { metadata: { name: 'x' } }).length > 0);
    });
  }
});
