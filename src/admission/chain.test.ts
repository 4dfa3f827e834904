// The chain: kube's order whatever the flags' order, defaults, unknown and
// unavailable names, and the phases of the plugins built from a plan.
import { DEFAULT_GATES } from '../features/gates.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALL_ORDERED_PLUGINS, AdmissionChainError, DEFAULT_ON_PLUGINS, buildAdmissionPlugins, enabledPluginNames, planAdmission,
  serverDefaultPlugins, validateAdmissionFlags, type AdmissionFlags,
} from './chain.js';
import { PLUGIN_FACTORIES, type PluginContext, type PluginFactory } from './plugins/index.js';
import { Admission, type AdmissionAttributes, type AdmissionPlugin } from '../registry/admission.js';
import { tempDir } from '../testing/tempdir.js';
import { isStatusError } from '../api/meta/index.js';

const deps = { gates: DEFAULT_GATES } as Omit<PluginContext, 'config'>;

describe('admission chain: names', () => {
  it('knows the 36 plugins of v1.27, each once, AlwaysAdmit first and AlwaysDeny last', () => {
    assert.equal(ALL_ORDERED_PLUGINS.length, 36);
    assert.equal(new Set(ALL_ORDERED_PLUGINS).size, 36);
    assert.equal(ALL_ORDERED_PLUGINS[0], 'AlwaysAdmit');
    assert.equal(ALL_ORDERED_PLUGINS.at(-1), 'AlwaysDeny');
    assert.deepEqual(ALL_ORDERED_PLUGINS.slice(-5), ['MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny']);
  });
  it("v1.27's default-on set has 20 known plugins", () => {
    assert.equal(DEFAULT_ON_PLUGINS.size, 20);
    for (const n of DEFAULT_ON_PLUGINS) assert.ok(ALL_ORDERED_PLUGINS.includes(n), n);
  });
  it('every implemented plugin is a known name', () => {
    for (const n of PLUGIN_FACTORIES.keys()) assert.ok(ALL_ORDERED_PLUGINS.includes(n), n);
  });
  it("the server's default is the implemented default-on plugins, in order", () => {
    assert.deepEqual(serverDefaultPlugins(), ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
    const all = new Map<string, PluginFactory>(ALL_ORDERED_PLUGINS.map((n) => [n, () => ({ name: n, admit() {} })]));
    assert.deepEqual(serverDefaultPlugins(all), ALL_ORDERED_PLUGINS.filter((n) => DEFAULT_ON_PLUGINS.has(n)), 'grows to kube\'s default when all exist');
  });
});

describe('admission chain: enabled plugins', () => {
  const defaults = ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota'];
  const without = (...names: string[]) => defaults.filter((n) => !names.includes(n));
  const rows: [string, AdmissionFlags, string[]][] = [
    ['no flags: the defaults', {}, defaults],
    ['enable in any order: kube\'s order', { enable: ['AlwaysDeny', 'AlwaysAdmit'] }, ['AlwaysAdmit', ...defaults, 'AlwaysDeny']],
    ['the same, the other way round', { enable: ['AlwaysAdmit', 'AlwaysDeny'] }, ['AlwaysAdmit', ...defaults, 'AlwaysDeny']],
    ['disable a default', { disable: ['NamespaceLifecycle'] }, without('NamespaceLifecycle')],
    ['disable several, any order', { disable: ['StorageObjectInUseProtection', 'Priority'] }, without('Priority', 'StorageObjectInUseProtection')],
    ['enabling a default changes nothing', { enable: ['Priority'] }, defaults],
    ['disabling an off plugin changes nothing', { disable: ['AlwaysDeny'] }, defaults],
    ['disable ValidatingAdmissionPolicy', { disable: ['ValidatingAdmissionPolicy'] }, without('ValidatingAdmissionPolicy')],
    ['duplicates count once', { enable: ['AlwaysDeny', 'AlwaysDeny'] }, [...defaults, 'AlwaysDeny']],
  ];
  for (const [what, flags, want] of rows) {
    it(what, () => {
      assert.deepEqual(validateAdmissionFlags(flags), []);
      assert.deepEqual(enabledPluginNames(flags), want);
      assert.deepEqual(planAdmission(flags).names, want);
    });
  }
});

describe('admission chain: refused flags (kube\'s messages)', () => {
  const rows: [string, AdmissionFlags, string][] = [
    ['unknown enable', { enable: ['Foo'] }, 'enable-admission-plugins plugin "Foo" is unknown'],
    ['unknown disable', { disable: ['Bar'] }, 'disable-admission-plugins plugin "Bar" is unknown'],
    ['names are case-sensitive', { enable: ['alwaysdeny'] }, 'enable-admission-plugins plugin "alwaysdeny" is unknown'],
    ['in both lists', { enable: ['AlwaysDeny', 'Priority'], disable: ['Priority', 'AlwaysDeny'] }, '[AlwaysDeny Priority] in enable-admission-plugins and disable-admission-plugins overlapped'],
  ];
  for (const [what, flags, message] of rows) {
    it(what, () => {
      assert.deepEqual(validateAdmissionFlags(flags), [message]);
      assert.throws(() => planAdmission(flags), (e: unknown) => e instanceof AdmissionChainError && e.message === message);
    });
  }
  it('reports every problem', () => {
    assert.deepEqual(validateAdmissionFlags({ enable: ['A'], disable: ['B'] }), ['enable-admission-plugins plugin "A" is unknown', 'disable-admission-plugins plugin "B" is unknown']);
  });
  it('a known plugin that is not implemented yet fails the start', () => {
    const none = new Map<string, PluginFactory>();
    assert.throws(() => planAdmission({ enable: ['ValidatingAdmissionPolicy', 'ImagePolicyWebhook'], disable: [...DEFAULT_ON_PLUGINS].filter((n) => n !== 'ValidatingAdmissionPolicy') }, none),
      (e: unknown) => (e as Error).message === 'admission plugin "ImagePolicyWebhook" is not available yet; admission plugin "ValidatingAdmissionPolicy" is not available yet');
  });
});

describe('admission chain: configuration handed to the factories', () => {
  it('gives each plugin its own configuration, undefined without one', () => {
    const dir = tempDir('svc-admcfg-');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'deny.yaml'), 'apiVersion: example/v1\nkind: DenyConfig\nreason: x\n');
    writeFileSync(join(dir, 'admission.yaml'), [
      'apiVersion: apiserver.config.svc.io/v1', 'kind: AdmissionConfiguration', 'plugins:',
      '- name: AlwaysDeny', '  path: sub/deny.yaml',
      '- name: AlwaysAdmit', '  configuration: {apiVersion: example/v1, kind: AdmitConfig}',
    ].join('\n'));
    const seen = new Map<string, unknown>();
    const spy = new Map<string, PluginFactory>([...PLUGIN_FACTORIES].map(([n, f]) => [n, (ctx: PluginContext) => (seen.set(n, ctx.config), f(ctx))]));
    const plan = planAdmission({ enable: ['AlwaysDeny', 'AlwaysAdmit'], disable: ['NamespaceLifecycle', 'Priority'], configFile: join(dir, 'admission.yaml') }, spy);
    const plugins = buildAdmissionPlugins(plan, deps, spy);
    assert.deepEqual(plugins.map((p) => p.name), ['AlwaysAdmit', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny']);
    assert.deepEqual(seen.get('AlwaysDeny'), { apiVersion: 'example/v1', kind: 'DenyConfig', reason: 'x' });
    assert.deepEqual(seen.get('AlwaysAdmit'), { apiVersion: 'example/v1', kind: 'AdmitConfig' });
    assert.equal(seen.get('DefaultTolerationSeconds'), undefined);
  });
  it('a bad configuration file fails the plan with the file named', () => {
    const dir = tempDir('svc-admcfg-');
    const file = join(dir, 'a.yaml');
    writeFileSync(file, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- path: x.yaml\n');
    assert.throws(() => planAdmission({ configFile: file }), (e: unknown) => e instanceof AdmissionChainError && e.message === `failed to read plugin config: ${file}: plugins[0].name: Required value: a plugin name`);
    assert.throws(() => planAdmission({ configFile: join(dir, 'missing.yaml') }), /failed to read plugin config: unable to read admission control configuration from ".*missing\.yaml" \[/);
  });
});

describe('admission chain: phases', () => {
  const attrs = (): AdmissionAttributes => ({
    operation: 'CREATE', object: { metadata: { name: 'x' } }, oldObject: undefined,
    resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, namespace: 'default', name: 'x', namespaced: true, dryRun: false, user: undefined,
  });
  it('runs every mutating step in order, then every validating step in order', async () => {
    const log: string[] = [];
    const p = (name: string, phase: 'mutating' | 'validating', both = false): AdmissionPlugin => ({
      name, phase, admit: () => void log.push(`${name}:${phase === 'mutating' ? 'mutate' : 'validate'}`),
      ...(both ? { validate: () => void log.push(`${name}:validate`) } : {}),
    });
    const a = new Admission([p('A', 'mutating', true), p('B', 'validating'), p('C', 'mutating'), p('D', 'mutating', true)]);
    await a.mutate(attrs());
    await a.admit(attrs());
    assert.deepEqual(log, ['A:mutate', 'C:mutate', 'D:mutate', 'A:validate', 'B:validate', 'D:validate']);
    assert.deepEqual(a.names(), ['A', 'B', 'C', 'D']);
  });
  it('AlwaysDeny refuses in both phases with kube\'s 403', async () => {
    const [deny] = buildAdmissionPlugins({ names: ['AlwaysDeny'], configs: new Map() }, deps);
    const a = new Admission([deny!]);
    for (const phase of [() => a.mutate(attrs()), () => a.admit(attrs())]) {
      await assert.rejects(phase, (e: unknown) => isStatusError(e) && e.status.code === 403 && e.status.reason === 'Forbidden' &&
        e.status.message === 'configmaps "x" is forbidden: admission control is denying all modifications');
    }
  });
  it('AlwaysAdmit admits in both phases', async () => {
    const a = new Admission(buildAdmissionPlugins({ names: ['AlwaysAdmit'], configs: new Map() }, deps));
    await a.mutate(attrs());
    await a.admit(attrs());
  });
});
