// kube-scheduler v1.27's default profile in the server: see scheduler.ts for
// the loop, queue.ts for the scheduling queue, cache.ts for the nodes and
// assumed pods, profile.ts/build.ts for the plugins of a profile,
// plugins/ for the filters and scores, preemption.ts for DefaultPreemption,
// fiterror.ts for the FailedScheduling message, config.ts for the
// KubeSchedulerConfiguration file.
export { Scheduler, startScheduler, SCHEDULER_USER, type SchedulerOptions } from './scheduler.js';
export { readSchedulerConfig, parseSchedulerConfig, SchedulerConfigError, DEFAULT_SCHEDULER_CONFIG, type SchedulerConfig } from './config.js';
