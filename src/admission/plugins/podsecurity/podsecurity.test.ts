// The PodSecurity plugin: enforce/warn/audit on pods, workloads on their templates, namespace label changes,
// exemptions; texts from the golden transcript admission-04-pod-security-enforce (kube-apiserver).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError, newNotFound } from '../../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { parsePodSecurityConfiguration } from './config.js';
import { podSecurityPlugin, type PodSecurityDeps } from './podsecurity.js';

const NS = 'admission-04-pod-security-enforce';
const GOLDEN_LABELS = { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'restricted' };

function namespaces(labels: Record<string, Record<string, string>>): PodSecurityDeps['namespaces'] {
  return () => ({
    get: async (_ns: string, name: string): Promise<ApiObject> => {
      if (!labels[name]) throw newNotFound({ group: '', resource: 'namespaces' }, name);
      return { metadata: { name, labels: labels[name] } };
    },
  });
}

interface Seen {
  warnings: string[];
  annotations: Record<string, string>;
}
function attrs(over: Partial<AdmissionAttributes> & { object: ApiObject }, seen: Seen): AdmissionAttributes {
  return {
    operation: 'CREATE' as AdmissionOperation,
    oldObject: undefined,
    resource: { group: '', version: 'v1', resource: 'pods', kind: 'Pod' },
    namespace: NS,
    name: over.object.metadata.name ?? '',
    namespaced: true,
    dryRun: false,
    user: { name: 'alice', groups: ['system:authenticated'] },
    warn: (t) => seen.warnings.push(t),
    annotate: (k, v) => (seen.annotations[k] = v),
    ...over,
  };
}
const pod = (name: string, spec: object, annotations?: Record<string, string>): ApiObject => ({ metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) }, spec });
const app = (securityContext?: object, extra: object = {}) => ({ name: 'app', image: 'registry.example/app:1.0', ...(securityContext ? { securityContext } : {}), ...extra });

/** Runs the plugin; returns the warnings, the audit annotations and the error (status) if any. */
async function admit(plugin: ReturnType<typeof podSecurityPlugin>, over: Partial<AdmissionAttributes> & { object: ApiObject }) {
  const seen: Seen = { warnings: [], annotations: {} };
  try {
    await plugin.admit(attrs(over, seen));
    return { ...seen, error: undefined };
  } catch (err) {
    if (!isStatusError(err)) throw err;
    return { ...seen, error: err.status };
  }
}

