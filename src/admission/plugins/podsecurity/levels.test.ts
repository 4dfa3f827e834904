// Levels, versions and the namespace labels → policy resolution (both spellings).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorBody } from '../../../api/meta/index.js';
import { compareLevels, LATEST, lvString, parseLevel, parseVersion, policyFromLabels, PRIVILEGED_POLICY, v1 } from './levels.js';

describe('PodSecurity levels and versions', () => {
  const versions: [string, string | undefined][] = [
    ['latest', 'latest'],
    ['v1.0', 'v1.0'],
    ['v1.27', 'v1.27'],
    ['v1.99', 'v1.99'],
    ['v1.027', undefined],
    ['v2.0', undefined],
    ['1.27', undefined],
    ['Latest', undefined],
    ['', undefined],
  ];
  for (const [text, want] of versions) {
    it(`version ${JSON.stringify(text)}`, () => {
      const v = parseVersion(text);
      assert.equal(v ? lvString({ level: 'baseline', version: v }).slice('baseline:'.length) : undefined, want);
    });
  }
  it('levels', () => {
    assert.equal(parseLevel('restricted'), 'restricted');
    assert.equal(parseLevel('Restricted'), undefined);
    assert.equal(compareLevels('restricted', 'baseline'), 1);
    assert.equal(compareLevels('privileged', 'baseline'), -1);
    assert.equal(compareLevels('baseline', 'baseline'), 0);
  });
});

describe('PodSecurity namespace labels', () => {
  const show = (labels: Record<string, string>) => {
    const { policy, errors } = policyFromLabels(labels, PRIVILEGED_POLICY);
    return { enforce: lvString(policy.enforce), audit: lvString(policy.audit), warn: lvString(policy.warn), errors: errors.map((e) => `${e.field}: ${errorBody(e)}`) };
  };
  it('no labels: the defaults', () => assert.deepEqual(show({}), { enforce: 'privileged:latest', audit: 'privileged:latest', warn: 'privileged:latest', errors: [] }));
  it('kubernetes.io labels with versions', () =>
    assert.deepEqual(show({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.24', 'pod-security.kubernetes.io/warn': 'restricted' }), {
      enforce: 'baseline:v1.24',
      audit: 'privileged:latest',
      warn: 'restricted:latest',
      errors: [],
    }));
  it('svc.io labels', () => assert.equal(show({ 'pod-security.svc.io/enforce': 'restricted' }).enforce, 'restricted:latest'));
  it('the svc.io spelling wins over kubernetes.io, per key', () =>
    assert.deepEqual(show({ 'pod-security.svc.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce': 'privileged', 'pod-security.kubernetes.io/enforce-version': 'v1.22' }).enforce, 'restricted:v1.22'));
  it('an invalid enforce level is restricted; invalid audit and warn levels fail open; an invalid version is latest', () =>
    assert.deepEqual(
      show({
        'pod-security.kubernetes.io/enforce': 'strict',
        'pod-security.kubernetes.io/enforce-version': 'v1.x',
        'pod-security.kubernetes.io/audit': 'nope',
        'pod-security.svc.io/warn': 'Baseline',
      }),
      {
        enforce: 'restricted:latest',
        audit: 'privileged:latest',
        warn: 'privileged:latest',
        errors: [
          'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
          'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v1.x": must be "latest" or "v1.x"',
          'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "nope": must be one of privileged, baseline, restricted',
          'metadata.labels[pod-security.svc.io/warn]: Invalid value: "Baseline": must be one of privileged, baseline, restricted',
        ],
      },
    ));
  it('labels override configured defaults only where set', () => {
    const defaults = { enforce: { level: 'baseline' as const, version: v1(23) }, audit: { level: 'restricted' as const, version: LATEST }, warn: { level: 'restricted' as const, version: LATEST } };
    const { policy } = policyFromLabels({ 'pod-security.kubernetes.io/enforce-version': 'v1.25', other: 'x' }, defaults);
    assert.equal(lvString(policy.enforce), 'baseline:v1.25');
    assert.equal(lvString(policy.warn), 'restricted:latest');
  });
});
