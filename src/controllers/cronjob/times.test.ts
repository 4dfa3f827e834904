import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSchedule } from './schedule.js';
import { mostRecentScheduleTime, type MostRecent, type ScheduleState } from './times.js';
import { jobName, rfc1123z } from './controller.js';

const T = (s: string) => Date.parse(s);

describe('mostRecentScheduleTime', () => {
  const cases: { name: string; schedule: string; state: ScheduleState; now: string; want: MostRecent }[] = [
    { name: 'before the first start', schedule: '0 * * * *', state: { created: T('2026-01-01T10:05:00Z') }, now: '2026-01-01T10:59:59Z', want: { kind: 'none' } },
    { name: 'the first start is due', schedule: '0 * * * *', state: { created: T('2026-01-01T10:05:00Z') }, now: '2026-01-01T11:00:00Z', want: { kind: 'due', time: T('2026-01-01T11:00:00Z'), missed: 1 } },
    {
      name: 'the last made start is not owed again', schedule: '0 * * * *', state: { created: T('2026-01-01T10:05:00Z'), lastScheduleTime: T('2026-01-01T11:00:00Z') },
      now: '2026-01-01T11:30:00Z', want: { kind: 'none' },
    },
    {
      name: 'missed starts: the latest is owed', schedule: '0 * * * *', state: { created: T('2026-01-01T10:05:00Z') }, now: '2026-01-01T15:10:00Z',
      want: { kind: 'due', time: T('2026-01-01T15:00:00Z'), missed: 5 },
    },
    {
      name: 'an irregular schedule (weekdays): the latest real start', schedule: '0 9 * * 1-5', state: { created: T('2026-11-26T00:00:00Z') }, now: '2026-11-30T12:00:00Z',
      want: { kind: 'due', time: T('2026-11-30T09:00:00Z'), missed: 3 },
    },
    {
      name: 'startingDeadlineSeconds bounds how far back starts are owed', schedule: '* * * * *', state: { created: T('2026-01-01T00:00:00Z'), startingDeadlineSeconds: 120 },
      now: '2026-01-02T00:00:30Z', want: { kind: 'due', time: T('2026-01-02T00:00:00Z'), missed: 2 },
    },
    {
      name: 'more than 100 missed starts', schedule: '* * * * *', state: { created: T('2026-01-01T00:00:30Z') }, now: '2026-01-01T05:00:10Z',
      want: { kind: 'due', time: T('2026-01-01T05:00:00Z'), missed: 101 },
    },
    { name: 'a schedule that never comes', schedule: '0 0 30 2 *', state: { created: T('2026-01-01T00:00:00Z') }, now: '2026-06-01T00:00:00Z', want: { kind: 'invalid', message: 'time difference between two schedules is less than 1 second' } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(mostRecentScheduleTime(c.state, parseSchedule(c.schedule), T(c.now), 'UTC'), c.want));
});

describe('names and times in Job and event texts', () => {
  it('jobName is the scheduled minute since the epoch', () => assert.equal(jobName('hello', T('2026-11-27T09:00:00Z')), 'hello-29929500'));
  it('rfc1123z', () => assert.equal(rfc1123z(T('2026-11-27T09:05:03Z')), 'Fri, 27 Nov 2026 09:05:03 +0000'));
});
