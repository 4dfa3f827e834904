// merge and compare: walks over two values at once (either may be absent),
// structured-merge-diff's merge (keep right-hand side) and compare.
//
// At a leaf (scalar, atomic node, both-empty containers, kinds that differ)
// merge keeps rhs (else lhs); granular lists merge by item key/value (lhs
// order, then new rhs items), granular maps by key (lhs order, then new
// keys). compare reports, of lhs → rhs, the leaves added, removed and
// modified, and the granular containers added or removed.
//
// mergeApply is an apply's one walk: the merge, the comparison of lhs with
// the merged result, and a check of rhs's field set. A merge only adds and
// overwrites, so that comparison is what the merge walk sees — added where
// lhs is absent, modified where a leaf of rhs differs from lhs's, never
// removed. The walks keep the current path on a stack of frames, and make
// path elements only for an error or a path they record.
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { fieldEntry, FieldSet, type Entry } from './fieldpath.js';
import { cloneJson, emptyList, emptyMap, jsonEqual, type JsonObject } from './json.js';
import { childNode, declared, duplicate, elementNode, frameElement, frameKey, isLeaf, ItemFrame, itemKey, itemNode, resolve, topology, type Frame, type ListNode, type MapNode, type Node } from './topology.js';

export interface Comparison {
  added: FieldSet;
  removed: FieldSet;
  modified: FieldSet;
}

export function isSame(c: Comparison): boolean {
  return c.added.empty() && c.removed.empty() && c.modified.empty();
}

/** The path stack and the three sets of a comparison. */
class Recorder {
  readonly stack: Frame[] = [];
  readonly c: Comparison = { added: new FieldSet(), removed: new FieldSet(), modified: new FieldSet() };

  /** Adds the current path to a set (the root, an empty path, is never a member). */
  record(set: FieldSet): void {
    const st = this.stack;
    const n = st.length;
    if (n === 0) return;
    let node = set;
    for (let i = 0; i < n - 1; i++) node = node.childAt(frameKey(st[i]!), frameElement(st[i]!));
    node.memberAt(frameKey(st[n - 1]!), frameElement(st[n - 1]!));
  }

  /** The frames of rhs's items, rejecting duplicates. */
  rhsItems(n: ListNode, items: JsonValue[]): { frames: ItemFrame[]; byKey: Map<string, JsonValue> } {
    const frames: ItemFrame[] = [];
    const byKey = new Map<string, JsonValue>();
    for (const item of items) {
      const f = new ItemFrame(itemKey(n, item, this.stack), n, item);
      if (byKey.has(f.key)) throw duplicate(this.stack, f);
      byKey.set(f.key, item);
      frames.push(f);
    }
    return { frames, byKey };
  }
}

/** What the field set of rhs is checked against while merging (see mergeApply). */
export interface Ownership {
  /** The set rhs should set exactly… */
  readonly expected: FieldSet;
  /** …apart from these members, which nobody owns… */
  readonly notOwned: FieldSet;
  /** …and touching nothing of these. */
  readonly ignored: FieldSet | undefined;
}

const entriesOf = FieldSet.entries;
const at = (e: Entry | undefined, key: string): Entry | undefined => (e?.child === undefined ? undefined : entriesOf(e.child).get(key));
const root = (set: FieldSet | undefined): Entry | undefined => (set === undefined ? undefined : { pe: { kind: 'field', name: '' }, member: false, child: set });

/**
 * merge; with `diff`, recording the comparison of lhs with the result; with
 * ownership, also checking whether toFieldSet(rhs) (strict) is the expected
 * set apart from members nobody owns (`owns`), or else the expected set plus
 * other members (`extra`: then toFieldSet(rhs) is expected ∪ extra). The
 * check follows toFieldSet over rhs: every member of it is expected or
 * recorded in extra, none is both expected and not owned, none ignored, none
 * hollow (a list item or map entry under which nothing is set), and every
 * expected member is there; anything it cannot follow within the merge (rhs
 * of another kind than lhs) fails it.
 */
class Merger extends Recorder {
  /** The check failed for good: toFieldSet(rhs) is not expected ∪ extra. */
  private failed: boolean;
  private owned = 0;
  private members = 0;
  /** rhs's members that are not expected (each recorded at its path). */
  readonly extra = new FieldSet();
  /** How many of them someone may own. */
  private extras = 0;

  constructor(
    private readonly diff: boolean,
    private readonly ownership?: Ownership,
  ) {
    super();
    this.failed = ownership === undefined;
  }

  /** toFieldSet(rhs) is the expected set. */
  get owns(): boolean {
    return !this.failed && this.extras === 0;
  }

  /** toFieldSet(rhs) is the expected set plus `extra`, which holds a member someone may own. */
  get ownsPlusExtra(): boolean {
    return !this.failed && this.extras > 0;
  }

