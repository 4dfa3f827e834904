// batch/v1 validation: Job and CronJob causes, and the cron parser's errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import type { FieldError } from '../../meta/field.js';
import { cronScheduleError, validateCronJob, validateJob, validateJobUpdate } from './validation.js';

type O = { [k: string]: unknown };
const podTemplate = (labels: O, restartPolicy = 'Never'): O => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'i', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }], restartPolicy, dnsPolicy: 'ClusterFirst' },
});
const job = (spec: O = {}): O => ({ metadata: { name: 'j' }, spec: { parallelism: 1, completions: 1, backoffLimit: 6, completionMode: 'NonIndexed', selector: { matchLabels: { 'controller-uid': 'u' } }, template: podTemplate({ 'controller-uid': 'u' }), ...spec } });
const cron = (spec: O = {}): O => ({ metadata: { name: 'c' }, spec: { schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', jobTemplate: { spec: { template: podTemplate({}, 'OnFailure') } }, ...spec } });
const rows = (list: [string, () => FieldError[], string[]][]) => {
  for (const [name, errs, want] of list) it(name, () => assert.deepEqual(errs().map(renderCause), want));
};

describe('Job', () => {
  rows([
    ['valid', () => validateJob(job()), []],
    ['parallelism and completions ≥ 0', () => validateJob(job({ parallelism: -1, completions: -2 })), ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0', 'spec.completions: Invalid value: -2: must be greater than or equal to 0']],
    ['restartPolicy Always', () => validateJob(job({ template: podTemplate({ 'controller-uid': 'u' }, 'Always') })), ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['completionMode', () => validateJob(job({ completionMode: 'Sometimes' })), ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']],
    ['Indexed needs completions', () => validateJob(job({ completionMode: 'Indexed', completions: undefined })), ['spec.completions: Required value: when completion mode is Indexed']],
    ['selector required', () => validateJob(job({ selector: undefined })), ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"controller-uid":"u"}: `selector` does not match template `labels`']],
    ['completions immutable (NonIndexed)', () => validateJobUpdate(job({ completions: 3 }), job()), ['spec.completions: Invalid value: 3: field is immutable']],
  ]);
});

describe('CronJob', () => {
  rows([
    ['valid', () => validateCronJob(cron()), []],
    ['@hourly', () => validateCronJob(cron({ schedule: '@hourly' })), []],
    ['bad schedule', () => validateCronJob(cron({ schedule: '61 * * * *' })), ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']],
    ['schedule required', () => validateCronJob(cron({ schedule: '' })), ['spec.schedule: Required value']],
    ['TZ in schedule with timeZone', () => validateCronJob(cron({ schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' })), ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule']],
    ['timeZone unknown', () => validateCronJob(cron({ timeZone: 'Mars/Olympus' })), ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']],
    ['timeZone empty', () => validateCronJob(cron({ timeZone: '' })), ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string']],
    ['concurrencyPolicy', () => validateCronJob(cron({ concurrencyPolicy: 'Sometimes' })), ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']],
    ['name ≤ 52', () => validateCronJob({ ...cron(), metadata: { name: 'c'.repeat(53) } }), [`metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`]],
  ]);
  it('cron parser errors', () => {
    assert.equal(cronScheduleError('* * * *'), 'expected exactly 5 fields, found 4: [* * * *]');
    assert.equal(cronScheduleError('@sometimes'), 'unrecognized descriptor: @sometimes');
    assert.equal(cronScheduleError('x * * * *'), 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    assert.equal(cronScheduleError('5-1 * * * *'), 'beginning of range (5) beyond end of range (1): 5-1');
    assert.equal(cronScheduleError('0 0 * JAN-mar MON'), undefined);
    assert.equal(cronScheduleError('@every 1h30m'), undefined);
  });
});
