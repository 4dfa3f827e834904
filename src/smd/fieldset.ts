// FieldSet: a set of paths as a trie (structured-merge-diff's `fieldpath.Set`).
// Each node maps an element's canonical spelling (its FieldsV1 key) to an
// entry: the element, whether the path ending there is a member, and the
// subtree beneath it. Invariant: every entry is a member or has a non-empty
// subtree.
//
// Sets are built by mutation (insert, addMember, setChild) and are read-only
// from then on: the algebra (union, intersection, difference, ...) freezes
// its operands and its result, and shares whatever it can — a result may be
// one of its operands or share their subtrees; nothing copies a trie to
// return it unchanged. Mutating a frozen set throws. Frozen sets remember
// their element order and (in fieldsv1.ts) their encoding.
import { compareElements, comparePaths, pathToString, serializeElement, type Path, type PathElement } from './path.js';

export interface Entry {
  readonly pe: PathElement;
  member: boolean;
  child: FieldSet | undefined;
}

interface SortedEntry extends Entry {
  readonly key: string;
}

export class FieldSet {
  /** Spelling → entry. Entries are shared between frozen sets and only changed in sets being built. */
  private m: Map<string, Entry>;
  private frozen = false;
  private order: SortedEntry[] | undefined;
  /** Memo slots for fieldsv1.ts and typed.ts (valid because the set is frozen). */
  memo: { encoded?: object; encodedSelf?: object; bytes?: Buffer; hash?: number; schema?: unknown; reconciled?: FieldSet; size?: number } | undefined;

  constructor(m?: Map<string, Entry>) {
    this.m = m ?? new Map();
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Makes the set and its subtrees read-only (they may then be shared); returns it. */
  freeze(): this {
    if (this.frozen) return this;
    this.frozen = true;
    for (const e of this.m.values()) e.child?.freeze();
    return this;
  }

  isFrozen(): boolean {
    return this.frozen;
  }

  private writable(): void {
    if (this.frozen) throw new Error('FieldSet: a set is read-only once used in set algebra, encoded or decoded');
    this.order = undefined;
  }

  /** Adds a path (an empty path is ignored, as in structured-merge-diff). */
  insert(path: Path): this {
    if (path.length === 0) return this;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.childAt(serializeElement(path[i]!), path[i]!);
    node.memberAt(serializeElement(path[path.length - 1]!), path[path.length - 1]!);
    return this;
  }

  /** Builder: the subtree at `key` (created when missing). */
  childAt(key: string, pe: PathElement): FieldSet {
    this.writable();
    const e = this.m.get(key);
    if (e === undefined) {
      const c = new FieldSet();
      this.m.set(key, { pe, member: false, child: c });
      return c;
    }
    if (e.child === undefined) e.child = new FieldSet();
    return e.child;
  }

  /** Builder: makes `key` a member. */
  memberAt(key: string, pe: PathElement): void {
    this.writable();
    const e = this.m.get(key);
    if (e === undefined) this.m.set(key, { pe, member: true, child: undefined });
    else e.member = true;
  }

  /** Builder: restores the invariant at `key` after a walk that may have added nothing beneath it. */
  settle(key: string): void {
    const e = this.m.get(key);
    if (e === undefined || e.child === undefined || e.child.m.size > 0) return;
    this.writable();
    if (e.member) e.child = undefined;
    else this.m.delete(key);
  }

  /** Builder: whether `key` is a member already. */
  isMemberKey(key: string): boolean {
    return this.m.get(key)?.member === true;
  }

  /** Builder: whether `key` has a subtree. */
  hasChildKey(key: string): boolean {
    return this.m.get(key)?.child !== undefined;
  }

  /** The subtree under the element spelled `key` (frozen; empty when there is none). */
  childByKey(key: string): FieldSet {
    const c = this.m.get(key)?.child;
    return c === undefined ? EMPTY : c.freeze();
  }

  empty(): boolean {
    return this.m.size === 0;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.m.get(serializeElement(path[i]!))?.child;
    return node !== undefined && node.m.get(serializeElement(path[path.length - 1]!))?.member === true;
  }

  /** Whether pe is a member at this level. */
  hasMember(pe: PathElement): boolean {
    return this.isMemberKey(serializeElement(pe));
  }

  /** The subtree under pe (empty when there is none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.childByKey(serializeElement(pe));
  }

  /** Entries at this level in element order (memoized once frozen). */
  sorted(): readonly SortedEntry[] {
    if (this.order !== undefined) return this.order;
    const out: SortedEntry[] = [];
    for (const [key, e] of this.m) out.push({ key, pe: e.pe, member: e.member, child: e.child });
    out.sort((a, b) => compareElements(a.pe, b.pe));
    if (this.frozen) this.order = out;
    return out;
  }

  /** Members at this level, in order. */
  memberElements(): PathElement[] {
    return this.sorted().filter((e) => e.member).map((e) => e.pe);
  }

  /** Children at this level, in order. */
  childEntries(): { pe: PathElement; set: FieldSet }[] {
    return this.sorted().filter((e) => e.child !== undefined).map((e) => ({ pe: e.pe, set: e.child!.freeze() }));
  }

  /** Every member path, in order (a node before its descendants). */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (s: FieldSet, prefix: PathElement[]): void => {
      for (const e of s.sorted()) {
        if (e.member) out.push([...prefix, e.pe]);
        if (e.child) walk(e.child, [...prefix, e.pe]);
      }
    };
    walk(this, []);
    return out.sort(comparePaths);
  }

