// The Job controller (kube's pkg/controller/job, v1.27): pods made from a
// Job's template until enough succeed, failures counted against backoffLimit
// with a growing delay, podFailurePolicy, activeDeadlineSeconds, Indexed
// completion, suspension, and pods tracked with the
// batch.kubernetes.io/job-tracking finalizer (status.uncountedTerminatedPods).
// controller.ts is the sync; the other files are its pure parts (pods.ts,
// failurepolicy.ts, indexes.ts, backoff.ts, conditions.ts) and its seams
// (clock.ts, requeue.ts, expectations.ts, finalizers.ts).
export { JobController, startJobController, JOB_CONTROLLER, type JobControllerOptions } from './controller.js';
export { FakeClock, realClock, type Clock } from './clock.js';
export { finishedCondition, isFinished } from './conditions.js';