const RESTRICTED_WARNING =
  'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('PodSecurity plugin: pods and workloads (golden transcript)', () => {
  const plugin = podSecurityPlugin({ namespaces: namespaces({ [NS]: GOLDEN_LABELS }) });
  it('is a validating plugin named PodSecurity', () => {
    assert.equal(plugin.name, 'PodSecurity');
    assert.equal(plugin.phase, 'validating');
  });
  it('a restricted pod: no warning', async () => {
    const r = await admit(plugin, { object: pod('restricted', { containers: [app({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })], securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } } }) });
    assert.deepEqual([r.error, r.warnings], [undefined, []]);
    assert.equal(r.annotations['pod-security.kubernetes.io/enforce-policy'], 'baseline:latest');
  });
  it('a baseline pod: allowed, warned and audited about restricted', async () => {
    const r = await admit(plugin, { object: pod('baseline', { containers: [app()] }) });
    assert.equal(r.error, undefined);
    assert.deepEqual(r.warnings, [RESTRICTED_WARNING]);
    assert.equal(r.annotations['pod-security.kubernetes.io/audit-violations'], RESTRICTED_WARNING);
  });
  const forbidden: [string, ApiObject, string][] = [
    ['privileged', pod('privileged', { containers: [app({ privileged: true })] }), 'pods "privileged" is forbidden: violates PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)'],
    [
      'host namespaces, hostPath, hostPort',
      pod('host', { containers: [app(undefined, { ports: [{ containerPort: 80, hostPort: 80 }] })], hostNetwork: true, hostPID: true, volumes: [{ name: 'root', hostPath: { path: '/' } }] }),
      'pods "host" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true, hostPID=true), hostPath volumes (volume "root"), hostPort (container "app" uses hostPort 80)',
    ],
    ['capabilities', pod('caps', { containers: [app({ capabilities: { add: ['NET_ADMIN', 'SYS_TIME'] } })] }), 'pods "caps" is forbidden: violates PodSecurity "baseline:latest": non-default capabilities (container "app" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)'],
  ];
  for (const [what, object, message] of forbidden) {
    it(`${what}: 403 without warnings`, async () => {
      for (const dryRun of [false, true]) {
        const r = await admit(plugin, { object, dryRun });
        assert.deepEqual(r.error, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: { name: object.metadata.name, kind: 'pods' }, code: 403 });
        assert.deepEqual(r.warnings, []);
      }
    });
  }
  it('a Deployment with a privileged template: warnings only', async () => {
    const deployment: ApiObject = { metadata: { name: 'priv', namespace: NS }, spec: { selector: { matchLabels: { app: 'priv' } }, template: { metadata: { labels: { app: 'priv' } }, spec: { containers: [app({ privileged: true })] } } } };
    const r = await admit(plugin, { object: deployment, resource: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' } });
    assert.equal(r.error, undefined);
    assert.deepEqual(r.warnings, [
      'would violate PodSecurity "restricted:latest": privileged (container "app" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ]);
  });
  it('a CronJob is checked on its job template; a ReplicationController without a template is not checked', async () => {
    const cron: ApiObject = { metadata: { name: 'c', namespace: NS }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { hostIPC: true, containers: [app()] } } } } } };
    const r = await admit(plugin, { object: cron, resource: { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob' } });
    assert.equal(r.error, undefined);
    assert.match(r.warnings[0]!, /^would violate PodSecurity "restricted:latest": host namespaces \(hostIPC=true\), allowPrivilegeEscalation/);
    const rc = await admit(plugin, { object: { metadata: { name: 'rc', namespace: NS }, spec: { replicas: 0 } }, resource: { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController' } });
    assert.deepEqual([rc.error, rc.warnings], [undefined, []]);
  });
  it('other resources and DELETE are not looked at', async () => {
    const r = await admit(plugin, { object: { metadata: { name: 'cm' } }, resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' } });
    assert.deepEqual([r.error, r.warnings], [undefined, []]);
    const d = await admit(plugin, { operation: 'DELETE', object: pod('privileged', { containers: [app({ privileged: true })] }) });
    assert.equal(d.error, undefined);
  });
  it('a pod update that only changes metadata is not re-checked; a new image is', async () => {
    const old = pod('baseline', { containers: [app({ privileged: true })] });
    const labelled = { ...old, metadata: { ...old.metadata, labels: { touched: 'yes' } } };
    const r = await admit(plugin, { operation: 'UPDATE', object: labelled, oldObject: old });
    assert.deepEqual([r.error, r.warnings], [undefined, []]);
    const reimaged = pod('baseline', { containers: [app({ privileged: true }, { image: 'registry.example/app:2.0' })] });
    const u = await admit(plugin, { operation: 'UPDATE', object: reimaged, oldObject: old });
    assert.equal(u.error?.code, 403);
  });
  it('ignored pod subresources (status, exec…) are not checked; ephemeralcontainers is', async () => {
    const object = pod('p', { containers: [app({ privileged: true })] });
    assert.equal((await admit(plugin, { object, operation: 'UPDATE', oldObject: object, subresource: 'status' })).error, undefined);
    const withEphemeral = pod('p', { containers: [app()], ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }] });
    const r = await admit(plugin, { object: withEphemeral, operation: 'UPDATE', oldObject: pod('p', { containers: [app()] }), subresource: 'ephemeralcontainers' });
    assert.equal(r.error?.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)');
  });
  it('a namespace that cannot be read: 500', async () => {
    const r = await admit(plugin, { object: pod('p', { containers: [app()] }), namespace: 'missing' });
    assert.equal(r.error?.code, 500);
    assert.equal(r.error?.message, 'failed to lookup namespace missing');
    assert.equal(r.error?.reason, 'InternalError');
  });
});

describe('PodSecurity plugin: levels, versions and defaults', () => {
  it('svc.io labels and pinned versions: runAsUser=0 only counts from v1.23', async () => {
    const spec = { securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } }, containers: [app({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })] };
    const at = (version: string) => podSecurityPlugin({ namespaces: namespaces({ [NS]: { 'pod-security.svc.io/enforce': 'restricted', 'pod-security.svc.io/enforce-version': version } }) });
    assert.equal((await admit(at('v1.22'), { object: pod('p', spec) })).error, undefined);
    assert.equal((await admit(at('v1.23'), { object: pod('p', spec) })).error?.message, 'pods "p" is forbidden: violates PodSecurity "restricted:v1.23": runAsUser=0 (pod must not set runAsUser=0)');
  });
  it('an invalid enforce label enforces restricted:latest and records the parse error', async () => {
    const plugin = podSecurityPlugin({ namespaces: namespaces({ [NS]: { 'pod-security.kubernetes.io/enforce': 'bogus' } }) });
    const r = await admit(plugin, { object: pod('p', { containers: [app()] }) });
    assert.match(r.error!.message!, /^pods "p" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
    assert.equal(r.annotations['pod-security.kubernetes.io/error'], 'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: must be one of privileged, baseline, restricted');
  });
  it('the configured defaults apply to namespaces without labels', async () => {
    const config = parsePodSecurityConfiguration('apiVersion: pod-security.admission.config.svc.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n  warn: restricted\n');
    const plugin = podSecurityPlugin({ namespaces: namespaces({ [NS]: {} }), config });
    assert.equal((await admit(plugin, { object: pod('x', { hostPID: true, containers: [app()] }) })).error?.message, 'pods "x" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)');
    assert.deepEqual((await admit(plugin, { object: pod('y', { containers: [app()] }) })).warnings, [RESTRICTED_WARNING]);
  });
  it('warn at the same level and version as audit reuses the evaluation; same text', async () => {
    const plugin = podSecurityPlugin({ namespaces: namespaces({ [NS]: { 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/audit': 'baseline' } }) });
    const r = await admit(plugin, { object: pod('p', { containers: [app({ privileged: true })] }) });
    assert.equal(r.error, undefined);
    assert.deepEqual(r.warnings, ['would violate PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)']);
  });
});

describe('PodSecurity plugin: exemptions', () => {
  const config = parsePodSecurityConfiguration({
    apiVersion: 'pod-security.admission.config.k8s.io/v1',
    kind: 'PodSecurityConfiguration',
    defaults: { enforce: 'restricted' },
    exemptions: { usernames: ['system:serviceaccount:svc-system:replicaset-controller'], runtimeClasses: ['kata'], namespaces: ['svc-system'] },
  });
  const plugin = podSecurityPlugin({ namespaces: namespaces({ [NS]: {}, 'svc-system': {} }), config });
  const bad = (extra: object = {}) => pod('p', { hostNetwork: true, containers: [app()], ...extra });
  it('an exempt namespace', async () => {
    const r = await admit(plugin, { object: bad(), namespace: 'svc-system' });
    assert.equal(r.error, undefined);
    assert.equal(r.annotations['pod-security.kubernetes.io/exempt'], 'namespace');
  });
  it('an exempt user', async () => {
    const r = await admit(plugin, { object: bad(), user: { name: 'system:serviceaccount:svc-system:replicaset-controller', groups: [] } });
    assert.equal(r.error, undefined);
    assert.equal(r.annotations['pod-security.kubernetes.io/exempt'], 'user');
  });
  it('an exempt runtime class', async () => {
    const r = await admit(plugin, { object: bad({ runtimeClassName: 'kata' }) });
    assert.equal(r.error, undefined);
    assert.equal(r.annotations['pod-security.kubernetes.io/exempt'], 'runtimeClass');
  });
  it('anyone else is held to the default', async () => assert.equal((await admit(plugin, { object: bad({ runtimeClassName: 'runc' }) })).error?.code, 403));
});

describe('PodSecurity plugin: namespaces', () => {
  const nsObj = (labels: Record<string, string>): ApiObject => ({ metadata: { name: 'team', labels } });
  const nsAttrs = { resource: { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace' }, namespace: 'team', namespaced: false };
  const existing: ApiObject[] = [
    pod('web-b', { containers: [app({ privileged: true })] }),
    pod('web-a', { containers: [app({ privileged: true })] }),
    pod('web-c', { containers: [app({ privileged: true })] }),
    pod('host', { hostNetwork: true, containers: [app()] }),
    pod('fine', { containers: [app()] }),
    pod('sandboxed', { runtimeClassName: 'kata', containers: [app({ privileged: true })] }),
  ];
  const config = parsePodSecurityConfiguration({ apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { runtimeClasses: ['kata'], namespaces: ['exempt'] } });
  const plugin = podSecurityPlugin({ namespaces: namespaces({}), pods: async (ns) => (ns === 'team' ? existing : []), config });

  it('invalid labels on create: 422', async () => {
    const r = await admit(plugin, { ...nsAttrs, object: nsObj({ 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn-version': '1.27' }) });
    assert.deepEqual(r.error, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Namespace "team" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.27": must be "latest" or "v1.x"]',
      reason: 'Invalid',
      details: {
        name: 'team',
        kind: 'Namespace',
        causes: [
          { reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "1.27": must be "latest" or "v1.x"', field: 'metadata.labels[pod-security.kubernetes.io/warn-version]' },
        ],
      },
      code: 422,
    });
  });
  it('an update keeping the same invalid labels is allowed; a new invalid value is not', async () => {
    const old = nsObj({ 'pod-security.svc.io/audit': 'loud' });
    assert.equal((await admit(plugin, { ...nsAttrs, operation: 'UPDATE', oldObject: old, object: nsObj({ 'pod-security.svc.io/audit': 'loud', other: 'x' }) })).error, undefined);
    assert.equal((await admit(plugin, { ...nsAttrs, operation: 'UPDATE', oldObject: old, object: nsObj({ 'pod-security.svc.io/audit': 'louder' }) })).error?.code, 422);
  });
  it('a stricter enforce level warns about the pods already there', async () => {
    const r = await admit(plugin, { ...nsAttrs, operation: 'UPDATE', oldObject: nsObj({}), object: nsObj({ 'pod-security.kubernetes.io/enforce': 'baseline' }) });
    assert.equal(r.error, undefined);
    assert.deepEqual(r.warnings, ['existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"', 'host: host namespaces', 'web-a (and 2 other pods): privileged']);
  });
  it('restricted: one line per distinct set of reasons, sorted', async () => {
    const r = await admit(plugin, { ...nsAttrs, operation: 'UPDATE', oldObject: nsObj({ 'pod-security.kubernetes.io/enforce': 'baseline' }), object: nsObj({ 'pod-security.kubernetes.io/enforce': 'restricted' }) });
    assert.deepEqual(r.warnings, [
      'existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:latest"',
      'fine: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'host: host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'web-a (and 2 other pods): privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
  });
  const quiet: [string, Record<string, string>, Record<string, string>, string?][] = [
    ['unchanged enforce', { 'pod-security.kubernetes.io/enforce': 'baseline' }, { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' }],
    ['relaxed to privileged', { 'pod-security.kubernetes.io/enforce': 'baseline' }, { 'pod-security.kubernetes.io/enforce': 'privileged' }],
    ['relaxed at the same version', { 'pod-security.kubernetes.io/enforce': 'restricted' }, { 'pod-security.kubernetes.io/enforce': 'baseline' }],
    ['an exempt namespace', {}, { 'pod-security.kubernetes.io/enforce': 'restricted' }, 'exempt'],
  ];
  for (const [what, before, after, name] of quiet) {
    it(`no pod warnings: ${what}`, async () => {
      const o = (l: Record<string, string>) => ({ metadata: { name: name ?? 'team', labels: l } });
      const r = await admit(plugin, { ...nsAttrs, namespace: name ?? 'team', operation: 'UPDATE', oldObject: o(before), object: o(after) });
      assert.deepEqual([r.error, r.warnings], [undefined, []]);
    });
  }
  it('a changed version with a relaxed level still checks the pods', async () => {
    const r = await admit(plugin, { ...nsAttrs, operation: 'UPDATE', oldObject: nsObj({ 'pod-security.kubernetes.io/enforce': 'restricted' }), object: nsObj({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.26' }) });
    assert.equal(r.warnings[0], 'existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:v1.26"');
  });
  it('pods that cannot be listed: one warning', async () => {
    const failing = podSecurityPlugin({ namespaces: namespaces({}), pods: () => Promise.reject(new Error('down')) });
    const r = await admit(failing, { ...nsAttrs, operation: 'UPDATE', oldObject: nsObj({}), object: nsObj({ 'pod-security.kubernetes.io/enforce': 'baseline' }) });
    assert.deepEqual(r.warnings, ['failed to list pods while checking new PodSecurity enforce level']);
  });
});

describe('PodSecurity plugin: the namespace read at once', () => {
  const labelSets: Record<string, Record<string, string>> = {
    [NS]: GOLDEN_LABELS,
    restricted: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.27' },
    bogus: { 'pod-security.kubernetes.io/enforce': 'bogus' },
  };
  const asked = podSecurityPlugin({ namespaces: namespaces(labelSets) });
  // a current watch cache: the namespace at once (the asynchronous read must not be needed)
  const atOnce = podSecurityPlugin({
    namespaces: () => ({ get: async () => assert.fail('read although known at once') }),
    namespaceNow: (name) => (labelSets[name] ? { metadata: { name, labels: labelSets[name] } } : undefined),
  });
  const pods = [
    pod('restricted', { containers: [app({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })], securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } } }),
    pod('baseline', { containers: [app()] }),
    pod('privileged', { containers: [app({ privileged: true })] }),
  ];
  for (const namespace of Object.keys(labelSets)) {
    for (const p of pods) {
      it(`${p.metadata.name} in ${namespace}: the same answer, without a promise`, async () => {
        const want = await admit(asked, { object: structuredClone(p), namespace });
        const seen: Seen = { warnings: [], annotations: {} };
        let answered: unknown;
        let error: unknown;
        try {
          answered = atOnce.admit(attrs({ object: structuredClone(p), namespace }, seen));
        } catch (err) {
          error = isStatusError(err) ? err.status : err;
        }
        assert.equal(answered, undefined, 'no promise');
        assert.deepEqual({ ...seen, error }, want);
      });
    }
  }
});
