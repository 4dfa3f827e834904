// Per-kind validation of batch/v1 (Job, CronJob) with kube-apiserver v1.27's
// paths and messages (pkg/apis/batch/validation). The cron parser reproduces
// the errors of the library Kubernetes uses (robfig/cron v3, standard 5-field
// syntax with descriptors and an optional TZ=/CRON_TZ= prefix).
import { type FieldError, type FieldPath, fieldPath, invalid, notSupported, required } from '../../meta/field.js';
import { type Obj, immutable, isObj, nonNegative, num, obj, selectorMatches, semanticEqual, str, strMap, validateLabelSelector } from '../../meta/checks.js';
import { goLabelSelector, goStringMap } from '../../meta/govalue.js';
import { type KindValidator, validatePodTemplateSpec } from '../../core/v1/validation.js';

const SPEC = fieldPath('spec');
const MAX_PARALLELISM_INDEXED = 100000;

/** validateJobSpec: the part shared by Jobs and CronJob job templates. */
function validateJobSpecCommon(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    const v = num(spec[f]);
    if (v !== undefined) errs.push(...nonNegative(v, path.child(f)));
  }
  if (typeof spec.completionMode === 'string') {
    const mode = spec.completionMode;
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (num(spec.completions) === undefined) errs.push(required(path.child('completions'), 'when completion mode is Indexed'));
      const par = num(spec.parallelism);
      if (par !== undefined && par > MAX_PARALLELISM_INDEXED) errs.push(invalid(path.child('parallelism'), par, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
    }
  }
  errs.push(...validatePodTemplateSpec(spec.template, path.child('template')));
  const rp = str(obj(obj(spec.template).spec).restartPolicy);
  const rpPath = path.child('template').child('spec').child('restartPolicy');
  if (rp === 'Always' || rp === '') errs.push(required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(notSupported(rpPath, rp, ['OnFailure', 'Never']));
  else if (isObj(spec.podFailurePolicy) && rp !== 'Never') errs.push(invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

function validateJobSpec(spec: Obj): FieldError[] {
  const errs = validateJobSpecCommon(spec, SPEC);
  if (!isObj(spec.selector)) errs.push(required(SPEC.child('selector')));
  else errs.push(...validateLabelSelector(spec.selector, SPEC.child('selector')));
  const meta = obj(obj(spec.template).metadata);
  if (!isObj(spec.selector) || !selectorMatches(spec.selector, strMap(meta.labels))) {
    errs.push(invalid(SPEC.child('template').child('metadata').child('labels'), goStringMap(meta.labels as Obj | undefined), '`selector` does not match template `labels`'));
  }
  return errs;
}

/** ValidateJob. The generated-selector checks (controller-uid labels) belong with the strategy that generates them. */
export function validateJob(job: Obj): FieldError[] {
  return validateJobSpec(obj(job.spec));
}

export function validateJobUpdate(job: Obj, old: Obj): FieldError[] {
  const spec = obj(job.spec);
  const oldSpec = obj(old.spec);
  const errs = validateJobSpec(spec);
  const indexed = spec.completionMode === 'Indexed';
  if (!indexed) errs.push(...immutable(spec.completions, oldSpec.completions, SPEC.child('completions')));
  else if (!semanticEqual(spec.completions, oldSpec.completions) && num(spec.completions) !== undefined && spec.completions !== spec.parallelism) {
    errs.push(invalid(SPEC.child('completions'), spec.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  if (!semanticEqual(spec.selector, oldSpec.selector)) errs.push(invalid(SPEC.child('selector'), goLabelSelector(spec.selector), 'field is immutable'));
  // A suspended job that never started may change its scheduling directives and template metadata.
  let oldTemplate = oldSpec.template;
  const suspendedUnstarted = spec.suspend === true && !isObj(obj(old.status).startTime);
  if (suspendedUnstarted && isObj(oldTemplate)) {
    const t = obj(spec.template);
    const ts = obj(t.spec);
    oldTemplate = {
      ...oldTemplate,
      metadata: { ...obj(oldTemplate.metadata), labels: obj(t.metadata).labels, annotations: obj(t.metadata).annotations },
      spec: { ...obj(oldTemplate.spec), nodeSelector: ts.nodeSelector, tolerations: ts.tolerations, schedulingGates: ts.schedulingGates, affinity: ts.affinity },
    };
  }
  errs.push(...immutable(spec.template, oldTemplate, SPEC.child('template')));
  errs.push(...immutable(spec.completionMode, oldSpec.completionMode, SPEC.child('completionMode')));
  errs.push(...immutable(spec.podFailurePolicy, oldSpec.podFailurePolicy, SPEC.child('podFailurePolicy')));
  return errs;
}

// ---------------------------------------------------------------- cron

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTHS.map((m, i) => [m, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAYS.map((d, i) => [d, i])) },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

class CronError extends Error {}

/** strconv.Atoi as Go reports it. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${s}`);
  return n;
}

function intOrName(s: string, b: Bounds): number {
  const named = b.names?.[s.toLowerCase()];
  return named !== undefined ? named : atoi(s);
}

function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = intOrName(lowHigh[0]!, b);
    if (lowHigh.length === 1) end = start;
    else if (lowHigh.length === 2) end = intOrName(lowHigh[1]!, b);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = atoi(rangeAndStep[1]!);
    if (lowHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

const timeZoneKnown = (tz: string): boolean => {
  if (tz === 'UTC' || tz === 'Local' || tz === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** The error cron.ParseStandard gives for a schedule, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    let spec = schedule;
    if (spec.length === 0) throw new CronError('empty spec string');
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const eq = spec.indexOf('=');
      const sp = spec.indexOf(' ');
      const end = sp < 0 ? spec.length : sp;
      const tz = spec.slice(eq + 1, end);
      if (!timeZoneKnown(tz)) throw new CronError(`provided bad location ${tz}: unknown time zone ${tz}`);
      spec = spec.slice(end).trim();
    }
    if (spec.startsWith('@')) {
      if (DESCRIPTORS.has(spec)) return undefined;
      if (spec.startsWith('@every ')) {
        const d = spec.slice('@every '.length);
        if (!/^([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/.test(d) || d === '') throw new CronError(`failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(d)}`);
        return undefined;
      }
      throw new CronError(`unrecognized descriptor: ${spec}`);
    }
    const fields = spec.split(/\s+/).filter((f) => f !== '');
    if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    fields.forEach((f, i) => {
      for (const part of f.split(',')) checkRange(part, FIELDS[i]!);
    });
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}

function validateTimeZone(tz: unknown, path: FieldPath): FieldError[] {
  if (typeof tz !== 'string') return [];
  if (tz.length === 0) return [invalid(path, tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part)) return [invalid(path, tz, `unknown time zone ${tz}`)];
  }
  const errs: FieldError[] = [];
  if (tz.toLowerCase() === 'local') errs.push(invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  else if (!timeZoneKnown(tz)) errs.push(invalid(path, tz, `unknown time zone ${tz}`));
  return errs;
}

function validateCronJobSpec(spec: Obj, oldSpec: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = str(spec.schedule);
  if (!schedule) errs.push(required(SPEC.child('schedule')));
  else {
    const e = cronScheduleError(schedule);
    if (e) errs.push(invalid(SPEC.child('schedule'), schedule, e));
    if (schedule.includes('TZ') && typeof spec.timeZone === 'string') errs.push(invalid(SPEC.child('schedule'), schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  const sds = num(spec.startingDeadlineSeconds);
  if (sds !== undefined) errs.push(...nonNegative(sds, SPEC.child('startingDeadlineSeconds')));
  if (oldSpec === undefined || oldSpec.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, SPEC.child('timeZone')));
  const cp = str(spec.concurrencyPolicy);
  if (!cp) errs.push(required(SPEC.child('concurrencyPolicy')));
  else if (!['Allow', 'Forbid', 'Replace'].includes(cp)) errs.push(notSupported(SPEC.child('concurrencyPolicy'), cp, ['Allow', 'Forbid', 'Replace']));
  const jt = obj(spec.jobTemplate);
  const jtSpec = obj(jt.spec);
  const jp = SPEC.child('jobTemplate').child('spec');
  errs.push(...validateJobSpecCommon(jtSpec, jp));
  if (isObj(jtSpec.selector)) errs.push(invalid(jp.child('selector'), goLabelSelector(jtSpec.selector), '`selector` will be auto-generated'));
  if (jtSpec.manualSelector === true) errs.push(notSupported(jp.child('manualSelector'), true, ['nil', 'false']));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const v = num(spec[f]);
    if (v !== undefined) errs.push(...nonNegative(v, SPEC.child(f)));
  }
  return errs;
}

export function validateCronJob(cj: Obj): FieldError[] {
  const errs = validateCronJobSpec(obj(cj.spec), undefined);
  const name = str(obj(cj.metadata).name);
  if (name.length > 52) errs.push(invalid(fieldPath('metadata').child('name'), name, 'must be no more than 52 characters'));
  return errs;
}

export function validateCronJobUpdate(cj: Obj, old: Obj): FieldError[] {
  return validateCronJobSpec(obj(cj.spec), obj(old.spec));
}

export function batchValidators(): Record<string, KindValidator> {
  return {
    Job: { validate: validateJob, validateUpdate: validateJobUpdate },
    CronJob: { validate: validateCronJob, validateUpdate: validateCronJobUpdate },
  };
}