  run(l: JsonValue | undefined, r: JsonValue | undefined, t: Node): JsonValue | undefined {
    const o = this.ownership;
    const out = this.walk(l, r, t, root(o?.expected), root(o?.notOwned), root(o?.ignored), false);
    if (o && this.owned !== o.expected.size()) this.failed = true;
    return out;
  }

  private leaf(l: JsonValue | undefined, r: JsonValue | undefined): JsonValue | undefined {
    if (this.diff) {
      if (l === undefined) this.record(this.c.added);
      else if (r !== undefined && !jsonEqual(l, r)) this.record(this.c.modified);
    }
    const v = r !== undefined ? r : l;
    return typeof v !== 'object' || v === null ? v : cloneJson(v);
  }

  /** Merges l and r of topology t; `e`, `sk`, `ig`: rhs's entries in the expected, not-owned and ignored sets; `member`: whether toFieldSet makes rhs a member. */
  private walk(l: JsonValue | undefined, r: JsonValue | undefined, t: Node, e: Entry | undefined, sk: Entry | undefined, ig: Entry | undefined, member: boolean): JsonValue | undefined {
    const nl = resolve(t, l);
    const nr = resolve(t, r);
    const n = r === undefined ? nl : nr;
    const track = !this.failed && r !== undefined;
    const before = this.members;
    if (track) {
      if (ig?.member) this.failed = true;
      else if (member || isLeaf(nr)) {
        this.members++;
        if (e?.member) {
          if (sk?.member) this.failed = true; // expected, yet nobody may own it
          else this.owned++;
        } else {
          // Not expected: part of toFieldSet(rhs) all the same (a member nobody owns does not spoil owns).
          this.record(this.extra);
          if (!sk?.member) this.extras++;
        }
      }
    }
    if ((l !== undefined && r !== undefined && nl.kind !== nr.kind) || isLeaf(n)) {
      if (track && !isLeaf(nr)) this.failed = true; // rhs a container the merge does not enter
      return this.leaf(l, r);
    }
    const stack = this.stack;
    let out: JsonValue | undefined;
    if (n.kind === 'list') {
      if (emptyList(l) && emptyList(r)) {
        if (track && member) this.failed = true; // a hollow member
        return this.leaf(l, r);
      }
      const rhs = this.rhsItems(n, Array.isArray(r) ? r : []);
      const lhs: ItemFrame[] = [];
      const byKeyL = new Map<string, ItemFrame>();
      if (Array.isArray(l)) {
        for (const item of l) {
          const f = new ItemFrame(itemKey(n, item, stack), n, item);
          if (byKeyL.has(f.key)) throw duplicate(stack, f);
          byKeyL.set(f.key, f);
          lhs.push(f);
        }
      }
      const items: JsonValue[] = [];
      const it = itemNode(n);
      const emit = (f: ItemFrame, lv: JsonValue | undefined, rv: JsonValue | undefined) => {
        stack.push(f);
        const m = rv !== undefined && track ? this.walk(lv, rv, it, at(e, f.key), at(sk, f.key), at(ig, f.key), true) : this.walk(lv, rv, it, undefined, undefined, undefined, false);
        stack.pop();
        if (m !== undefined) items.push(m);
      };
      // SMD's order: both lists walked together; an item only lhs has stays where it was, the
      // items rhs has come in rhs's order (each merged with its lhs counterpart).
      const done = new Set<string>();
      let li = 0;
      let ri = 0;
      while (li < lhs.length || ri < rhs.frames.length) {
        const lf = lhs[li];
        if (lf !== undefined && done.has(lf.key)) {
          li++;
          continue;
        }
        const rf = rhs.frames[ri];
        if (lf !== undefined && (rf === undefined || lf.key === rf.key || !rhs.byKey.has(lf.key))) {
          emit(lf, lf.item, rhs.byKey.get(lf.key));
          done.add(lf.key);
          li++;
          if (rf !== undefined && lf.key === rf.key) ri++;
          continue;
        }
        const other = byKeyL.get(rf!.key);
        emit(other ?? rf!, other?.item, rhs.byKey.get(rf!.key));
        done.add(rf!.key);
        ri++;
      }
      out = items.length > 0 ? items : undefined;
    } else {
      if (emptyMap(l) && emptyMap(r)) {
        if (track && member) this.failed = true; // a hollow member
        return this.leaf(l, r);
      }
      const lo = isObject(l) ? (l as JsonObject) : undefined;
      const ro = isObject(r) ? (r as JsonObject) : undefined;
      const obj: JsonObject = {};
      let any = false;
      if (lo !== undefined) {
        for (const k in lo) {
          const rv = ro !== undefined && Object.hasOwn(ro, k) ? ro[k] : undefined;
          stack.push(k);
          const m = rv !== undefined && track ? this.entry(n, k, lo[k], rv, e, sk, ig) : this.walk(lo[k], rv, childNode(n, k), undefined, undefined, undefined, false);
          stack.pop();
          if (m !== undefined) {
            obj[k] = m;
            any = true;
          }
        }
      }
      if (ro !== undefined) {
        for (const k in ro) {
          if (lo !== undefined && Object.hasOwn(lo, k)) continue;
          stack.push(k);
          const m = track ? this.entry(n, k, undefined, ro[k], e, sk, ig) : this.walk(undefined, ro[k], childNode(n, k), undefined, undefined, undefined, false);
          stack.pop();
          if (m !== undefined) {
            obj[k] = m;
            any = true;
          }
        }
      }
      out = any ? obj : undefined;
    }
    if (track && member && this.members === before + 1) this.failed = true; // a hollow member: nothing set beneath it
    if (this.diff && l === undefined) this.record(this.c.added);
    return out;
  }

