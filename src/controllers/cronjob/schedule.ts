// Cron schedules as kube's CronJob controller reads them (robfig/cron v3's
// ParseStandard): five fields (minute hour day-of-month month day-of-week)
// with lists, ranges, steps and month/day names, the @yearly…@hourly
// descriptors, @every <duration>, and an optional TZ=/CRON_TZ= prefix. The day
// fields combine as cron does: when either is `*` both must match, otherwise
// either. `nextTime` is the first start strictly after t, searched in the
// zone's wall time (the library gives up after five years: undefined). As the
// library walks real time, a start in the hour a DST change skips does not
// happen, and one in the hour it repeats happens twice.
import { cronScheduleError } from '../../api/batch/v1/validation.js';
import { instantsOf, knownZone, offsetAt, wallOf } from './zone.js';

export class ScheduleError extends Error {}

interface Field {
  readonly values: ReadonlySet<number>;
  /** The field was `*` or `?` (robfig's starBit), which changes how the day fields combine. */
  readonly star: boolean;
}

export type Schedule =
  | { readonly kind: 'cron'; readonly tz?: string; readonly minute: Field; readonly hour: Field; readonly dom: Field; readonly month: Field; readonly dow: Field }
  | { readonly kind: 'every'; readonly tz?: string; readonly everyMs: number };

const BOUNDS = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 6]] as const;
const NAMES: (Record<string, number> | undefined)[] = [
  undefined, undefined, undefined,
  Object.fromEntries(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map((m, i) => [m, i + 1])),
  Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d, i) => [d, i])),
];
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};
const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function field(text: string, i: number): Field {
  const [min, max] = BOUNDS[i]!;
  const values = new Set<number>();
  let star = false;
  const num = (s: string) => NAMES[i]?.[s.toLowerCase()] ?? Number(s);
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    let start: number;
    let end: number;
    let partStar = false;
    if (range === '*' || range === '?') {
      [start, end, partStar] = [min, max, true];
    } else {
      const [lo, hi] = range.split('-') as [string, string | undefined];
      start = num(lo);
      end = hi === undefined ? (stepText !== undefined ? max : start) : num(hi);
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step > 1) partStar = false;
    for (let v = start; v <= end; v += step) values.add(v);
    star ||= partStar;
  }
  return { values, star };
}

function durationMs(text: string): number {
  let ms = 0;
  for (const m of text.matchAll(/([0-9]*(?:\.[0-9]*)?)(ns|us|µs|ms|s|m|h)/g)) ms += Number(m[1]) * UNITS[m[2]!]!;
  return ms;
}

/** The schedule of a spec, or a ScheduleError with the library's message. */
export function parseSchedule(spec: string): Schedule {
  const err = cronScheduleError(spec);
  if (err !== undefined) throw new ScheduleError(err);
  let rest = spec;
  let tz: string | undefined;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const sp = rest.indexOf(' ');
    const end = sp < 0 ? rest.length : sp;
    tz = rest.slice(rest.indexOf('=') + 1, end);
    if (tz === 'Local') tz = undefined;
    else if (tz !== 'UTC' && !knownZone(tz)) throw new ScheduleError(`provided bad location ${tz}: unknown time zone ${tz}`);
    rest = rest.slice(end).trim();
  }
  if (rest.startsWith('@every ')) {
    // robfig's Every: under a second is a second; fractions of a second are dropped
    const ms = durationMs(rest.slice('@every '.length));
    return { kind: 'every', ...(tz ? { tz } : {}), everyMs: Math.max(1000, Math.floor(ms / 1000) * 1000) };
  }
  const fields = (DESCRIPTORS[rest] ?? rest).split(/\s+/).filter((f) => f !== '');
  const [minute, hour, dom, month, dow] = fields.map(field) as [Field, Field, Field, Field, Field];
  return { kind: 'cron', ...(tz ? { tz } : {}), minute, hour, dom, month, dow };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function dayMatches(s: Extract<Schedule, { kind: 'cron' }>, wall: Date): boolean {
  const dom = s.dom.values.has(wall.getUTCDate());
  const dow = s.dow.values.has(wall.getUTCDay());
  return s.dom.star || s.dow.star ? dom && dow : dom || dow;
}

/** The first wall time from `wall` on that the fields match (undefined past `stop`). */
function nextWall(s: Extract<Schedule, { kind: 'cron' }>, wall: number, stop: number): number | undefined {
  while (wall <= stop) {
    const d = new Date(wall);
    if (!s.month.values.has(d.getUTCMonth() + 1)) wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    else if (!dayMatches(s, d)) wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + DAY;
    else if (!s.hour.values.has(d.getUTCHours())) wall = Math.floor(wall / HOUR) * HOUR + HOUR;
    else if (!s.minute.values.has(d.getUTCMinutes())) wall += MINUTE;
    else return wall;
  }
  return undefined;
}

/**
 * The first start strictly after `after` (ms since the epoch), read in `zone`
 * unless the schedule names its own; undefined when none within five years.
 */
export function nextTime(s: Schedule, after: number, zone?: string): number | undefined {
  const tz = s.tz ?? zone;
  if (s.kind === 'every') return Math.floor(after / 1000) * 1000 + s.everyMs;
  const now = Math.floor(wallOf(after, tz) / MINUTE) * MINUTE;
  const stop = Date.UTC(new Date(now).getUTCFullYear() + 6, 0, 1) - MINUTE;
  let best: number | undefined;
  // the hour before, when the offset is about to change: a wall time the zone repeats may come again after `after`
  const repeats = offsetAt(after - 3 * HOUR, tz) !== offsetAt(after + 3 * HOUR, tz);
  for (let w = repeats ? nextWall(s, now - HOUR, now) : undefined; w !== undefined; w = nextWall(s, w + MINUTE, now)) {
    for (const t of instantsOf(w, tz)) if (t > after && (best === undefined || t < best)) best = t;
  }
  for (let w = nextWall(s, now + MINUTE, stop); w !== undefined; w = nextWall(s, w + MINUTE, stop)) {
    const t = instantsOf(w, tz).find((x) => x > after);
    if (t !== undefined) return best === undefined || t < best ? t : best;
  }
  return best;
}
