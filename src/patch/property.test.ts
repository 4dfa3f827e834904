// Property tests over a few hundred random documents (seeded; a failure names its seed):
// (a) applyMergePatch(a, createMergePatch(a, b)) equals b when neither holds nulls;
// (b) a random change set written as a JSON patch and as a merge patch gives what a
//     direct computation of the change gives; (c) with no schema knowledge a strategic
//     merge patch without directives is a JSON merge patch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type JsonObject, type JsonValue, deepCopy, isObject } from './json.js';
import { type JsonPatchOp, applyJsonPatch } from './jsonpatch.js';
import { applyMergePatch, createMergePatch } from './mergepatch.js';
import { formatPointer } from './pointer.js';
import { applyStrategic } from './strategic.js';
import { Rng, mutate, randomObject, randomValue } from './testkit.js';

const RUNS = 300;

describe('merge patch round trip', () => {
  it(`createMergePatch then applyMergePatch reproduces the target (${RUNS} seeds)`, () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const rng = new Rng(seed);
      const a = randomObject(rng, 4, false);
      const b = mutate(rng, a, 4);
      const patch = createMergePatch(a, b);
      assert.deepEqual(applyMergePatch(a, patch), b, `seed ${seed}`);
      assert.deepEqual(createMergePatch(b, b), {}, `seed ${seed}: no change, empty patch`);
    }
  });
});

interface Change {
  readonly path: string[];
  readonly value?: JsonValue; // absent: delete
}

/** Random changes at disjoint object members of `doc` (no change is inside another). */
function randomChanges(rng: Rng, doc: JsonObject, at: string[] = []): Change[] {
  const out: Change[] = [];
  for (const k of Object.keys(doc)) {
    const v = doc[k]!;
    const roll = rng.int(5);
    if (roll === 0) out.push({ path: [...at, k] });
    else if (roll === 1) {
      let value = randomValue(rng, 2, false);
      while (isObject(v) && isObject(value)) value = randomValue(rng, 2, false); // an object over an object would merge
      out.push({ path: [...at, k], value });
    } else if (roll === 2 && isObject(v)) out.push(...randomChanges(rng, v, [...at, k]));
  }
  if (rng.chance(0.5)) {
    const k = `new${rng.int(3)}`;
    if (!(k in doc)) out.push({ path: [...at, k], value: randomValue(rng, 2, false) });
  }
  return out;
}

function reference(doc: JsonObject, changes: readonly Change[]): JsonObject {
  const out = deepCopy(doc);
  for (const c of changes) {
    let parent = out;
    for (const t of c.path.slice(0, -1)) parent = parent[t] as JsonObject;
    const last = c.path[c.path.length - 1]!;
    if (c.value === undefined) delete parent[last];
    else parent[last] = deepCopy(c.value);
  }
  return out;
}

function asJsonPatch(doc: JsonObject, changes: readonly Change[]): JsonPatchOp[] {
  return changes.map((c) => {
    let parent: JsonObject = doc;
    for (const t of c.path.slice(0, -1)) parent = parent[t] as JsonObject;
    const exists = Object.prototype.hasOwnProperty.call(parent, c.path[c.path.length - 1]!);
    const path = formatPointer(c.path);
    if (c.value === undefined) return { op: 'remove', path };
    return { op: exists ? 'replace' : 'add', path, value: c.value };
  });
}

function asMergePatch(changes: readonly Change[]): JsonObject {
  const patch: JsonObject = {};
  for (const c of changes) {
    let node = patch;
    for (const t of c.path.slice(0, -1)) node = (node[t] ??= {}) as JsonObject;
    node[c.path[c.path.length - 1]!] = c.value === undefined ? null : c.value;
  }
  return patch;
}

describe('one change, three patch types', () => {
  it(`JSON patch and merge patch agree with the reference (${RUNS} seeds)`, () => {
    let nonTrivial = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const rng = new Rng(seed * 7919);
      const doc = randomObject(rng, 4, false);
      const changes = randomChanges(rng, doc);
      if (changes.length > 0) nonTrivial++;
      const want = reference(doc, changes);
      assert.deepEqual(applyJsonPatch(doc, asJsonPatch(doc, changes)), want, `seed ${seed}: JSON patch`);
      const merge = asMergePatch(changes);
      assert.deepEqual(applyMergePatch(doc, merge), want, `seed ${seed}: merge patch`);
      assert.deepEqual(applyStrategic(doc, merge, undefined), want, `seed ${seed}: schemaless strategic merge patch`);
    }
    assert.ok(nonTrivial > RUNS / 2, `most runs change something (${nonTrivial})`);
  });
});