  /** walk for the entry k of a map, following the ownership check into it. */
  private entry(n: Node, k: string, lv: JsonValue | undefined, rv: JsonValue | undefined, e: Entry | undefined, sk: Entry | undefined, ig: Entry | undefined): JsonValue | undefined {
    const d = declared(n, k);
    if (d === undefined && (n as MapNode).strict) this.failed = true;
    const key = d !== undefined ? d.key : fieldEntry(k).key;
    return this.walk(lv, rv, d !== undefined ? d.node : elementNode(n), at(e, key), at(sk, key), at(ig, key), d === undefined);
  }
}

/** Merges rhs into lhs: rhs wins at leaves; granular lists merge by key/value, granular maps by key. The result shares nothing with its inputs. */
export function merge(lhs: JsonValue | undefined, rhs: JsonValue | undefined, schema: Schema | undefined): JsonValue | undefined {
  return new Merger(false).run(lhs, rhs, topology(schema));
}

/**
 * The walk of an apply: merge(lhs, rhs), the comparison of lhs with it, and
 * whether rhs sets exactly what `ownership` expects. The comparison holds for
 * the merge as it is (before any pruning).
 */
export function mergeApply(lhs: JsonValue | undefined, rhs: JsonValue | undefined, schema: Schema | undefined, ownership: Ownership | undefined): { merged: JsonValue | undefined; comparison: Comparison; owns: boolean; extra: FieldSet | undefined } {
  const w = new Merger(true, ownership);
  const merged = w.run(lhs, rhs, topology(schema));
  return { merged, comparison: w.c, owns: w.owns, extra: w.ownsPlusExtra ? w.extra : undefined };
}

class Comparer extends Recorder {
  /** A leaf (or, with `container`, a granular node after its children) seen as lhs → rhs. */
  private seen(l: JsonValue | undefined, r: JsonValue | undefined, container: boolean): void {
    if (l === undefined) this.record(this.c.added);
    else if (r === undefined) this.record(this.c.removed);
    else if (!container && !jsonEqual(l, r)) this.record(this.c.modified);
  }

  walk(l: JsonValue | undefined, r: JsonValue | undefined, t: Node): void {
    const nl = resolve(t, l);
    const nr = resolve(t, r);
    const n = r === undefined ? nl : nr;
    if ((l !== undefined && r !== undefined && nl.kind !== nr.kind) || isLeaf(n)) return this.seen(l, r, false);
    const stack = this.stack;
    if (n.kind === 'list') {
      if (emptyList(l) && emptyList(r)) return this.seen(l, r, false);
      const rhs = this.rhsItems(n, Array.isArray(r) ? r : []);
      const seenL = new Set<string>();
      if (Array.isArray(l)) {
        for (const item of l) {
          const f = new ItemFrame(itemKey(n, item, stack), n, item);
          if (seenL.has(f.key)) throw duplicate(stack, f);
          seenL.add(f.key);
          stack.push(f);
          this.walk(item, rhs.byKey.get(f.key), itemNode(n));
          stack.pop();
        }
      }
      for (const f of rhs.frames) {
        if (seenL.has(f.key)) continue;
        stack.push(f);
        this.walk(undefined, rhs.byKey.get(f.key), itemNode(n));
        stack.pop();
      }
      return this.seen(l, r, true);
    }
    if (emptyMap(l) && emptyMap(r)) return this.seen(l, r, false);
    const lo = isObject(l) ? (l as JsonObject) : undefined;
    const ro = isObject(r) ? (r as JsonObject) : undefined;
    if (lo !== undefined) {
      for (const k in lo) {
        stack.push(k);
        this.walk(lo[k], ro !== undefined && Object.hasOwn(ro, k) ? ro[k] : undefined, childNode(n, k));
        stack.pop();
      }
    }
    if (ro !== undefined) {
      for (const k in ro) {
        if (lo !== undefined && Object.hasOwn(lo, k)) continue;
        stack.push(k);
        this.walk(undefined, ro[k], childNode(n, k));
        stack.pop();
      }
    }
    this.seen(l, r, true);
  }
}

/** Which fields of lhs rhs adds, removes or changes (granular containers appear when added or removed). */
export function compare(lhs: JsonValue | undefined, rhs: JsonValue | undefined, schema: Schema | undefined): Comparison {
  const w = new Comparer();
  w.walk(lhs, rhs, topology(schema));
  return w.c;
}
