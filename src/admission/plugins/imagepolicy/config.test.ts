// The ImagePolicyWebhook configuration: kube's defaults, the -1 sentinel, the
// bounds with Go's duration texts, Go's decoding errors, each naming the field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImagePolicyConfigError, parseImagePolicyConfig, type ImagePolicyConfig } from './config.js';

const cfg = (imagePolicy: Record<string, unknown>) => ({ imagePolicy: { kubeConfigFile: '/etc/hook.yaml', ...imagePolicy } });

describe('ImagePolicyWebhook configuration', () => {
  const good: [string, unknown, Partial<ImagePolicyConfig>][] = [
    ['defaults', cfg({}), { kubeConfigFile: '/etc/hook.yaml', allowTtlMs: 300_000, denyTtlMs: 30_000, retryBackoffMs: 500, defaultAllow: false }],
    ['0 is the default', cfg({ allowTTL: 0, denyTTL: 0, retryBackoff: 0 }), { allowTtlMs: 300_000, denyTtlMs: 30_000, retryBackoffMs: 500 }],
    ['values scaled: seconds and milliseconds', cfg({ allowTTL: 60, denyTTL: 5, retryBackoff: 10, defaultAllow: true }), { allowTtlMs: 60_000, denyTtlMs: 5_000, retryBackoffMs: 10, defaultAllow: true }],
    ['-1 turns each off', cfg({ allowTTL: -1, denyTTL: -1, retryBackoff: -1 }), { allowTtlMs: 0, denyTtlMs: 0, retryBackoffMs: 0 }],
    ['the bounds themselves', cfg({ allowTTL: 1800, denyTTL: 1, retryBackoff: 300_000 }), { allowTtlMs: 1_800_000, denyTtlMs: 1000, retryBackoffMs: 300_000 }],
    ['null is absent; field names match ignoring case; unknown fields ignored', { imagePolicy: { KubeConfigFile: '/k', allowttl: 2, denyTTL: null, extra: 1 }, other: true }, { kubeConfigFile: '/k', allowTtlMs: 2000, denyTtlMs: 30_000 }],
  ];
  for (const [what, raw, want] of good) {
    it(what, () => {
      const got = parseImagePolicyConfig(raw);
      for (const [k, v] of Object.entries(want)) assert.equal(got[k as keyof ImagePolicyConfig], v, k);
    });
  }

  const bad: [string, unknown, string][] = [
    ['no configuration', undefined, 'no config specified'],
    ['not an object', ['x'], 'json: cannot unmarshal array into Go value of type imagepolicy.AdmissionConfig'],
    ['imagePolicy not an object', { imagePolicy: 'x' }, 'json: cannot unmarshal string into Go struct field AdmissionConfig.imagePolicy of type imagepolicy.imagePolicyWebhookConfig'],
    ['allowTTL above 30 minutes', cfg({ allowTTL: 3600 }), 'imagePolicy.allowTTL: valid value is between 1s and 30m0s, got 1h0m0s'],
    ['denyTTL negative', cfg({ denyTTL: -2 }), 'imagePolicy.denyTTL: valid value is between 1s and 30m0s, got -2s'],
    ['retryBackoff above 5 minutes', cfg({ retryBackoff: 300_001 }), 'imagePolicy.retryBackoff: valid value is between 1ns and 5m0s, got 5m0.001s'],
    ['retryBackoff checked first', cfg({ retryBackoff: -5, allowTTL: 3600 }), 'imagePolicy.retryBackoff: valid value is between 1ns and 5m0s, got -5ms'],
    ['a TTL as a string', cfg({ allowTTL: '30s' }), 'json: cannot unmarshal string into Go struct field imagePolicyWebhookConfig.imagePolicy.allowTTL of type time.Duration'],
    ['a fractional TTL', cfg({ denyTTL: 1.5 }), 'json: cannot unmarshal number 1.5 into Go struct field imagePolicyWebhookConfig.imagePolicy.denyTTL of type time.Duration'],
    ['defaultAllow not a boolean', cfg({ defaultAllow: 'yes' }), 'json: cannot unmarshal string into Go struct field imagePolicyWebhookConfig.imagePolicy.defaultAllow of type bool'],
    ['kubeConfigFile not a string', cfg({ kubeConfigFile: 3 }), 'json: cannot unmarshal number 3 into Go struct field imagePolicyWebhookConfig.imagePolicy.kubeConfigFile of type string'],
    ['no kubeConfigFile', { imagePolicy: { allowTTL: 5 } }, 'imagePolicy.kubeConfigFile: Required value: the connection-credentials file naming the image policy backend'],
    ['no imagePolicy at all', { podNodeSelectorPluginConfig: {} }, 'imagePolicy.kubeConfigFile: Required value: the connection-credentials file naming the image policy backend'],
  ];
  for (const [what, raw, message] of bad) {
    it(`refuses: ${what}`, () => {
      assert.throws(() => parseImagePolicyConfig(raw), (e: unknown) => e instanceof ImagePolicyConfigError && e.message === message ? true : assert.fail(String(e)));
    });
  }
});
