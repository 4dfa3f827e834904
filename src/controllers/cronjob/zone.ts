// Wall-clock time in an IANA time zone through Intl (what Go's time.Location
// gives the cron library): the wall fields of an instant, the zone's offset
// then, an instant from wall fields, and RFC 3339 text with the offset.
// `undefined` is the process's local zone (kube: the controller manager's).

const formatters = new Map<string, Intl.DateTimeFormat>();

let local: string | undefined;
/** The process's zone, read once (an Intl.DateTimeFormat costs about a millisecond to make). */
export const localZone = (): string => (local ??= Intl.DateTimeFormat().resolvedOptions().timeZone);

/** Whether Intl knows the zone (Go's time.LoadLocation succeeding). */
export function knownZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall time of an instant in the zone, as ms since the epoch read as UTC (whole seconds). */
export function wallOf(instant: number, tz: string | undefined): number {
  const zone = tz ?? localZone();
  if (zone === 'UTC' || zone === 'Etc/UTC') return Math.floor(instant / 1000) * 1000;
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(instant))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The zone's offset from UTC at an instant, in ms. */
export const offsetAt = (instant: number, tz: string | undefined): number => wallOf(instant, tz) - Math.floor(instant / 1000) * 1000;

/**
 * The instants a wall time names in the zone, ascending: none for a time a
 * DST change skips, two for one it repeats.
 */
export function instantsOf(wall: number, tz: string | undefined): number[] {
  const around = wall - offsetAt(wall, tz);
  const offsets = new Set([offsetAt(around - 3 * 3_600_000, tz), offsetAt(around, tz), offsetAt(around + 3 * 3_600_000, tz)]);
  return [...new Set([...offsets].map((o) => wall - o))].filter((t) => wallOf(t, tz) === wall).sort((a, b) => a - b);
}

/** Go's time.RFC3339 of an instant in the zone: "Z" for a zero offset, else ±hh:mm. */
export function rfc3339In(instant: number, tz: string | undefined): string {
  const off = offsetAt(instant, tz);
  const wall = new Date(wallOf(instant, tz)).toISOString().replace(/\.\d{3}Z$/, '');
  if (off === 0) return `${wall}Z`;
  const m = Math.abs(off) / 60_000;
  return `${wall}${off < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}
