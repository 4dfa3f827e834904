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

/** Go's strconv.FormatFloat(x, 'e', prec, 64) (fmt `%.Ne`). */
export function formatFloatE(x: number, prec: number): string {
  const nf = nonFinite(x);
  if (nf !== undefined) return nf;
  const s = Math.abs(x).toExponential(Math.min(prec, 100));
  const e = s.indexOf('e');
  return sign(x) + s.slice(0, e) + expSuffix(Number(s.slice(e + 1)));
}

/** Go's strconv.FormatFloat(x, 'f', prec, 64) (fmt `%.Nf`), exact decimal
 * rounding (round half to even on the exact binary value, as Go). */
export function formatFloatFixed(x: number, prec: number): string {
  const nf = nonFinite(x);
  if (nf !== undefined) return nf;
  if (Math.abs(x) < 1e21) return sign(x) + Math.abs(x).toFixed(prec);
  // toFixed switches to exponent notation at 1e21: x is an integer there.
  const int = BigInt(Math.abs(x)).toString();
  return sign(x) + int + (prec > 0 ? '.' + '0'.repeat(prec) : '');
}