  size(): number {
    if (this.memo?.size !== undefined) return this.memo.size;
    let n = 0;
    for (const e of this.m.values()) n += (e.member ? 1 : 0) + (e.child ? e.child.size() : 0);
    if (this.frozen) (this.memo ??= {}).size = n;
    return n;
  }

  /** A deep, writable copy. */
  copy(): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.m) out.m.set(k, { pe: e.pe, member: e.member, child: e.child?.copy() });
    return out;
  }

  /** Paths in either set. */
  union(other: FieldSet): FieldSet {
    this.freeze();
    other.freeze();
    return union(this, other);
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    this.freeze();
    other.freeze();
    return intersection(this, other);
  }

  /** Members of this set that are not members of other (children are compared node by node). */
  difference(other: FieldSet): FieldSet {
    this.freeze();
    other.freeze();
    return difference(this, other, false);
  }

  /** Like difference, but a member of other also removes everything beneath it. */
  recursiveDifference(other: FieldSet): FieldSet {
    this.freeze();
    other.freeze();
    return difference(this, other, true);
  }

  /** Whether every member of this set is a member of other. */
  isSubsetOf(other: FieldSet): boolean {
    if (this === other || this.m.size === 0) return true;
    for (const [k, e] of this.m) {
      const o = other.m.get(k);
      if (o === undefined || (e.member && !o.member)) return false;
      if (e.child !== undefined && (o.child === undefined || !e.child.isSubsetOf(o.child))) return false;
    }
    return true;
  }

  /** Only the members that have no children (the leaves of the trie). */
  leaves(): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.m) {
      const l = e.child?.leaves();
      const member = e.member && e.child === undefined;
      if (member || (l && !l.empty())) out.m.set(k, { pe: e.pe, member, child: l && !l.empty() ? l : undefined });
    }
    return out.freeze();
  }

  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.m.size !== other.m.size) return false;
    for (const [k, e] of this.m) {
      const o = other.m.get(k);
      if (o === undefined || o.member !== e.member) return false;
      if (e.child !== o.child && (e.child === undefined || o.child === undefined || !e.child.equals(o.child))) return false;
    }
    return true;
  }

  /** Builder: sets the subtree under pe (an empty set removes it; a member stays a member). */
  setChild(pe: PathElement, set: FieldSet): void {
    this.setChildAt(serializeElement(pe), pe, set);
  }

  /** Builder: setChild with the element's spelling. */
  setChildAt(k: string, pe: PathElement, set: FieldSet): void {
    this.writable();
    const e = this.m.get(k);
    if (set.empty()) {
      if (e?.member) e.child = undefined;
      else this.m.delete(k);
    } else if (e) e.child = set;
    else this.m.set(k, { pe, member: false, child: set });
  }

  /** Builder: adds a member at this level. */
  addMember(pe: PathElement): void {
    this.memberAt(serializeElement(pe), pe);
  }

  toString(): string {
    return this.paths().map(pathToString).join('\n');
  }

  /** @internal The entries, for the algebra below and the walks in typed.ts/fieldsv1.ts. */
  static entries(s: FieldSet): Map<string, Entry> {
    return s.m;
  }
}

