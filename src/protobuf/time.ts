// meta/v1 Time and MicroTime on the wire: {seconds, nanos} since the Unix
// epoch. JSON spells Time as RFC 3339 in UTC with whole seconds, MicroTime
// with six fraction digits.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/** Seconds and nanoseconds of an RFC 3339 timestamp, or undefined when it is not one. */
export function encodeTime(text: string): { seconds: number; nanos: number } | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone![0] === '-' ? -1 : 1;
    ms -= sign * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6))) * 60_000;
  }
  const nanos = frac ? Number(frac.slice(0, 9).padEnd(9, '0')) : 0;
  return { seconds: Math.floor(ms / 1000), nanos };
}

/** The JSON spelling of a time: whole seconds for Time, microseconds for MicroTime. */
export function decodeTime(seconds: number, nanos: number, micro: boolean): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (!micro) return `${base}Z`;
  return `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}
