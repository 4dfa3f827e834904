// Number formatting as Go's strconv/fmt print float64 values: string(double)
// is `%g` (strconv 'g', shortest), durations print seconds with 'f' shortest,
// and error messages print values with `%v`.

/** Shortest round-trip decimal digits of a finite non-zero |x| and the
 * decimal exponent of the first digit (x = 0.d1d2… × 10^(exp+1)). */
function shortestDigits(x: number): { digits: string; exp: number } {
  const s = Math.abs(x).toExponential(); // shortest digits, e.g. "1.2345e+2"
  const e = s.indexOf('e');
  const mant = s.slice(0, e);
  const digits = mant.length > 1 ? mant[0] + mant.slice(2) : mant;
  return { digits, exp: Number(s.slice(e + 1)) };
}

function nonFinite(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  return undefined;
}

const sign = (x: number): string => (x < 0 || Object.is(x, -0) ? '-' : '');

function expSuffix(exp: number): string {
  const a = Math.abs(exp);
  return (exp < 0 ? 'e-' : 'e+') + (a < 10 ? '0' + a : String(a));
}

/** Go's strconv.FormatFloat(x, 'f', -1, 64). */
export function formatFloatF(x: number): string {
  const nf = nonFinite(x);
  if (nf !== undefined) return nf;
  if (x === 0) return sign(x) + '0';
  const { digits, exp } = shortestDigits(x);
  return sign(x) + placeDigits(digits, exp);
}

function placeDigits(digits: string, exp: number): string {
  const point = exp + 1; // digits before the decimal point
  if (point <= 0) return '0.' + '0'.repeat(-point) + digits;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return digits.slice(0, point) + '.' + digits.slice(point);
}

/** Go's strconv.FormatFloat(x, 'g', -1, 64), which is also fmt's `%g`/`%v`. */
export function formatFloatG(x: number): string {
  const nf = nonFinite(x);
  if (nf !== undefined) return nf;
  if (x === 0) return sign(x) + '0';
  const { digits, exp } = shortestDigits(x);
  // Shortest %g uses the exponent form when exp < -4 or exp >= 6 (Go uses
  // precision 6 for this decision when printing the shortest digits).
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    return sign(x) + mant + expSuffix(exp);
  }
  return sign(x) + placeDigits(digits, exp);
}

/** The exact decimal value of a finite |x|: digits × 10^exp10. */
function exactDecimal(x: number): { digits: string; exp10: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = hi >>> 20;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  if (m === 0n) return { digits: '0', exp10: 0 };
  if (e >= 0) return { digits: (m << BigInt(e)).toString(), exp10: 0 };
  // m × 2^e = m × 5^-e × 10^e
  return { digits: (m * 5n ** BigInt(-e)).toString(), exp10: e };
}

/** The first `keep` digits of a digit string, rounded half to even on the
 * digits that follow (as Go's strconv rounds the exact binary value). */
function roundDigits(digits: string, keep: number): bigint {
  if (keep >= digits.length) return BigInt(digits) * 10n ** BigInt(keep - digits.length);
  if (keep < 0) return 0n;
  const head = keep === 0 ? 0n : BigInt(digits.slice(0, keep));
  const first = digits.charCodeAt(keep) - 48;
  if (first < 5) return head;
  if (first > 5) return head + 1n;
  for (let i = keep + 1; i < digits.length; i++) if (digits[i] !== '0') return head + 1n;
  return head % 2n === 1n ? head + 1n : head;
}

/** Go's strconv.FormatFloat(x, 'e', prec, 64) (fmt `%.Ne`). */
export function formatFloatE(x: number, prec: number): string {
  const nf = nonFinite(x);
  if (nf !== undefined) return nf;
  if (x === 0) return sign(x) + '0' + (prec > 0 ? '.' + '0'.repeat(prec) : '') + 'e+00';
  const { digits, exp10 } = exactDecimal(x);
  let exp = digits.length + exp10 - 1;
  let n = roundDigits(digits, prec + 1).toString();
  if (n.length > prec + 1) {
    n = n.slice(0, prec + 1);
    exp++;
  }
  const mant = prec > 0 ? n[0] + '.' + n.slice(1) : n;
  return sign(x) + mant + expSuffix(exp);
}

/** Go's strconv.FormatFloat(x, 'f', prec, 64) (fmt `%.Nf`): exact decimal
 * rounding, half to even, as Go. */
export function formatFloatFixed(x: number, prec: number): string {
  const nf = nonFinite(x);
  if (nf !== undefined) return nf;
  const { digits, exp10 } = exactDecimal(x);
  const n = roundDigits(digits, digits.length + exp10 + prec).toString().padStart(prec + 1, '0');
  const int = n.slice(0, n.length - prec);
  return sign(x) + int + (prec > 0 ? '.' + n.slice(n.length - prec) : '');
}
