// The metrics flags of kube-apiserver v1.27: --show-hidden-metrics-for-version
// (only the previous minor release, "1.26", is accepted; kube's message
// otherwise) and --profiling (default true), which here decides only what kube
// ties to it for metrics: DELETE /metrics resets them (there is no /debug/pprof).
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import { validateShowHiddenMetricsVersion } from '../metrics/registry.js';

export const METRICS_FLAGS: FlagSpec[] = [
  {
    name: 'show-hidden-metrics-for-version', type: 'string',
    help: 'The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. ' +
      'The format is <major>.<minor>, e.g.: \'1.16\'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, ' +
      'rather than being surprised when they are permanently removed in the release after that.',
  },
  { name: 'profiling', type: 'bool', default: true, help: 'Enable profiling via web interface host:port/debug/pprof/ (here: DELETE /metrics resets the metrics, as kube installs it with profiling)' },
];

export interface MetricsOptions {
  readonly showHiddenMetricsForVersion?: string;
  /** --profiling: DELETE /metrics resets the metrics (default true). */
  readonly profiling?: boolean;
}

export function metricsOptions(v: Map<string, FlagValue>): { metrics: MetricsOptions } {
  const version = (v.get('show-hidden-metrics-for-version') as string | undefined) ?? '';
  const err = validateShowHiddenMetricsVersion(version);
  if (err) throw new FlagError(err);
  const profiling = v.get('profiling') as boolean | undefined;
  return { metrics: { ...(version ? { showHiddenMetricsForVersion: version } : {}), ...(profiling === false ? { profiling } : {}) } };
}
