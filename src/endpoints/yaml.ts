// YAML as kube-apiserver reads and writes it. Bodies are turned into JSON by
// sigs.k8s.io/yaml over go-yaml v2, whose plain scalars resolve by YAML 1.1
// rules of its own (not the `yaml` package's 1.1 or 1.2 schemas):
//   - booleans: y Y yes Yes YES true True TRUE on On ON, and n N no No NO false False FALSE off Off OFF
//   - null: ~ null Null NULL and the empty scalar
//   - integers: Go's ParseInt with base 0 after removing '_' (0x hex, 0o and leading-0 octal, 0b binary)
//   - floats: Go's ParseFloat of what starts with a digit, a sign or '.' (so "." alone is a string)
//   - timestamps stay strings (decoding into interface{} keeps them as text); no base-60 numbers
// Writing uses the same resolution to decide which strings must be quoted, with Go's key order.
import { parse, stringify, type ScalarTag } from 'yaml';

const TRUE = ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'];
const FALSE = ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'];

const bool: ScalarTag = {
  identify: (v) => typeof v === 'boolean',
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: new RegExp(`^(?:${[...TRUE, ...FALSE].join('|')})$`),
  resolve: (s) => TRUE.includes(s),
  stringify: ({ value }) => (value ? 'true' : 'false'),
};

const nul: ScalarTag = {
  identify: (v) => v === null || v === undefined,
  default: true,
  tag: 'tag:yaml.org,2002:null',
  test: /^(?:~|null|Null|NULL)?$/,
  resolve: () => null,
  stringify: () => 'null',
};

/** Go's strconv.ParseInt(s, 0, 64) syntax, underscores already removed. */
const GO_INT = /^[-+]?(?:0[bB][01]+|0[oO]?[0-7]+|0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)$/;

function goInt(s: string): number | undefined {
  const plain = s.replace(/_/g, '');
  if (!GO_INT.test(plain)) return undefined;
  const neg = plain.startsWith('-');
  let body = plain.replace(/^[-+]/, '');
  if (/^0[0-7]/.test(body)) body = `0o${body.slice(1)}`; // Go: a leading 0 is octal
  const big = BigInt(body.toLowerCase());
  const v = neg ? -big : big;
  if (v < -(2n ** 63n) || v >= 2n ** 64n) return undefined; // neither int64 nor uint64: ParseFloat decides
  return Number(v); // as a JSON body's number (beyond 2^53 it rounds, as JSON.parse would)
}

const int: ScalarTag = {
  identify: (v) => typeof v === 'number' && Number.isInteger(v),
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: /^[-+]?[0-9][0-9_]*(?:[xXoObB][0-9a-fA-F_]+)?$/,
  resolve: (s, onError) => {
    const v = goInt(s);
    if (v !== undefined) return v;
    const f = goFloat(s);
    if (f !== undefined) return f;
    onError(`not an integer: ${s}`);
    return s;
  },
  stringify: ({ value }) => String(value),
};

/** Go's strconv.ParseFloat for decimal forms, underscores already removed; Infinity/NaN are not JSON. */
const GO_FLOAT = /^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

function goFloat(s: string): number | undefined {
  const plain = s.replace(/_/g, '');
  if (!GO_FLOAT.test(plain)) return undefined;
  const v = Number(plain);
  return Number.isFinite(v) ? v : undefined;
}

const float: ScalarTag = {
  identify: (v) => typeof v === 'number',
  default: true,
  tag: 'tag:yaml.org,2002:float',
  test: /^[-+]?(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?$/,
  resolve: (s, onError) => {
    const v = goFloat(s);
    if (v !== undefined) return v;
    onError(`not a number: ${s}`);
    return s;
  },
  stringify: ({ value }) => String(value),
};

/**
 * Plain scalars go-yaml resolves to something that is not JSON text — timestamps (kept as text
 * when decoded into interface{}), base-60 numbers (written quoted for YAML 1.1 readers), ±.inf,
 * .nan (not JSON numbers), the merge key — are read here as the strings they spell, and a string
 * that looks like one is written quoted, as go-yaml does.
 */
const textLike: ScalarTag = {
  identify: () => false,
  default: true,
  tag: 'tag:yaml.org,2002:timestamp',
  test: new RegExp(
    [
      '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$',
      '^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?$',
      '^(?:[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)|<<)$',
    ].join('|'),
  ),
  resolve: (s) => s,
};

/** The scalar resolution of go-yaml v2 (maps, sequences and strings come from the core schema). */
const goTags = (tags: unknown[]): ScalarTag[] => [
  ...(tags as ScalarTag[]).filter((t) => ['tag:yaml.org,2002:map', 'tag:yaml.org,2002:seq', 'tag:yaml.org,2002:str'].includes(t.tag)),
  nul,
  bool,
  textLike,
  int,
  float,
];

/** Parses a YAML request body as kube-apiserver does (go-yaml v2 scalars). */
export function parseGoYaml(text: string, opts: { uniqueKeys?: boolean } = {}): unknown {
  return parse(text, { schema: 'core', customTags: goTags, uniqueKeys: opts.uniqueKeys ?? true });
}

/** Writes a value as kube-apiserver's YAML: keys sorted, sequences not indented, go-yaml's quoting. */
export function stringifyGoYaml(value: unknown): string {
  return stringify(value, { schema: 'core', customTags: goTags, lineWidth: 0, sortMapEntries: true, indentSeq: false });
}
