// The CronJob controller (kube's pkg/controller/cronjob v2, v1.27): Jobs made
// from a CronJob's template on its cron schedule in its time zone, with
// concurrencyPolicy, suspend, startingDeadlineSeconds and history limits.
// controller.ts is the sync; schedule.ts parses schedules and finds start
// times, zone.ts reads wall time in IANA zones, times.ts finds the start owed.
export { CronJobController, startCronJobController, CRONJOB_CONTROLLER, SCHEDULED_TIMESTAMP, jobName, type CronJobControllerOptions } from './controller.js';
export { parseSchedule, nextTime, ScheduleError, type Schedule } from './schedule.js';
