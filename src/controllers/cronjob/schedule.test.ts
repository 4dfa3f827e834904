import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextTime, parseSchedule, ScheduleError } from './schedule.js';
import { rfc3339In } from './zone.js';

const T = (s: string) => Date.parse(s);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z'));

describe('nextTime', () => {
  const cases: { schedule: string; after: string; zone?: string; want: (string | undefined)[] }[] = [
    { schedule: '*/15 * * * *', after: '2026-03-01T10:07:30Z', want: ['2026-03-01T10:15:00Z', '2026-03-01T10:30:00Z', '2026-03-01T10:45:00Z'] },
    { schedule: '*/15 * * * *', after: '2026-03-01T10:15:00Z', want: ['2026-03-01T10:30:00Z'] },
    { schedule: '0 * * * *', after: '2026-03-01T23:59:59Z', want: ['2026-03-02T00:00:00Z'] },
    { schedule: '@hourly', after: '2026-03-01T10:00:00Z', want: ['2026-03-01T11:00:00Z', '2026-03-01T12:00:00Z'] },
    { schedule: '@daily', after: '2026-12-31T12:00:00Z', want: ['2027-01-01T00:00:00Z'] },
    { schedule: '@weekly', after: '2026-11-27T00:00:00Z', want: ['2026-11-29T00:00:00Z', '2026-12-06T00:00:00Z'] },
    { schedule: '@monthly', after: '2026-01-31T00:00:00Z', want: ['2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'] },
    { schedule: '@yearly', after: '2026-06-01T00:00:00Z', want: ['2027-01-01T00:00:00Z'] },
    { schedule: '30 9 * * mon-fri', after: '2026-11-27T10:00:00Z', want: ['2026-11-30T09:30:00Z', '2026-12-01T09:30:00Z'] },
    { schedule: '0 0 1,15 * *', after: '2026-02-10T00:00:00Z', want: ['2026-02-15T00:00:00Z', '2026-03-01T00:00:00Z'] },
    // both day fields restricted: either matches (the 13th, or a Friday)
    { schedule: '0 0 13 * 5', after: '2026-11-01T00:00:00Z', want: ['2026-11-06T00:00:00Z', '2026-11-13T00:00:00Z', '2026-11-20T00:00:00Z'] },
    { schedule: '0 0 29 feb *', after: '2026-01-01T00:00:00Z', want: ['2028-02-29T00:00:00Z'] },
    { schedule: '0 0 30 2 *', after: '2026-01-01T00:00:00Z', want: [undefined] },
    { schedule: '5-10/5 1 * * *', after: '2026-01-01T00:00:00Z', want: ['2026-01-01T01:05:00Z', '2026-01-01T01:10:00Z', '2026-01-02T01:05:00Z'] },
    { schedule: '@every 90s', after: '2026-01-01T00:00:00.500Z', want: ['2026-01-01T00:01:30Z', '2026-01-01T00:03:00Z'] },
    // time zones: 09:00 in New York is 14:00Z in winter and 13:00Z in summer
    { schedule: '0 9 * * *', zone: 'America/New_York', after: '2026-03-07T15:00:00Z', want: ['2026-03-08T13:00:00Z', '2026-03-09T13:00:00Z'] },
    { schedule: '0 9 * * *', zone: 'America/New_York', after: '2026-01-10T00:00:00Z', want: ['2026-01-10T14:00:00Z'] },
    { schedule: 'CRON_TZ=Asia/Kolkata 30 6 * * *', after: '2026-05-01T00:00:00Z', want: ['2026-05-01T01:00:00Z'] },
    { schedule: 'TZ=Asia/Tokyo 0 0 * * *', zone: 'America/New_York', after: '2026-05-01T00:00:00Z', want: ['2026-05-01T15:00:00Z'] },
    // 02:30 does not exist on the spring-forward day in New York: no start that day (as robfig/cron)
    { schedule: '30 2 * * *', zone: 'America/New_York', after: '2026-03-08T05:00:00Z', want: ['2026-03-09T06:30:00Z'] },
    // 01:30 happens twice when DST ends: both, then the next day
    { schedule: '*/20 1 * * *', zone: 'America/New_York', after: '2026-11-01T05:30:00Z', want: ['2026-11-01T05:40:00Z', '2026-11-01T06:00:00Z', '2026-11-01T06:20:00Z', '2026-11-01T06:40:00Z', '2026-11-02T06:00:00Z'] },
    { schedule: '30 1 * * *', zone: 'America/New_York', after: '2026-11-01T04:00:00Z', want: ['2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z', '2026-11-02T06:30:00Z'] },
  ];
  for (const c of cases) {
    it(`${c.schedule}${c.zone ? ` in ${c.zone}` : ''} after ${c.after}`, () => {
      const s = parseSchedule(c.schedule);
      const got: (string | undefined)[] = [];
      let t: number | undefined = T(c.after);
      for (let i = 0; i < c.want.length; i++) {
        t = t === undefined ? undefined : nextTime(s, t, c.zone ?? 'UTC');
        got.push(iso(t));
      }
      assert.deepEqual(got, c.want);
    });
  }
});

describe('parseSchedule errors (robfig/cron messages)', () => {
  const cases: [string, string][] = [
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['61 * * * *', 'end of range (61) above maximum (59): 61'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['TZ=Mars/Olympus * * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
  ];
  for (const [spec, message] of cases) {
    it(spec, () => assert.throws(() => parseSchedule(spec), (e: unknown) => e instanceof ScheduleError && e.message === message));
  }
});

describe('rfc3339In', () => {
  const cases: [string, string | undefined, string][] = [
    ['2026-11-27T09:00:00Z', 'UTC', '2026-11-27T09:00:00Z'],
    ['2026-11-27T09:00:00Z', 'Europe/Berlin', '2026-11-27T10:00:00+01:00'],
    ['2026-07-01T09:00:00Z', 'America/Los_Angeles', '2026-07-01T02:00:00-07:00'],
    ['2026-07-01T09:00:00Z', 'Asia/Kathmandu', '2026-07-01T14:45:00+05:45'],
  ];
  for (const [at, tz, want] of cases) it(`${at} in ${tz}`, () => assert.equal(rfc3339In(T(at), tz), want));
});
