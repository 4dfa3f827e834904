// --feature-gates parsing and gate resolution.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeatureGateError, FeatureGates } from './gates.js';

describe('feature gates', () => {
  it('defaults follow the stage', () => {
    const g = FeatureGates.parse('');
    assert.equal(g.enabled('WatchList'), false); // alpha
    assert.equal(g.enabled('APIListChunking'), true); // beta, on
    assert.equal(g.enabled('MinDomainsInPodTopologySpread'), false); // beta, off
    assert.equal(g.enabled('ServerSideApply'), true); // GA
  });

  const rows: [string, string, boolean][] = [
    ['WatchList=true', 'WatchList', true],
    ['WatchList=1', 'WatchList', true],
    ['WatchList=True', 'WatchList', true],
    ['APIResponseCompression=false', 'APIResponseCompression', false],
    [' WatchList = t , APIListChunking=F ', 'APIListChunking', false],
    ['AllAlpha=true', 'WatchList', true],
    ['AllAlpha=true,WatchList=false', 'WatchList', false],
    ['AllBeta=false', 'APIListChunking', false],
    ['AllBeta=false', 'WatchList', false],
  ];
  for (const [flag, gate, want] of rows) {
    it(`${flag} → ${gate}=${want}`, () => assert.equal(FeatureGates.parse(flag).enabled(gate), want));
  }

  const bad: [string, string][] = [
    ['NoSuchGate=true', 'unrecognized feature gate: NoSuchGate'],
    ['WatchList=yes', 'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    ['WatchList', 'missing bool value for WatchList'],
    ['ServerSideApply=false', 'cannot set feature gate ServerSideApply to false, feature is locked to true'],
  ];
  for (const [flag, message] of bad) {
    it(`rejects ${flag}`, () => assert.throws(() => FeatureGates.parse(flag), (err: unknown) => err instanceof FeatureGateError && err.message === message));
  }

  it('warns when a GA gate is set', () => {
    assert.deepEqual(FeatureGates.parse('ServerSideApply=true').warnings, ['Setting GA feature gate ServerSideApply=true. It will be removed in a future release.']);
  });

  it('warns when a deprecated gate is set, either way; alpha and beta gates set say nothing', () => {
    const known = new Map([['Old', { stage: 'DEPRECATED', default: true }], ['New', { stage: 'ALPHA', default: false }], ['Mid', { stage: 'BETA', default: true }]] as const);
    const g = FeatureGates.parse('Old=false,New=true,Mid=false,AllAlpha=true', known);
    assert.deepEqual(g.warnings, ['Setting deprecated feature gate Old=false. It will be removed in a future release.']);
    assert.equal(g.enabled('Old'), false);
    assert.equal(FeatureGates.parse('', known).enabled('Old'), true);
    assert.equal(FeatureGates.parse('AllBeta=false,AllAlpha=false', known).enabled('Old'), true); // the meta-gates leave deprecated gates alone
  });
});
