// Job: pods run to completion, with retries, a failure policy and (when
// indexed) one completion per index.
import { bool, int32, int64, kind, LabelSelector, list, obj, ref, str, Time } from '../../../schema/index.js';
import { classicCondition, lastProbeTime, PodTemplateSpec } from '../../core/v1/index.js';

export const BATCH = 'io.k8s.api.batch.v1';

export const PodFailurePolicyOnExitCodesRequirement = obj({
  containerName: str().proto(1, { keepZero: true }).desc('The container whose exit codes are checked; every container when unset.'),
  operator: str().required().proto(2, { keepZero: true }).desc('In or NotIn: how the exit codes relate to values.'),
  values: list(int32()).set().required().proto(3).desc('The exit codes, in increasing order and without 0 for In.'),
})
  .id(`${BATCH}.PodFailurePolicyOnExitCodesRequirement`)
  .desc('A rule\'s requirement on the exit codes of a failed pod\'s containers.');

export const PodFailurePolicyOnPodConditionsPattern = obj({
  type: str().required().proto(1, { keepZero: true }).desc('The pod condition type to match.'),
  status: str().required().proto(2, { keepZero: true }).desc('The pod condition status to match; True when unset.'),
})
  .id(`${BATCH}.PodFailurePolicyOnPodConditionsPattern`)
  .desc('A pod condition a rule matches against.');

export const PodFailurePolicyRule = obj({
  action: str().required().proto(1, { keepZero: true }).desc('What to do when the rule matches: FailJob, Ignore or Count.'),
  onExitCodes: ref(PodFailurePolicyOnExitCodesRequirement).proto(2).desc('The requirement on container exit codes.'),
  onPodConditions: list(PodFailurePolicyOnPodConditionsPattern).atomic().required().proto(3).desc('Pod conditions any one of which makes the rule match.'),
})
  .id(`${BATCH}.PodFailurePolicyRule`)
  .desc('An action to take on a pod failure that meets the rule\'s requirement.');

export const PodFailurePolicy = obj({
  rules: list(PodFailurePolicyRule).atomic().required().proto(1).desc('Rules tried in order; the first that matches decides.'),
})
  .id(`${BATCH}.PodFailurePolicy`)
  .desc('How failed pods count towards a Job\'s backoff limit.');

export const JobSpec = obj({
  parallelism: int32().proto(1, { keepZero: true }).desc('The most pods to run at once.'),
  completions: int32().proto(2, { keepZero: true }).desc('How many pods must succeed; any one success completes the Job when unset.'),
  activeDeadlineSeconds: int64().proto(3, { keepZero: true }).desc('Seconds the Job may stay active before it is terminated.'),
  podFailurePolicy: ref(PodFailurePolicy).proto(11).desc('How pod failures are handled (beta, JobPodFailurePolicy).'),
  backoffLimit: int32().proto(7, { keepZero: true }).desc('Retries before the Job is marked failed; 6 when unset.'),
  selector: ref(LabelSelector).proto(4).desc('Which pods belong to the Job; normally generated.'),
  manualSelector: bool().proto(5, { keepZero: true }).desc('Whether the selector is set by hand rather than generated.'),
  template: ref(PodTemplateSpec).required().proto(6).desc('The pods to run; restartPolicy must be Never or OnFailure.'),
  ttlSecondsAfterFinished: int32().proto(8, { keepZero: true }).desc('Seconds after finishing before the Job may be deleted automatically.'),
  completionMode: str().proto(9, { keepZero: true }).desc('NonIndexed (the default) or Indexed completion tracking.'),
  suspend: bool().proto(10, { keepZero: true }).desc('Whether the Job is suspended: no pods are created, running ones are deleted.'),
})
  .id(`${BATCH}.JobSpec`)
  .desc('The desired behaviour of a Job.');

export const JobCondition = classicCondition({
  id: `${BATCH}.JobCondition`, of: 'a Job', type: 'The condition type, such as Complete or Failed.', transition: 4, extra: lastProbeTime,
});

export const UncountedTerminatedPods = obj({
  succeeded: list(str()).set().proto(1).desc('UIDs of succeeded pods not yet counted.'),
  failed: list(str()).set().proto(2).desc('UIDs of failed pods not yet counted.'),
})
  .id(`${BATCH}.UncountedTerminatedPods`)
  .desc('Finished pods the Job controller has not yet added to its counters.');

export const JobStatus = obj({
  conditions: list(JobCondition).atomic().patch('merge', 'type').proto(1).desc('The observed conditions of the Job.'),
  startTime: ref(Time).proto(2).desc('When the controller started the Job (again, after a suspension).'),
  completionTime: ref(Time).proto(3).desc('When the Job completed successfully.'),
  active: int32().proto(4).desc('Pods pending or running.'),
  succeeded: int32().proto(5).desc('Pods that succeeded.'),
  failed: int32().proto(6).desc('Pods that failed.'),
  completedIndexes: str().proto(7).desc('The completed indexes of an Indexed Job, as ranges such as "1,3-5,7".'),
  uncountedTerminatedPods: ref(UncountedTerminatedPods).proto(8).desc('Finished pods not yet counted.'),
  ready: int32().proto(9, { keepZero: true }).desc('Active pods that are ready.'),
})
  .id(`${BATCH}.JobStatus`)
  .desc('The observed state of a Job.');

export const Job = kind({
  spec: ref(JobSpec).proto(2).desc('The desired behaviour of the Job.'),
  status: ref(JobStatus).proto(3).desc('The observed state of the Job.'),
})
  .id(`${BATCH}.Job`)
  .desc('Runs pods until a number of them complete successfully.');
