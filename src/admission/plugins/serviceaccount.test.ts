// ServiceAccount admission: defaulting, the token volume, pull secrets, and
// kube's refusals (golden admission-06 and admission-12, svc spellings).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError, newNotFound } from '../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { serviceAccountPlugin, tokenVolumeSource, type ServiceAccountDeps } from './serviceaccount.js';

const NS = 'ns';
const accounts: Record<string, ApiObject> = {
  runner: { metadata: { name: 'runner', namespace: NS }, imagePullSecrets: [{ name: 'registry-creds' }] } as ApiObject,
  quiet: { metadata: { name: 'quiet', namespace: NS }, automountServiceAccountToken: false } as ApiObject,
  strict: {
    metadata: { name: 'strict', namespace: NS, annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } },
    secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'pull-ok' }],
  } as ApiObject,
};

function deps(opts: { withDefault?: boolean; lookups?: string[]; sleeps?: number[] } = {}) {
  const known = (name: string) => (name === 'default' && opts.withDefault ? { metadata: { name: 'default', namespace: NS } } as ApiObject : accounts[name]);
  return {
    /** Whether the account reads are counted (then each request runs once, with the asynchronous reads only). */
    observed: Boolean(opts.lookups ?? opts.sleeps),
    /** The account as a current watch cache has it (undefined: missing, asked for as before). */
    known,
    getServiceAccount: async (ns: string, name: string) => {
      opts.lookups?.push(`${ns}/${name}`);
      const sa = known(name);
      if (!sa) throw newNotFound({ group: '', resource: 'serviceaccounts' }, name);
      return structuredClone(sa);
    },
    sleep: async (ms: number) => void opts.sleeps?.push(ms),
    randomSuffix: () => 'abcde',
  };
}

function attrs(spec: Record<string, unknown>, meta: Record<string, unknown> = {}, op: AdmissionOperation = 'CREATE', subresource?: string): AdmissionAttributes {
  const pod = { metadata: { name: 'p', namespace: NS, ...meta }, spec: { containers: [{ name: 'app', image: 'x' }], ...spec } } as ApiObject;
  return {
    operation: op, object: pod, oldObject: op === 'UPDATE' ? structuredClone(pod) : undefined,
    resource: { group: '', version: 'v1', resource: 'pods', kind: 'Pod' }, namespace: NS, name: 'p', namespaced: true, dryRun: false,
    user: { name: 'u', groups: [] }, ...(subresource ? { subresource } : {}),
  };
}

