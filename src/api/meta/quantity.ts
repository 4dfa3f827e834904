// Resource quantities (apimachinery pkg/api/resource): parsing, comparison and
// the canonical text Kubernetes prints (Quantity.String()). Values are held
// exactly as a count of nano-units (bigint), which is the finest precision a
// Quantity keeps; finer values round up, as Kubernetes rounds them.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const QUANTITY_RE = /^([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;
const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };

const POW10: bigint[] = Array.from({ length: 64 }, (_, i) => 10n ** BigInt(i));
const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n);
const NANOS_PER_UNIT = 1_000_000_000n;

/** Parsed quantities by text: the same few texts ("100m", "128Mi") recur in every pod. Results are immutable. */
const parsed = new Map<string, Quantity | undefined>();
const PARSED_MAX = 4096;

/** Parses a quantity string; undefined when it is not one. */
export function parseQuantity(text: string): Quantity | undefined {
  // one lookup for a hit (texts that are no quantity are remembered as undefined: has() tells them apart)
  const hit = parsed.get(text);
  if (hit !== undefined || parsed.has(text)) return hit;
  const q = parseUncached(text);
  keep(text, q && Object.freeze(q));
  return q;
}

/** Remembers a text's parse (frozen), forgetting every other once PARSED_MAX are kept. */
function keep(text: string, q: Quantity | undefined): void {
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(text, q);
}

function parseUncached(text: string): Quantity | undefined {
  const m = QUANTITY_RE.exec(text.trim() === text ? text : '');
  if (!m) return undefined;
  const [, sign, num, suffix = ''] = m as unknown as [string, string, string, string | undefined];
  const [intPart = '', fracPart = ''] = num.split('.');
  const digits = BigInt((intPart + fracPart) || '0');
  // value = digits × 10^-frac × factor
  let format: QuantityFormat = 'DecimalSI';
  let num10 = -fracPart.length;
  let mul = 1n;
  if (suffix in BINARY_SUFFIX) {
    format = 'BinarySI';
    mul = 1024n ** BigInt(BINARY_SUFFIX[suffix]!);
  } else if (suffix in DECIMAL_SUFFIX) {
    num10 += DECIMAL_SUFFIX[suffix]!;
  } else {
    format = 'DecimalExponent';
    num10 += Number(suffix.slice(1));
  }
  // nanos = digits × mul × 10^(num10 + 9), rounded up when fractional
  const e = num10 + 9;
  let nanos: bigint;
  if (e >= 0) nanos = digits * mul * pow10(e);
  else {
    const whole = digits * mul;
    const d = pow10(-e);
    nanos = whole / d + (whole % d === 0n ? 0n : 1n);
  }
  return { nanos: sign === '-' ? -nanos : nanos, format };
}

/** -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

const SI_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };

/** Quantity.String(): the canonical form (e.g. "1500m", "1k", "1Gi"). */
export function formatQuantity(q: Quantity): string {
  const text = canonicalText(q);
  remember(text, q);
  return text;
}

/**
 * A text just formatted is often parsed again soon (a quota's status.used is
 * validated when it is written, and read back by the quota's evaluators), and
 * a fresh text is the slow case of parseQuantity. It parses to the same value
 * — the canonical text is exact — and to the same format whenever its suffix
 * says that format; only then is it remembered as `q`.
 */
function remember(text: string, q: Quantity): void {
  if (parsed.has(text) || formatOfSuffix(text) !== q.format) return;
  keep(text, Object.isFrozen(q) ? q : Object.freeze({ nanos: q.nanos, format: q.format }));
}

/** The format parseQuantity gives a canonical text (DecimalSI unless it ends in a binary suffix or an exponent). */
function formatOfSuffix(text: string): QuantityFormat {
  const last = text.charCodeAt(text.length - 1);
  if (last === 0x69 /* i */) return 'BinarySI';
  return /[eE][+-]?[0-9]+$/.test(text) ? 'DecimalExponent' : 'DecimalSI';
}

function canonicalText(q: Quantity): string {
  const neg = q.nanos < 0n;
  const abs = neg ? -q.nanos : q.nanos;
  const sign = neg ? '-' : '';
  if (abs === 0n) return '0';
  const unit = NANOS_PER_UNIT;
  if (q.format === 'BinarySI' && abs >= 1024n * unit && abs % unit === 0n) {
    let v = abs / unit;
    let k = 0;
    while (k < 6 && v % 1024n === 0n) {
      v /= 1024n;
      k++;
    }
    return `${sign}${v}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][k]}`;
  }
  let exp = -9;
  let v = abs;
  while (exp < 18 && v % 1000n === 0n) {
    v /= 1000n;
    exp += 3;
  }
  if (q.format === 'DecimalExponent') return `${sign}${v}${exp === 0 ? '' : `e${exp}`}`;
  return `${sign}${v}${SI_SUFFIX[exp]}`;
}

/** parseQuantity without its memo (tests compare the two). */
export function parseQuantityFresh(text: string): Quantity | undefined {
  return parseUncached(text);
}

/** A quantity given as a string or a number (JSON may carry either). */
export function quantityOf(v: unknown): Quantity | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return parseQuantity(String(v));
  if (typeof v === 'string') return parseQuantity(v);
  return undefined;
}
