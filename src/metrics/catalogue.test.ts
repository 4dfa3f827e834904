// Pins every metric this server declares: name, type, labels, stability class
// and (histograms) buckets, as kube-apiserver v1.27 declares them. A metric
// added without a row here, or changed, fails this test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import './apiserver.js';
import './storage.js';
import './admission.js';
import './authn.js';
import '../flowcontrol/metrics.js';
import '../flowcontrol/readvswrite.js';
import { declaredMetrics, exponentialBuckets } from './registry.js';

const LATENCY = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const ADMISSION = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const REQUEST = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
const SERIES = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

type Row = [name: string, type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'timing_ratio_histogram', labels: string[], level: 'ALPHA' | 'STABLE', buckets?: number[], extra?: { deprecatedVersion?: string; constLabels?: Record<string, string> }];

const SLI = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const APF_DURATION = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];
const PL = ['priority_level'];
const PL_FS = ['priority_level', 'flow_schema'];

const CATALOGUE: Row[] = [
  ['apiserver_request_total', 'counter', [...REQUEST, 'code'], 'STABLE'],
  ['apiserver_request_duration_seconds', 'histogram', REQUEST, 'STABLE', LATENCY],
  ['apiserver_response_sizes', 'histogram', SERIES, 'STABLE', exponentialBuckets(1000, 10, 7)],
  ['apiserver_longrunning_requests', 'gauge', SERIES, 'STABLE'],
  ['apiserver_current_inflight_requests', 'gauge', ['request_kind'], 'STABLE'],
  ['apiserver_current_inqueue_requests', 'gauge', ['request_kind'], 'ALPHA'],
  ['apiserver_request_terminations_total', 'counter', [...SERIES, 'code'], 'ALPHA'],
  ['apiserver_request_filter_duration_seconds', 'histogram', ['filter'], 'ALPHA', [0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 5.0, 10.0, 15.0, 30.0]],
  ['apiserver_watch_events_total', 'counter', ['group', 'version', 'kind'], 'ALPHA'],
  ['apiserver_watch_events_sizes', 'histogram', ['group', 'version', 'kind'], 'ALPHA', [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072]],
  ['etcd_request_duration_seconds', 'histogram', ['operation', 'type'], 'ALPHA', LATENCY],
  ['apiserver_storage_objects', 'gauge', ['resource'], 'STABLE'],
  ['apiserver_storage_list_total', 'counter', ['resource'], 'ALPHA'],
  ['apiserver_storage_list_fetched_objects_total', 'counter', ['resource'], 'ALPHA'],
  ['apiserver_storage_list_evaluated_objects_total', 'counter', ['resource'], 'ALPHA'],
  ['apiserver_storage_list_returned_objects_total', 'counter', ['resource'], 'ALPHA'],
  ['apiserver_admission_step_admission_duration_seconds', 'histogram', ['type', 'operation', 'rejected'], 'STABLE', ADMISSION],
  ['apiserver_admission_step_admission_duration_seconds_summary', 'summary', ['type', 'operation', 'rejected'], 'ALPHA'],
  ['apiserver_admission_controller_admission_duration_seconds', 'histogram', ['name', 'type', 'operation', 'rejected'], 'STABLE', ADMISSION],
  ['apiserver_admission_webhook_admission_duration_seconds', 'histogram', ['name', 'type', 'operation', 'rejected'], 'STABLE', [...ADMISSION, 10, 25]],
  ['apiserver_admission_webhook_rejection_count', 'counter', ['name', 'type', 'operation', 'error_type', 'rejection_code'], 'ALPHA'],
  ['apiserver_admission_webhook_fail_open_count', 'counter', ['name', 'type'], 'ALPHA'],
  ['apiserver_admission_webhook_request_total', 'counter', ['name', 'type', 'operation', 'code', 'rejected'], 'ALPHA'],
  ['authenticated_user_requests', 'counter', ['username'], 'ALPHA'],
  ['apiserver_client_certificate_expiration_seconds', 'histogram', [], 'ALPHA', [0, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 345600, 604800, 2592000, 7776000, 15552000, 31104000]],
  ['authentication_attempts', 'counter', ['result'], 'ALPHA'],
  ['authentication_duration_seconds', 'histogram', ['result'], 'ALPHA', exponentialBuckets(0.001, 2, 15)],
  ['authentication_token_cache_request_duration_seconds', 'histogram', ['status'], 'ALPHA', [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]],
  ['authentication_token_cache_request_total', 'counter', ['status'], 'ALPHA'],
  ['authentication_token_cache_fetch_total', 'counter', ['status'], 'ALPHA'],
  ['authentication_token_cache_active_fetch_count', 'gauge', ['status'], 'ALPHA'],
  ['apiserver_request_sli_duration_seconds', 'histogram', SERIES, 'ALPHA', SLI],
  ['apiserver_request_slo_duration_seconds', 'histogram', SERIES, 'ALPHA', SLI, { deprecatedVersion: '1.27.0' }],
  // util/flowcontrol/metrics (v1.27)
  ['apiserver_flowcontrol_rejected_requests_total', 'counter', [...PL_FS, 'reason'], 'ALPHA'],
  ['apiserver_flowcontrol_dispatched_requests_total', 'counter', PL_FS, 'ALPHA'],
  ['apiserver_flowcontrol_request_wait_duration_seconds', 'histogram', [...PL_FS, 'execute'], 'ALPHA', APF_DURATION],
  ['apiserver_flowcontrol_request_execution_seconds', 'histogram', [...PL_FS, 'type'], 'ALPHA', APF_DURATION],
  ['apiserver_flowcontrol_request_queue_length_after_enqueue', 'histogram', PL_FS, 'ALPHA', [0, 10, 25, 50, 100, 250, 500, 1000]],
  ['apiserver_flowcontrol_work_estimated_seats', 'histogram', PL_FS, 'ALPHA', [1, 2, 4, 10]],
  ['apiserver_flowcontrol_watch_count_samples', 'histogram', PL_FS, 'ALPHA', [0, 1, 10, 100, 1000, 10000]],
  ['apiserver_flowcontrol_current_inqueue_requests', 'gauge', PL_FS, 'ALPHA'],
  ['apiserver_flowcontrol_current_executing_requests', 'gauge', PL_FS, 'ALPHA'],
  ['apiserver_flowcontrol_request_concurrency_in_use', 'gauge', PL_FS, 'ALPHA'],
  ['apiserver_flowcontrol_request_concurrency_limit', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_nominal_limit_seats', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_lower_limit_seats', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_upper_limit_seats', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_current_limit_seats', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_demand_seats_high_watermark', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_demand_seats_average', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_demand_seats_stdev', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_demand_seats_smoothed', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_target_seats', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_current_r', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_dispatch_r', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_latest_s', 'gauge', PL, 'ALPHA'],
  ['apiserver_flowcontrol_next_s_bounds', 'gauge', ['priority_level', 'bound'], 'ALPHA'],
  ['apiserver_flowcontrol_next_discounted_s_bounds', 'gauge', ['priority_level', 'bound'], 'ALPHA'],
  ['apiserver_flowcontrol_seat_fair_frac', 'gauge', [], 'ALPHA'],
  ['apiserver_flowcontrol_epoch_advance_total', 'counter', ['priority_level', 'success'], 'ALPHA'],
  ['apiserver_flowcontrol_request_dispatch_no_accommodation_total', 'counter', PL_FS, 'ALPHA'],
  ['apiserver_flowcontrol_priority_level_seat_utilization', 'timing_ratio_histogram', PL, 'ALPHA', [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1], { constLabels: { phase: 'executing' } }],
  ['apiserver_flowcontrol_priority_level_request_utilization', 'timing_ratio_histogram', ['phase', 'priority_level'], 'ALPHA', [0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.25, 0.5, 0.75, 1]],
  ['apiserver_flowcontrol_read_vs_write_current_requests', 'timing_ratio_histogram', ['phase', 'request_kind'], 'ALPHA', [0, 0.001, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1]],
  ['apiserver_flowcontrol_demand_seats', 'timing_ratio_histogram', PL, 'ALPHA', [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.7, 2, 2.8, 4, 6]],
];

describe('metric catalogue', () => {
  const declared = new Map(declaredMetrics().map((d) => [d.name, d]));

  it('every row is declared as pinned', () => {
    for (const [name, type, labels, level, buckets, extra] of CATALOGUE) {
      const d = declared.get(name);
      assert.ok(d, `${name} is not declared`);
      assert.equal(d.type, type, `${name} type`);
      assert.deepEqual(d.labelNames, labels, `${name} labels`);
      assert.equal(d.stabilityLevel, level, `${name} class`);
      assert.equal(d.deprecatedVersion, extra?.deprecatedVersion, `${name} deprecation`);
      assert.deepEqual((d as { constLabels?: unknown }).constLabels, extra?.constLabels, `${name} const labels`);
      assert.deepEqual(d.buckets, buckets, `${name} buckets`);
    }
  });

  it('every declared metric has a row (names are unique)', () => {
    const pinned = new Set(CATALOGUE.map((r) => r[0]));
    assert.equal(pinned.size, CATALOGUE.length);
    assert.equal(declaredMetrics().length, declared.size, 'a name declared twice');
    for (const name of declared.keys()) assert.ok(pinned.has(name), `${name} is declared but not pinned here`);
  });
});
