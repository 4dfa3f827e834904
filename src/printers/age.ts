// Kubernetes' human-readable durations (apimachinery util/duration, v1.27) and
// the "Age"-style cells built from timestamps.
//
//   HumanDuration:       <-1s "<invalid>" · <0 "0s" · <2m "Ns" · <10m "MmSs" · <3h "Mm"
//                        · <8h "HhMm" · <48h "Hh" · <8d "DdHh" · <2y "Dd" · <8y "YyDd" · else "Yy"
//   ShortHumanDuration:  <-1s "<invalid>" · <0 "0s" · <60s "Ns" · <60m "Mm" · <24h "Hh" · <365d "Dd" · else "Yy"
//
// Whole units are truncated toward zero, as Go's integer conversions do; a zero
// (or missing) timestamp prints `<unknown>`.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's int(x): truncation toward zero. */
const trunc = (x: number): number => Math.trunc(x);

/** A duration (milliseconds) with ~2–3 significant figures: `5s`, `3m20s`, `10m`, `2d3h`, `3y45d`. */
export function humanDuration(ms: number): string {
  const seconds = trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** A duration (milliseconds) with one unit: `45s`, `3m`, `5h`, `12d`, `2y`. */
export function shortHumanDuration(ms: number): string {
  const seconds = trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = trunc(ms / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = trunc(ms / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${trunc(hours / 24)}d`;
  return `${trunc(hours / 24 / 365)}y`;
}

/** Milliseconds since the epoch of an RFC 3339 timestamp; undefined when missing, zero or unparsable. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return undefined;
  // Go's zero time (0001-01-01T00:00:00Z) counts as unset.
  return value.startsWith('0001-01-01T00:00:00') ? undefined : t;
}

/** Time elapsed since a timestamp (translateTimestampSince): `<unknown>` when unset. */
export function since(timestamp: unknown, now: number): string {
  const t = parseTime(timestamp);
  return t === undefined ? '<unknown>' : humanDuration(now - t);
}

/** Time left until a timestamp (translateTimestampUntil): `<unknown>` when unset. */
export function until(timestamp: unknown, now: number): string {
  const t = parseTime(timestamp);
  return t === undefined ? '<unknown>' : humanDuration(t - now);
}
