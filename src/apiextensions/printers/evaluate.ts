// Evaluating a parsed JSONPath template over decoded JSON, as client-go's
// JSONPath.FindResults does: each top-level node of the template gives one
// list of results. Values keep Go's types in mind: JSON whole numbers are
// int64, other numbers float64, and a float literal (`1.0`) stays a float —
// comparisons between ints and floats fail as Go's template package makes
// them fail ("incompatible types for comparison"). Map values are visited in
// document order (Go's order is random; printed maps sort their keys).
// `{range …}…{end}` repeats its body for each value the range walks.
import { goJSON } from '../../conversion/gojson.js';
import { isObject } from '../../schema/model.js';
import { goFloat, goNumberText, goPlainV, goSharpV, goTypeOf } from '../objects/gofmt.js';
import type { ListNode, Node, ParamsEntry } from './jsonpath.js';

/** A float literal of the template (`2.0`): Go's float64 even when whole. */
export class FloatLiteral {
  constructor(readonly value: number) {}
}

/** An evaluation failure with client-go's message. */
export class JSONPathEvalError extends Error {
  override readonly name = 'JSONPathEvalError';
}

const fail = (msg: string): never => {
  throw new JSONPathEvalError(msg);
};

export interface EvalOptions {
  /** Missing fields give no result instead of an error (AllowMissingKeys(true)). */
  readonly allowMissingKeys?: boolean;
}

/** A template's top-level nodes with `{range …}` … `{end}` blocks gathered. */
type Item = { readonly kind: 'node'; readonly node: Node } | { readonly kind: 'range'; readonly head: ListNode; readonly body: Item[] };

const hasIdentifier = (n: Node, name: string): boolean => n.type === 'list' && n.nodes.some((c) => c.type === 'identifier' && c.name === name);

/** Groups range blocks; an `end` outside any range stays a node (its evaluation fails as client-go's does). */
function blocks(nodes: readonly Node[]): Item[] {
  const top: Item[] = [];
  const stack: Item[][] = [top];
  for (const n of nodes) {
    const cur = stack[stack.length - 1]!;
    if (hasIdentifier(n, 'range')) {
      const body: Item[] = [];
      cur.push({ kind: 'range', head: n as ListNode, body });
      stack.push(body);
    } else if (hasIdentifier(n, 'end') && stack.length > 1) {
      stack.pop();
    } else {
      cur.push({ kind: 'node', node: n });
    }
  }
  return top;
}

/**
 * The results of each top-level node of the template; a range block gives
 * its body's results once per value the range walks (FindResults).
 */
export function findResults(root: ListNode, data: unknown, opts: EvalOptions = {}): unknown[][] {
  const ev = new Evaluator(opts.allowMissingKeys === true);
  const run = (items: readonly Item[], value: unknown): unknown[][] => {
    const out: unknown[][] = [];
    for (const item of items) {
      if (item.kind === 'node') {
        out.push(ev.walk([value], item.node));
        continue;
      }
      const values = ev.walk([value], { type: 'list', nodes: item.head.nodes.filter((c) => !(c.type === 'identifier' && c.name === 'range')) });
      // An empty range still walks its body (with no value), so its errors surface; the output is dropped.
      if (values.length === 0) run(item.body, null);
      for (const v of values) out.push(...run(item.body, v));
    }
    return out;
  };
  return run(blocks(root.nodes), data);
}

const keysOf = (o: Record<string, unknown>): string[] => Object.keys(o).sort();
const utf8 = new TextEncoder();

/** Children of a map, slice or string (wildcard and recursive descent); undefined for other values. */
function children(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  if (typeof v === 'string') return [...utf8.encode(v)];
  return undefined;
}

class Evaluator {
  constructor(private readonly allowMissingKeys: boolean) {}

  walk(input: unknown[], node: Node): unknown[] {
    switch (node.type) {
      case 'list': return this.list(input, node);
      case 'text': return [node.text];
      case 'field': return this.field(input, node.name);
      case 'array': return this.array(input, node.params);
      case 'filter': return this.filter(input, node);
      case 'int': return input.map(() => node.value);
      case 'float': return input.map(() => new FloatLiteral(node.value));
      case 'bool': return input.map(() => node.value);
      case 'wildcard': return input.flatMap((v) => children(v) ?? []);
      case 'recursive': return this.recursive(input);
      case 'union': return node.nodes.flatMap((l) => this.list(input, l));
      case 'identifier':
        if (node.name === 'end') return fail('not in range, nothing to end');
        return fail(node.name === 'range' ? 'range is only supported at the start of an action' : `unrecognized identifier ${node.name}`);
    }
  }

  list(input: unknown[], l: ListNode): unknown[] {
    let cur = input;
    for (const n of l.nodes) cur = this.walk(cur, n);
    return cur;
  }

  private field(input: unknown[], name: string): unknown[] {
    const out: unknown[] = [];
    for (const v of input) if (isObject(v) && Object.prototype.hasOwnProperty.call(v, name)) out.push(v[name]);
    if (out.length === 0 && input.length > 0 && !this.allowMissingKeys) fail(`${name} is not found`);
    return out;
  }