const MOUNTS = [
  { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/svc.io/serviceaccount' },
  { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
];
const VOLUME = { name: 'kube-api-access-abcde', projected: tokenVolumeSource() };
const MIRROR = { annotations: { 'kubernetes.io/config.mirror': 'hash' } };

async function run(a: AdmissionAttributes, d = deps(), phase: 'mutating' | 'validating' = 'mutating'): Promise<string | null> {
  if (!d.observed) {
    // the same request with the accounts known at once (a current watch cache): the same answer and the same pod
    const b = structuredClone(a);
    const atOnce = await runOnce(b, { ...d, getServiceAccountNow: (_ns: string, name: string) => d.known(name) }, phase);
    const result = await runOnce(a, d, phase);
    assert.equal(atOnce, result, 'read at once: the same answer');
    assert.deepEqual(b.object, a.object, 'read at once: the same pod');
    return result;
  }
  return runOnce(a, d, phase);
}

async function runOnce(a: AdmissionAttributes, d: ServiceAccountDeps, phase: 'mutating' | 'validating'): Promise<string | null> {
  try {
    const plugin = serviceAccountPlugin(d);
    await (phase === 'mutating' ? plugin.admit(a) : plugin.validate!(a));
    return null;
  } catch (err) {
    if (!isStatusError(err)) throw err;
    assert.equal(err.status.code, 403);
    return err.status.message ?? '';
  }
}

describe('ServiceAccount: refusals', () => {
  const rows: [string, AdmissionAttributes, string][] = [
    ['the default account missing', attrs({}), 'pods "p" is forbidden: error looking up service account ns/default: serviceaccount "default" not found'],
    ['a named account missing', attrs({ serviceAccountName: 'ghost' }), 'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found'],
    ['a mirror pod with an account', attrs({ serviceAccountName: 'runner' }, MIRROR), 'pods "p" is forbidden: a mirror pod may not reference service accounts'],
    ['a mirror pod with a secret', attrs({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }, { annotations: { 'svc.io/config.mirror': 'h' } }),
      'pods "p" is forbidden: a mirror pod may not reference secrets'],
    ['a mirror pod with a token projection', attrs({ volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, MIRROR),
      'pods "p" is forbidden: a mirror pod may not use ServiceAccountToken volume projections'],
    ['a secret volume the account does not list', attrs({ serviceAccountName: 'strict', volumes: [{ name: 'v', secret: { secretName: 'nope' } }], automountServiceAccountToken: false }),
      'pods "p" is forbidden: volume with secret.secretName="nope" is not allowed because service account strict does not reference that secret'],
    ['an init container secret env', attrs({ serviceAccountName: 'strict', automountServiceAccountToken: false, initContainers: [{ name: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] }] }),
      'pods "p" is forbidden: init container i with envVar E referencing secret.secretName="nope" is not allowed because service account strict does not reference that secret'],
    ['a pull secret the account does not list', attrs({ serviceAccountName: 'strict', automountServiceAccountToken: false, imagePullSecrets: [{ name: 'pull-ok' }, { name: 'other' }] }),
      'pods "p" is forbidden: imagePullSecrets[1].name="other" is not allowed because service account strict does not reference that imagePullSecret'],
  ];
  for (const [what, a, want] of rows) it(what, async () => assert.equal(await run(a), want));

  it('asks ten times for the default account, waiting 100-199 ms between', async () => {
    const lookups: string[] = [];
    const sleeps: number[] = [];
    await run(attrs({}), deps({ lookups, sleeps }));
    assert.equal(lookups.length, 10);
    assert.equal(sleeps.length, 9);
    assert.ok(sleeps.every((ms) => ms >= 100 && ms < 200));
  });
  it('asks once for another account', async () => {
    const lookups: string[] = [];
    await run(attrs({ serviceAccountName: 'ghost' }), deps({ lookups }));
    assert.deepEqual(lookups, ['ns/ghost']);
  });
  it('the mutating step reads an existing account once (its check of the pod uses it)', async () => {
    const lookups: string[] = [];
    assert.equal(await run(attrs({ serviceAccountName: 'strict', automountServiceAccountToken: false }), deps({ lookups })), null);
    assert.deepEqual(lookups, ['ns/strict']);
  });
});

describe('ServiceAccount: the pod it makes', () => {
  const rows: [string, AdmissionAttributes, Record<string, unknown>][] = [
    ['automount with the account\'s pull secrets', attrs({ serviceAccountName: 'runner' }), {
      containers: [{ name: 'app', image: 'x', volumeMounts: MOUNTS }], serviceAccountName: 'runner', volumes: [VOLUME], imagePullSecrets: [{ name: 'registry-creds' }],
    }],
    ['the default account, automount off in the pod', attrs({ automountServiceAccountToken: false }, {}), {
      containers: [{ name: 'app', image: 'x' }], automountServiceAccountToken: false, serviceAccountName: 'default', serviceAccount: 'default',
    }],
    ['the account turns automount off', attrs({ serviceAccountName: 'quiet' }), { containers: [{ name: 'app', image: 'x' }], serviceAccountName: 'quiet' }],
    ['the pod overrides its account', attrs({ serviceAccountName: 'quiet', automountServiceAccountToken: true }), {
      containers: [{ name: 'app', image: 'x', volumeMounts: MOUNTS }], serviceAccountName: 'quiet', automountServiceAccountToken: true, volumes: [VOLUME],
    }],
    ['a container with its own mount at the token path', attrs({
      serviceAccountName: 'runner', volumes: [{ name: 'mine', emptyDir: {} }],
      containers: [{ name: 'app', image: 'x', volumeMounts: [{ name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }],
    }), {
      serviceAccountName: 'runner', volumes: [{ name: 'mine', emptyDir: {} }], imagePullSecrets: [{ name: 'registry-creds' }],
      containers: [{ name: 'app', image: 'x', volumeMounts: [{ name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }],
    }],
    ['init containers too, ephemeral ones not', attrs({
      serviceAccountName: 'quiet', automountServiceAccountToken: true,
      initContainers: [{ name: 'i', image: 'x' }], ephemeralContainers: [{ name: 'e', image: 'x' }],
    }), {
      serviceAccountName: 'quiet', automountServiceAccountToken: true, volumes: [VOLUME],
      initContainers: [{ name: 'i', image: 'x', volumeMounts: MOUNTS }], containers: [{ name: 'app', image: 'x', volumeMounts: MOUNTS }],
      ephemeralContainers: [{ name: 'e', image: 'x' }],
    }],
    ['an existing token volume is reused', attrs({
      serviceAccountName: 'quiet', automountServiceAccountToken: true, volumes: [{ name: 'kube-api-access-zzzzz', projected: {} }],
    }), {
      serviceAccountName: 'quiet', automountServiceAccountToken: true, volumes: [{ name: 'kube-api-access-zzzzz', projected: {} }],
      containers: [{ name: 'app', image: 'x', volumeMounts: MOUNTS.map((m) => ({ ...m, name: 'kube-api-access-zzzzz' })) }],
    }],
    ['pull secrets of its own are kept', attrs({ serviceAccountName: 'runner', automountServiceAccountToken: false, imagePullSecrets: [{ name: 'mine' }] }), {
      containers: [{ name: 'app', image: 'x' }], serviceAccountName: 'runner', automountServiceAccountToken: false, imagePullSecrets: [{ name: 'mine' }],
    }],
    ['a mirror pod is left alone', attrs({ nodeName: 'n1' }, MIRROR), { containers: [{ name: 'app', image: 'x' }], nodeName: 'n1' }],
    ['allowed secrets of an enforcing account', attrs({ serviceAccountName: 'strict', automountServiceAccountToken: false, volumes: [{ name: 'v', secret: { secretName: 'ok' } }] }), {
      containers: [{ name: 'app', image: 'x' }], serviceAccountName: 'strict', automountServiceAccountToken: false,
      volumes: [{ name: 'v', secret: { secretName: 'ok' } }], imagePullSecrets: [{ name: 'pull-ok' }],
    }],
  ];
  for (const [what, a, want] of rows) {
    it(what, async () => {
      assert.equal(await run(a, deps({ withDefault: true })), null);
      assert.deepEqual(a.object!.spec, want);
    });
  }
  it('the token volume: 3607 s, the root CA ConfigMap, the namespace, mode 0644', () => {
    assert.deepEqual(tokenVolumeSource(), {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'svc-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    });
  });
  it('updates are not changed', async () => {
    const a = attrs({ serviceAccountName: 'runner' }, {}, 'UPDATE');
    assert.equal(await run(a), null);
    assert.equal((a.object!.spec as Record<string, unknown>).volumes, undefined);
  });
});

describe('ServiceAccount: the validating phase', () => {
  it('refuses a pod a webhook stripped of its account', async () =>
    assert.equal(await run(attrs({}), deps(), 'validating'), 'pods "p" is forbidden: no service account specified for pod ns/p'));
  it('changes nothing', async () => {
    const a = attrs({ serviceAccountName: 'runner' });
    assert.equal(await run(a, deps(), 'validating'), null);
    assert.equal((a.object!.spec as Record<string, unknown>).volumes, undefined);
  });
  it('limits the secrets of ephemeral containers added later', async () => {
    const a = attrs({ serviceAccountName: 'strict', ephemeralContainers: [{ name: 'dbg', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] }] }, {}, 'UPDATE', 'ephemeralcontainers');
    assert.equal(await run(a, deps(), 'validating'),
      'pods "p" is forbidden: ephemeral container dbg with envVar E referencing secret.secretName="nope" is not allowed because service account strict does not reference that secret');
  });
  it('other subresources are not its concern', async () => assert.equal(await run(attrs({}, {}, 'UPDATE', 'status'), deps(), 'validating'), null));
});

describe('ServiceAccount: the account read at once', () => {
  it('decides without a promise when the store has the account (a current watch cache)', () => {
    const d = deps({ withDefault: true });
    const plugin = serviceAccountPlugin({ ...d, getServiceAccount: async () => assert.fail('read although known at once'), getServiceAccountNow: (_ns, name) => d.known(name) });
    for (const a of [attrs({}), attrs({ serviceAccountName: 'runner' })]) {
      assert.equal(plugin.admit(a), undefined);
      assert.equal(plugin.validate!(a), undefined);
      assert.ok(((a.object!.spec as { volumes?: { name: string }[] }).volumes ?? []).some((v) => v.name === 'kube-api-access-abcde'), 'the token volume mounted');
    }
  });
});
