// PodTolerationRestriction: defaults merged in, whitelists enforced (the namespace of golden transcript admission-09).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import type { Getter } from './common.js';
import { parsePodTolerationRestrictionConfig, podTolerationRestriction } from './podtolerationrestriction.js';
import { attrs, outcome } from './testutil.js';

const dedicated = { key: 'dedicated', operator: 'Equal', value: 'prod', effect: 'NoSchedule' };
const spot = { key: 'spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' };
const notReady = { key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable = { key: 'node.svc.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const memoryPressure = { key: 'node.svc.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

const nsList: Record<string, Record<string, string>> = {
  golden: {
    'scheduler.alpha.kubernetes.io/defaultTolerations': JSON.stringify([dedicated]),
    'scheduler.alpha.kubernetes.io/tolerationsWhitelist': JSON.stringify([dedicated, spot,
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }]),
  },
  plain: {},
  open: { 'scheduler.alpha.kubernetes.io/tolerationsWhitelist': '' },
  broken: { 'scheduler.alpha.kubernetes.io/defaultTolerations': '[{' },
};
const namespaces: Getter = () => ({ get: async (_ns, name) => {
  if (!nsList[name]) throw newNotFound({ group: '', resource: 'namespaces' }, name);
  return { metadata: { name, annotations: nsList[name] } };
} });
const pod = (tolerations: unknown[], resources?: Record<string, unknown>): ApiObject => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'x', ...(resources ? { resources } : {}) }], tolerations },
});
const WL = (scope: string) => ({ code: 500, message: `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist` });

describe('PodTolerationRestriction', () => {
  const cluster = { default: [spot], whitelist: [spot, memoryPressure] };
  const rows: [string, Parameters<typeof attrs>[0], unknown[] | { code: number; message: string }][] = [
    ['golden: defaults appended after the pod\'s', { namespace: 'golden', object: pod([notReady, unreachable]) }, [notReady, unreachable, dedicated]],
    ['golden: a whitelisted toleration', { namespace: 'golden', object: pod([spot, notReady, unreachable]) }, [spot, notReady, unreachable, dedicated]],
    ['golden: one outside the whitelist', { namespace: 'golden', object: pod([{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }]) }, WL('namespace')],
    ['cluster defaults and whitelist when the namespace has none', { namespace: 'plain', object: pod([]) }, [spot]],
    ['cluster whitelist refuses', { namespace: 'plain', object: pod([dedicated]) }, WL('cluster')],
    ['an empty namespace whitelist allows all', { namespace: 'open', object: pod([{ key: 'any', operator: 'Exists' }]) }, [{ key: 'any', operator: 'Exists' }, spot]],
    ['memory pressure for a pod that is not BestEffort', { namespace: 'plain', object: pod([], { requests: { cpu: '100m' } }) }, [spot, memoryPressure]],
    ['no defaults on update, but the whitelist', { operation: 'UPDATE', namespace: 'plain', object: pod([dedicated]) }, WL('cluster')],
    ['update within the whitelist', { operation: 'UPDATE', namespace: 'plain', object: pod([spot]) }, [spot]],
    ['missing namespace', { namespace: 'gone', object: pod([]) }, { code: 404, message: 'namespaces "gone" not found' }],
  ];
  for (const [what, init, want] of rows) {
    it(what, async () => {
      const a = attrs(init);
      const st = await outcome(() => podTolerationRestriction(namespaces, cluster).admit(a));
      if (!Array.isArray(want)) assert.deepEqual({ code: st?.code, message: st?.message }, want);
      else {
        assert.equal(st, undefined);
        assert.deepEqual((a.object!.spec as Record<string, unknown>).tolerations, want);
      }
    });
  }
  it('an annotation that is not JSON is a 500', async () => {
    const st = await outcome(() => podTolerationRestriction(namespaces).admit(attrs({ namespace: 'broken', object: pod([]) })));
    assert.equal(st?.code, 500);
  });
  it('the validating step checks the final tolerations', async () => {
    const st = await outcome(() => podTolerationRestriction(namespaces).validate(attrs({ namespace: 'golden', object: pod([{ key: 'gpu', operator: 'Exists' }]) })));
    assert.deepEqual({ code: st?.code, message: st?.message }, WL('namespace'));
  });
  it('configuration file', () => {
    assert.deepEqual(parsePodTolerationRestrictionConfig(undefined), {});
    const cfg = parsePodTolerationRestrictionConfig('apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\nkind: Configuration\ndefault:\n- key: a\n  operator: Exists\n  effect: NoSchedule\nwhitelist:\n- key: a\n  operator: Exists\n');
    assert.deepEqual(cfg, { default: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }], whitelist: [{ key: 'a', operator: 'Exists' }] });
    assert.doesNotThrow(() => parsePodTolerationRestrictionConfig('apiVersion: podtolerationrestriction.admission.svc.io/v1\nkind: Configuration\n'));
    assert.throws(() => parsePodTolerationRestrictionConfig('apiVersion: example.com/v1\nkind: Configuration\n'), /no kind "Configuration" is registered/);
    assert.throws(() => parsePodTolerationRestrictionConfig('apiVersion: podtolerationrestriction.admission.k8s.io/v1\nkind: Configuration\ndefault:\n- key: a\n  operator: Bogus\n'), /default\[0\]\.operator/);
  });
});
