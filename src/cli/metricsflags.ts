// The metrics flag of kube-apiserver v1.27: --show-hidden-metrics-for-version
// (only the previous minor release, "1.26", is accepted; kube's message otherwise).
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import { validateShowHiddenMetricsVersion } from '../metrics/registry.js';

export const METRICS_FLAGS: FlagSpec[] = [
  {
    name: 'show-hidden-metrics-for-version', type: 'string',
    help: 'The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. ' +
      'The format is <major>.<minor>, e.g.: \'1.16\'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, ' +
      'rather than being surprised when they are permanently removed in the release after that.',
  },
];

export interface MetricsOptions {
  readonly showHiddenMetricsForVersion?: string;
}

export function metricsOptions(v: Map<string, FlagValue>): { metrics: MetricsOptions } {
  const version = (v.get('show-hidden-metrics-for-version') as string | undefined) ?? '';
  const err = validateShowHiddenMetricsVersion(version);
  if (err) throw new FlagError(err);
  return { metrics: version ? { showHiddenMetricsForVersion: version } : {} };
}
