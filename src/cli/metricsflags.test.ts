// --show-hidden-metrics-for-version: parsed into options, refused with kube's message; --profiling.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, parseFlags } from './flags.js';
import { METRICS_FLAGS, metricsOptions } from './metricsflags.js';

const parse = (argv: string[]) => metricsOptions(parseFlags(METRICS_FLAGS, argv).values).metrics;

describe('metrics flags', () => {
  it('absent: nothing shown', () => assert.deepEqual(parse([]), {}));
  it('--profiling: on by default (nothing to say), off when false', () => {
    assert.deepEqual(parse(['--profiling']), {});
    assert.deepEqual(parse(['--profiling=false']), { profiling: false });
  });
  it('the previous minor release', () => assert.deepEqual(parse(['--show-hidden-metrics-for-version=1.26']), { showHiddenMetricsForVersion: '1.26' }));
  for (const v of ['1.25', '1.27', 'v1.26', '1.26.1', 'soon']) {
    it(`refuses ${v}`, () => assert.throws(() => parse([`--show-hidden-metrics-for-version=${v}`]),
      (e: unknown) => e instanceof FlagError && e.message === "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed"));
  }
});