  private array(input: unknown[], p: readonly [ParamsEntry, ParamsEntry, ParamsEntry]): unknown[] {
    const out: unknown[] = [];
    for (const v of input) {
      if (v === null || v === undefined) continue;
      if (!Array.isArray(v)) fail(`${goTypeOf(v)} is not array or slice`);
      const arr = v as unknown[];
      const len = arr.length;
      let start = p[0].known ? p[0].value : 0;
      if (start < 0) start += len;
      let end = p[1].known ? p[1].value : len;
      if (end < 0 || (end === 0 && p[1].derived)) end += len;
      if (end === start) return out;
      if (start >= len || start < 0) fail(`array index out of bounds: index ${start}, length ${len}`);
      if (end > len || end < 0) fail(`array index out of bounds: index ${end - 1}, length ${len}`);
      if (start > end) fail(`starting index ${start} is greater than ending index ${end}`);
      let step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) fail('step must be > 0');
        step = p[2].value;
      }
      const slice = arr.slice(start, end);
      for (let i = 0; i < slice.length; i += step) out.push(slice[i]);
    }
    return out;
  }

  private recursive(input: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (const v of input) {
      if (v === null || v === undefined) continue;
      const kids = children(v);
      if (kids && kids.length > 0) {
        out.push(v);
        out.push(...this.recursive(kids));
      }
    }
    return out;
  }

  private filter(input: unknown[], node: Extract<Node, { type: 'filter' }>): unknown[] {
    const out: unknown[] = [];
    for (const v of input) {
      if (!Array.isArray(v)) fail(`${goPlainV(v)} is not array or slice and cannot be filtered`);
      for (const item of v as unknown[]) {
        if (node.operator === 'exists') {
          let lefts: unknown[] = [];
          try {
            lefts = this.list([item], node.left);
          } catch {
            // exists ignores evaluation errors
          }
          if (lefts.length > 0) out.push(item);
          continue;
        }
        const lefts = this.list([item], node.left);
        if (lefts.length === 0) continue;
        if (lefts.length > 1) fail('can only compare one element at a time');
        const rights = this.list([item], node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) fail('can only compare one element at a time');
        if (compare(node.operator, lefts[0], rights[0])) out.push(item);
      }
    }
    return out;
  }
}

type Kind = 'bool' | 'int' | 'float' | 'string';

function basicKind(v: unknown): { kind: Kind; value: number | string | boolean } {
  if (v instanceof FloatLiteral) return { kind: 'float', value: v.value };
  switch (typeof v) {
    case 'boolean': return { kind: 'bool', value: v };
    case 'string': return { kind: 'string', value: v };
    case 'number': return { kind: Number.isInteger(v) ? 'int' : 'float', value: v };
    default: return fail('invalid type for comparison');
  }
}

function equal(a: unknown, b: unknown): boolean {
  const x = basicKind(a);
  const y = basicKind(b);
  if (x.kind !== y.kind) fail('incompatible types for comparison');
  return x.value === y.value;
}

function less(a: unknown, b: unknown): boolean {
  const x = basicKind(a);
  const y = basicKind(b);
  if (x.kind !== y.kind) fail('incompatible types for comparison');
  if (x.kind === 'bool') fail('invalid type for comparison');
  return x.value < y.value;
}

function compare(op: string, left: unknown, right: unknown): boolean {
  switch (op) {
    case '<': return less(left, right);
    case '>': return !(less(left, right) || equal(left, right));
    case '==': return equal(left, right);
    case '!=': return !equal(left, right);
    case '<=': return less(left, right) || equal(left, right);
    case '>=': return !less(left, right);
    case '=~': {
      if (typeof right !== 'string' || typeof left !== 'string') {
        fail(`regexp search only support string now but getting pattern: ${goSharpV(right)}, data: ${goSharpV(left)}`);
      }
      try {
        return new RegExp(right as string).test(left as string);
      } catch (e) {
        return fail(`error parsing regexp: ${(e as Error).message}`);
      }
    }
    default: return fail(`unrecognized filter operator ${op}`);
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v instanceof FloatLiteral) return v.value;
  if (isObject(v)) return Object.fromEntries(keysOf(v).map((k) => [k, sortKeys(v[k])]));
  return v;
}

/**
 * One result as PrintResults writes it: maps and lists as Go's JSON (sorted
 * keys, HTML-safe escapes), other values with fmt.Print (`<no value>` for null).
 */
export function printValue(v: unknown): string {
  if (Array.isArray(v) || isObject(v)) return goJSON(sortKeys(v));
  if (v === null || v === undefined) return '<no value>';
  if (v instanceof FloatLiteral) return goFloat(v.value);
  if (typeof v === 'number') return goNumberText(v);
  return String(v);
}

/** JSONPath.Execute: each node's results printed, separated by spaces. */
export function executeTemplate(root: ListNode, data: unknown, opts: EvalOptions = {}): string {
  return findResults(root, data, opts).map((rs) => rs.map(printValue).join(' ')).join('');
}
