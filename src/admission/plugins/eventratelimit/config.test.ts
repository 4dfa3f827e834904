import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRateLimitConfigError, parseEventRateLimitConfig } from './config.js';

const V = 'eventratelimit.admission.svc.io/v1alpha1';
const cfg = (limits: unknown, extra: Record<string, unknown> = {}) => ({ apiVersion: V, kind: 'Configuration', limits, ...extra });

describe('EventRateLimit configuration', () => {
  const valid: [string, unknown, unknown][] = [
    ['every type, both spellings of the group', cfg([
      { type: 'Server', qps: 5, burst: 10 },
      { type: 'Namespace', qps: 1, burst: 2, cacheSize: 7 },
      { type: 'User', qps: 3, burst: 4 },
      { type: 'SourceAndObject', qps: 5, burst: 6, cacheSize: 0 },
    ]), [
      { type: 'Server', qps: 5, burst: 10, cacheSize: 0 },
      { type: 'Namespace', qps: 1, burst: 2, cacheSize: 7 },
      { type: 'User', qps: 3, burst: 4, cacheSize: 0 },
      { type: 'SourceAndObject', qps: 5, burst: 6, cacheSize: 0 },
    ]],
    ['the k8s.io spelling; unknown fields ignored', { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', extra: 1, limits: [{ type: 'User', qps: 1, burst: 1, note: 'x' }] },
      [{ type: 'User', qps: 1, burst: 1, cacheSize: 0 }]],
    ['Server ignores a negative cacheSize; a type may repeat', cfg([{ type: 'Server', qps: 1, burst: 1, cacheSize: -5 }, { type: 'Server', qps: 2, burst: 2 }]),
      [{ type: 'Server', qps: 1, burst: 1, cacheSize: -5 }, { type: 'Server', qps: 2, burst: 2, cacheSize: 0 }]],
  ];
  for (const [what, raw, limits] of valid) {
    it(`accepts: ${what}`, () => assert.deepEqual(parseEventRateLimitConfig(raw).limits, limits));
  }

  const invalid: [string, unknown, string][] = [
    ['no configuration (kube validates the defaulted empty one)', undefined, 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty'],
    ['no limits', cfg(undefined), 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty'],
    ['an empty list of limits', cfg([]), 'limits: Invalid value: []eventratelimit.Limit{}: must not be empty'],
    ['an unknown type', cfg([{ type: 'Pod', qps: 1, burst: 1 }]), 'limits[0].type: Unsupported value: "Pod": supported values: "Server", "Namespace", "User", "SourceAndObject"'],
    ['types are case-sensitive', cfg([{ type: 'server', qps: 1, burst: 1 }]), 'limits[0].type: Unsupported value: "server": supported values: "Server", "Namespace", "User", "SourceAndObject"'],
    ['no type', cfg([{ qps: 1, burst: 1 }]), 'limits[0].type: Unsupported value: "": supported values: "Server", "Namespace", "User", "SourceAndObject"'],
    ['qps 0', cfg([{ type: 'Server', qps: 0, burst: 1 }]), 'limits[0].qps: Invalid value: 0: must be positive'],
    ['burst negative', cfg([{ type: 'Server', qps: 1, burst: -1 }]), 'limits[0].burst: Invalid value: -1: must be positive'],
    ['cacheSize negative', cfg([{ type: 'User', qps: 1, burst: 1, cacheSize: -1 }]), 'limits[0].cacheSize: Invalid value: -1: must not be negative'],
    ['every problem, in kube\'s order', cfg([{ type: 'Server', qps: 1, burst: 1 }, { type: 'X', cacheSize: -2 }]),
      '[limits[1].type: Unsupported value: "X": supported values: "Server", "Namespace", "User", "SourceAndObject", limits[1].burst: Invalid value: 0: must be positive, limits[1].qps: Invalid value: 0: must be positive, limits[1].cacheSize: Invalid value: -2: must not be negative]'],
    ['qps as a string', cfg([{ type: 'Server', qps: '5', burst: 1 }]), 'json: cannot unmarshal string into Go struct field Limit.limits.qps of type int32'],
    ['a fractional burst', cfg([{ type: 'Server', qps: 1, burst: 1.5 }]), 'json: cannot unmarshal number 1.5 into Go struct field Limit.limits.burst of type int32'],
    ['cacheSize beyond int32', cfg([{ type: 'User', qps: 1, burst: 1, cacheSize: 3000000000 }]), 'json: cannot unmarshal number 3000000000 into Go struct field Limit.limits.cacheSize of type int32'],
    ['type as a number', cfg([{ type: 1, qps: 1, burst: 1 }]), 'json: cannot unmarshal number into Go struct field Limit.limits.type of type v1alpha1.LimitType'],
    ['limits as an object', cfg({ type: 'Server' }), 'json: cannot unmarshal object into Go struct field Configuration.limits of type []v1alpha1.Limit'],
    ['a limit as a string', cfg(['Server']), 'json: cannot unmarshal string into Go struct field Configuration.limits of type v1alpha1.Limit'],
    ['no kind', { apiVersion: V, limits: [] }, `Object 'Kind' is missing in '{"apiVersion":"${V}","limits":[]}'`],
    ['no apiVersion', { kind: 'Configuration' }, `Object 'apiVersion' is missing in '{"kind":"Configuration"}'`],
    ['kind as a number', { apiVersion: V, kind: 3 }, 'couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string'],
    ['a list, not an object', ['x'], 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
    ['another kind', { apiVersion: V, kind: 'ResourceQuotaConfiguration' },
      'no kind "ResourceQuotaConfiguration" is registered for version "eventratelimit.admission.svc.io/v1alpha1" (want kind "Configuration" in eventratelimit.admission.svc.io/v1alpha1, eventratelimit.admission.k8s.io/v1alpha1)'],
    ['another version', { apiVersion: 'eventratelimit.admission.k8s.io/v1', kind: 'Configuration' },
      'no kind "Configuration" is registered for version "eventratelimit.admission.k8s.io/v1" (want kind "Configuration" in eventratelimit.admission.svc.io/v1alpha1, eventratelimit.admission.k8s.io/v1alpha1)'],
  ];
  for (const [what, raw, message] of invalid) {
    it(`refuses: ${what}`, () => {
      assert.throws(() => parseEventRateLimitConfig(raw), (e: unknown) => e instanceof EventRateLimitConfigError && e.message === message ? true : assert.fail(String(e)));
    });
  }
});
