// Printers of the batch group: jobs and cron jobs (v1.27 columns: no Job
// Status and no CronJob Timezone column yet; those came in later releases).
import { humanDuration, parseTime, since } from './age.js';
import {
  NAME_COLUMN, age, arr, boolPtr, col, containerCells, formatLabelSelector, has, nameOf, num, rec, spec, status, str,
  templateContainers, workloadColumns,
} from './cells.js';
import type { Printer } from './table.js';

/** `succeeded/completions`, or `succeeded/1` (`of P` when running P > 1 pods in parallel) for a work queue. */
function completions(sp: Readonly<Record<string, unknown>>, succeeded: number): string {
  if (has(sp.completions)) return `${succeeded}/${num(sp.completions)}`;
  const parallelism = num(sp.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** Running time: until completion, else until now; '' before the job starts. */
function jobDuration(st: Readonly<Record<string, unknown>>, now: number): string {
  const start = parseTime(st.startTime);
  if (start === undefined) return '';
  const end = parseTime(st.completionTime);
  return humanDuration((end ?? now) - start);
}

export const jobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Completions', 'string', 'Pods that succeeded, out of the completions wanted.'),
    col('Duration', 'string', 'How long the job ran, or has been running.'),
    ...workloadColumns('job'),
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const st = status(o);
    const [names, images] = templateContainers(o);
    return { cells: [nameOf(o), completions(sp, num(st.succeeded)), jobDuration(st, now), age(o, now), names, images, formatLabelSelector(sp.selector)] };
  },
};

export const cronJobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Schedule', 'string', 'When jobs are started, in cron syntax.'),
    col('Suspend', 'boolean', 'Whether starting new jobs is suspended.'),
    col('Active', 'integer', 'Number of jobs running now.'),
    col('Last Schedule', 'string', 'Time since a job was last started.'),
    ...workloadColumns('cron job'),
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const st = status(o);
    const jobSpec = rec(rec(sp.jobTemplate).spec);
    const [names, images] = containerCells(rec(rec(jobSpec.template).spec).containers);
    const lastSchedule = has(st.lastScheduleTime) ? since(st.lastScheduleTime, now) : '<none>';
    return {
      cells: [nameOf(o), str(sp.schedule), boolPtr(sp.suspend), arr(st.active).length, lastSchedule, age(o, now), names, images, formatLabelSelector(jobSpec.selector)],
    };
  },
};

export const batchPrinters: Readonly<Record<string, Printer>> = { jobs: jobPrinter, cronjobs: cronJobPrinter };
