// KubeSchedulerConfiguration files and the profiles built from them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSchedulerConfig, SchedulerConfigError } from './config.js';
import { buildProfile } from './build.js';
import { TEST_HANDLE } from './testing.js';

const HEAD = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';

describe('parseSchedulerConfig', () => {
  it('defaults: one default-scheduler profile, 1 s and 10 s backoffs', () => {
    assert.deepEqual(parseSchedulerConfig(HEAD), { profiles: [{ schedulerName: 'default-scheduler' }], podInitialBackoffSeconds: 1, podMaxBackoffSeconds: 10, percentageOfNodesToScore: 0 });
  });

  it('reads the deprecated v1beta3 the same way', () => {
    assert.deepEqual(parseSchedulerConfig('apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 50\n').profiles, [{ schedulerName: 'default-scheduler' }]);
  });

  it('reads profiles, plugin sets and args (svc.io spelling too)', () => {
    const c = parseSchedulerConfig(`apiVersion: kubescheduler.config.svc.io/v1
kind: KubeSchedulerConfiguration
podInitialBackoffSeconds: 2
profiles:
- schedulerName: default-scheduler
- schedulerName: packer
  plugins:
    score:
      disabled: [{name: NodeResourcesBalancedAllocation}]
      enabled: [{name: ImageLocality, weight: 5}]
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
`);
    assert.equal(c.podInitialBackoffSeconds, 2);
    assert.deepEqual(c.profiles.map((p) => p.schedulerName), ['default-scheduler', 'packer']);
    assert.deepEqual(c.profiles[1]!.plugins?.score, { enabled: [{ name: 'ImageLocality', weight: 5 }], disabled: [{ name: 'NodeResourcesBalancedAllocation' }] });
  });

  const bad: [string, string, RegExp][] = [
    ['not an object', '- a', /must be an object/],
    ['wrong kind', 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: Foo\n', /no kind "Foo" is registered for version "kubescheduler.config.k8s.io\/v1"/],
    ['missing apiVersion', 'kind: KubeSchedulerConfiguration\n', /Object 'apiVersion' is missing/],
    ['no profiles', `${HEAD}profiles: []\n`, /profiles: Required value/],
    ['duplicate names', `${HEAD}profiles: [{schedulerName: a}, {schedulerName: a}]\n`, /profiles\[1\]\.schedulerName: Duplicate value: "a"/],
    ['unknown extension point', `${HEAD}profiles: [{plugins: {fliter: {}}}]\n`, /profiles\[0\]\.plugins: unknown field "fliter"/],
    ['plugin without name', `${HEAD}profiles: [{plugins: {score: {enabled: [{weight: 1}]}}}]\n`, /profiles\[0\]\.plugins\.score\.enabled\[0\]\.name: Required value/],
    ['negative weight', `${HEAD}profiles: [{plugins: {score: {enabled: [{name: ImageLocality, weight: -1}]}}}]\n`, /weight: Invalid value: -1/],
    ['backoffs inverted', `${HEAD}podInitialBackoffSeconds: 20\n`, /podMaxBackoffSeconds: Invalid value: 10: must be greater than or equal to PodInitialBackoffSeconds/],
    ['bad YAML', `${HEAD}profiles: [\n`, /error converting YAML to JSON/],
    ['percentageOfNodesToScore out of range', `${HEAD}percentageOfNodesToScore: 101\n`, /percentageOfNodesToScore: Invalid value: 101: not in valid range \[0-100\]/],
    ['an unserved version', 'apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\n', /no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io\/v1beta2"/],
  ];
  for (const [name, text, want] of bad) {
    it(`refuses: ${name}`, () => assert.throws(() => parseSchedulerConfig(text, 'sched.yaml'), (e: Error) => e instanceof SchedulerConfigError && e.message.startsWith('sched.yaml: ') && want.test(e.message)));
  }
});

describe('buildProfile', () => {
  const build = (yaml: string) => buildProfile(parseSchedulerConfig(HEAD + yaml).profiles[0]!, TEST_HANDLE);

  it('the default profile: v1.27 filters in order, score weights, preemption', () => {
    const p = build('');
    assert.deepEqual(p.filters.map((f) => f.name), ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeRestrictions', 'NodeVolumeLimits', 'VolumeBinding', 'VolumeZone', 'PodTopologySpread', 'InterPodAffinity']);
    assert.deepEqual(p.scores.map((s) => [s.plugin.name, s.weight]), [
      ['TaintToleration', 3], ['NodeAffinity', 2], ['NodeResourcesFit', 1], ['PodTopologySpread', 2], ['InterPodAffinity', 2], ['NodeResourcesBalancedAllocation', 1], ['ImageLocality', 1],
    ]);
    assert.equal(p.preemption, true);
  });

  it('disables per point and with "*", enables with weights, turns preemption off', () => {
    const p = build(`profiles:
- plugins:
    multiPoint: {disabled: [{name: DefaultPreemption}]}
    filter: {disabled: [{name: NodePorts}]}
    score:
      disabled: [{name: '*'}]
      enabled: [{name: NodeResourcesFit, weight: 7}]
`);
    assert.ok(!p.filters.some((f) => f.name === 'NodePorts'));
    assert.deepEqual(p.scores.map((s) => [s.plugin.name, s.weight]), [['NodeResourcesFit', 7]]);
    assert.equal(p.preemption, false);
  });

  const refused: [string, string, RegExp][] = [
    ['an unknown plugin', 'profiles: [{plugins: {filter: {enabled: [{name: Nope}]}}}]\n', /creating profile for scheduler name default-scheduler: "Nope" does not exist/],
    ['a plugin not built here', 'profiles: [{plugins: {filter: {enabled: [{name: EBSLimits}]}}}]\n', /plugin "EBSLimits" is not implemented/],
    ['a plugin at a point it does not extend', 'profiles: [{plugins: {score: {enabled: [{name: NodePorts}]}}}]\n', /plugin "NodePorts" does not extend score plugin/],
  ];
  for (const [name, yaml, want] of refused) it(`refuses ${name}`, () => assert.throws(() => build(yaml), want));
});