export const EMPTY = new FieldSet().freeze();

const node = (m: Map<string, Entry>): FieldSet => (m.size === 0 ? EMPTY : new FieldSet(m).freeze());
const entries = FieldSet.entries;

function union(a: FieldSet, b: FieldSet): FieldSet {
  if (a === b) return a;
  let big = entries(a);
  let small = entries(b);
  if (small.size === 0) return a;
  if (big.size === 0) return b;
  let result = a;
  if (small.size > big.size) {
    [big, small] = [small, big];
    result = b;
  }
  let out: Map<string, Entry> | undefined;
  for (const [k, s] of small) {
    const g = big.get(k);
    let e: Entry;
    if (g === undefined) e = s;
    else {
      const member = g.member || s.member;
      const child = s.child === undefined ? g.child : g.child === undefined ? s.child : union(g.child, s.child);
      if (member === g.member && child === g.child) continue;
      e = member === s.member && child === s.child ? s : { pe: g.pe, member, child };
    }
    out ??= new Map(big);
    out.set(k, e);
  }
  return out ? node(out) : result;
}

function intersection(a: FieldSet, b: FieldSet): FieldSet {
  if (a === b) return a;
  const ma = entries(a);
  const mb = entries(b);
  if (ma.size === 0) return a;
  if (mb.size === 0) return b;
  const [small, big] = ma.size <= mb.size ? [ma, mb] : [mb, ma];
  const out = new Map<string, Entry>();
  let sameAsA = ma.size <= mb.size;
  for (const [k, s] of small) {
    const g = big.get(k);
    if (g === undefined) {
      sameAsA = false;
      continue;
    }
    const ea = small === ma ? s : g;
    const eb = small === ma ? g : s;
    const member = ea.member && eb.member;
    let child = ea.child !== undefined && eb.child !== undefined ? intersection(ea.child, eb.child) : undefined;
    if (child !== undefined && entries(child).size === 0) child = undefined;
    if (!member && child === undefined) {
      sameAsA = false;
      continue;
    }
    if (member === ea.member && child === ea.child) out.set(k, ea);
    else {
      sameAsA = false;
      out.set(k, { pe: ea.pe, member, child });
    }
  }
  return sameAsA && out.size === ma.size ? a : node(out);
}

/** a − b; `recursive`: a member of b removes a's whole subtree there. Returns `a` when nothing is removed. */
function difference(a: FieldSet, b: FieldSet, recursive: boolean): FieldSet {
  const ma = entries(a);
  const mb = entries(b);
  if (ma.size === 0 || mb.size === 0) return a;
  if (a === b) return EMPTY;
  let out: Map<string, Entry> | undefined;
  const visit = (k: string, e: Entry, o: Entry): void => {
    let member = e.member;
    let child = e.child;
    if (recursive && o.member) {
      member = false;
      child = undefined;
    } else {
      if (o.member) member = false;
      if (child !== undefined && o.child !== undefined) {
        child = difference(child, o.child, recursive);
        if (entries(child).size === 0) child = undefined;
      }
    }
    if (member === e.member && child === e.child) return;
    out ??= new Map(ma);
    if (!member && child === undefined) out.delete(k);
    else out.set(k, { pe: e.pe, member, child });
  };
  if (ma.size <= mb.size) {
    for (const [k, e] of ma) {
      const o = mb.get(k);
      if (o !== undefined) visit(k, e, o);
    }
  } else {
    for (const [k, o] of mb) {
      const e = ma.get(k);
      if (e !== undefined) visit(k, e, o);
    }
  }
  return out ? node(out) : a;
}
