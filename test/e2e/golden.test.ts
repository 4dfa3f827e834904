// The golden transcripts (recorded from a real kube-apiserver) replayed
// against our server with ../shared/tools/scenario. Every step must pass, or
// fail only for a reason listed here; each known gap names its issue or why
// it is deliberate. A new difference fails the test, and so does a gap that no
// longer fails. The first set (API core) and the second set's authentication,
// impersonation and review scenarios run on two servers configured as the
// recorded ones were.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { compareCallbacks } from './goldencallbacks.js';
import { FeatureGates } from '../../src/features/gates.js';

const shared = fileURLToPath(new URL('../../../../shared/', import.meta.url));
const tool = join(shared, 'tools/scenario/run.mjs');
const missing = existsSync(tool) ? false : `the scenario tool is not at ${tool} (../shared beside the repository)`;
if (missing && process.env.CI === 'true') throw new Error(missing);

const SCENARIOS = [
  'crud-01-configmap', 'crud-06-generate-name-and-put', 'defaults-01-pod', 'defaults-03-service', 'defaults-04-pod-details-and-workloads', 'crud-07-deletecollection-and-preconditions',
  'errors-01-not-found', 'errors-03-invalid-names', 'errors-04-invalid-labels', 'errors-06-methods-and-media-types',
  'finalizers-01-basic', 'finalizers-03-propagation', 'ns-01-lifecycle', 'health-01-basic', 'health-03-single-checks',
  'discovery-01-core-and-version', 'dryrun-01-create',
  'list-01-paging', 'list-03-label-selectors', 'list-04-field-selectors', 'list-06-rv-invalid', 'list-07-not-older-than-and-future',
  'watch-01-from-list-rv', 'watch-03-selectors', 'watch-04-live-and-timeout',
  'table-01-pods-and-configmaps', 'table-03-yaml-and-negotiation', 'fieldvalidation-01-unknown', 'crud-03-secret', 'crud-04-pod',
  'patch-01-merge', 'patch-03-json', 'patch-04-smp-pod', 'patch-06-smp-deployment', 'ns-03-protected', 'ns-04-finalize',
  'apply-01-create', 'apply-03-shared-ownership', 'apply-04-drop-field', 'apply-06-clear-managedfields', 'apply-07-update-takes-ownership',
  'dryrun-03-update-patch-apply', 'fieldvalidation-03-update-patch-apply',
];

/** Steps that fail today, with the reason and the issue that closes the gap. */
const KNOWN_GAPS: Record<string, string> = {
  'health-01-basic / livez-verbose': 'our checks are named for our post-start hooks, not kube-apiserver internals',
  'health-01-basic / readyz-verbose': 'our checks are named for our post-start hooks',
  'health-01-basic / healthz-verbose': 'our checks are named for our post-start hooks',
  'health-01-basic / readyz-verbose-exclude-etcd': 'our checks are named for our post-start hooks',
  'health-03-single-checks / readyz-informer-sync': 'no informer-sync check until the watch cache (issue 4)',
  'discovery-01-core-and-version / api-v1': 'singularName: v1.27 fills it in (v1.26, recorded here, left it empty)',
  'list-06-rv-invalid / non-numeric-rv': 'deliberate: a malformed resourceVersion is a client mistake (400), where Kubernetes answers 500',
  'ns-03-protected / delete-kube-system': 'our protected namespaces are svc-system and svc-public (spec); kube-system does not exist here',
  'ns-03-protected / delete-kube-public': 'our protected namespaces are svc-system and svc-public (spec); kube-public does not exist here',
  'ns-04-finalize / finalize': 'timing: our namespace controller empties and removes a terminating namespace within milliseconds; the recorded one had not run yet when /finalize arrived',
  'apply-06-clear-managedfields / empty-list-no-reset': 'deliberate (spec "Apply" item 13): an empty managedFields list does not reset it; the recorded v1.26 server reset it',
  'apply-06-clear-managedfields / clear-and-change': 'deliberate (spec "Apply" item 13): the reset comes first, then the change belongs to the updater; the recorded server tracked nothing',
  'apply-06-clear-managedfields / get-final': 'follows clear-and-change (spec item 13)',
};

// Table column descriptions are our own words (kubectl ignores them).
// A namespace carries kube's kubernetes.io/metadata.name label beside ours (the maps turn the recorded
// one into svc.io/metadata.name, so ours shows as an extra label and an extra managed field).
const IGNORED_REASON = /^(body\.columnDefinitions\[\d+\]\.description: .*|\S*labels\.kubernetes\.io\/metadata\.name unexpected \("[^"]*"\)|\S*f:labels\.f:kubernetes\.io\/metadata\.name unexpected \(\{\}\)|)$/;

describe('golden transcripts', { skip: missing }, () => {
  let t: TestServer;
  before(async () => {
    const dir = tempDir('svc-golden-');
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'scenario-token,admin,admin-uid,"system:masters"\n');
    t = await startTestServer({ tokenAuthFile: tokens });
  });
  after(async () => t?.stop());

  it('every step passes or fails only for a known reason', async () => {
    await replay(t, 'scenario-token', SCENARIOS, ['node.kubernetes.io/=node.svc.io/', 'kubernetes.io/pvc-protection=svc.io/pvc-protection'], KNOWN_GAPS);
  });
});

/** The second set's authentication, impersonation and review scenarios (README "Second set"). */
const SECOND_SET_SCENARIOS = [
  'authn-01-anonymous-and-invalid', 'authn-03-bootstrap-token', 'authn-04-token-request',
  'impersonate-01-user', 'impersonate-03-serviceaccount', 'impersonate-04-node-and-anonymous',
  'reviews-01-self-subject-access-review', 'reviews-03-local-subject-access-review', 'reviews-04-self-subject-rules-review',
  'rbac-01-crud', 'rbac-03-resource-names-and-subresources', 'rbac-04-escalation-prevention', 'rbac-06-validation', 'rbac-07-node-authorizer', 'rbac-09-forbidden-paths',
  'admission-01-limitranger-defaults', 'admission-04-pod-security-enforce', 'admission-07-node-restriction', 'admission-09-node-selector-and-tolerations',
  'admission-10-always-pull-and-external-ips', 'admission-12-node-restriction-pods', 'admission-06-serviceaccount', 'admission-03-resourcequota',
  'webhook-01-validating-deny', 'webhook-03-failure-policy', 'webhook-04-selectors-and-match-policy', 'webhook-06-review-versions',
  'webhook-07-reinvocation-and-patch-errors',
];

/** Steps of the second set that differ from the recording, with the reason. */
const SECOND_SET_GAPS: Record<string, string> = {
  'authn-03-bootstrap-token / delete-expired-secret': 'timing: our token cleaner already deleted the expired Secret; the recorded kube-apiserver ran no controller-manager',
  'impersonate-01-user / group-without-user': 'deliberate: groups without Impersonate-User are 400 here, 500 text/plain in kube (README)',
  'admission-06-serviceaccount / pod-automount': 'deliberate (issue 20): the token volume is mounted at /var/run/secrets/svc.io/serviceaccount too, besides the kubernetes.io path kube uses',
  'admission-03-resourcequota / quota-after-1': 'deliberate: the quota usage ResourceQuota admission writes is recorded under field manager svc-apiserver (the server\'s own writes; kube-apiserver in kube)',
  'admission-03-resourcequota / compute-after-1': 'deliberate: field manager svc-apiserver for the admission\'s quota usage (see quota-after-1)',
  'admission-03-resourcequota / quota-final': 'deliberate: field manager svc-apiserver for the admission\'s quota usage (see quota-after-1)',
  'admission-06-serviceaccount / pod-overrides-sa': 'deliberate (issue 20): the token volume is mounted at /var/run/secrets/svc.io/serviceaccount too (see pod-automount)',
};

const SECOND_SET_MAPS = ['kube-system=svc-system', 'kube-public=svc-public', 'node.kubernetes.io/=node.svc.io/', 'kube-root-ca.crt=svc-root-ca.crt'];

/** A server configured as the second set's recorded one (its users, flags and admission plugins). */
async function startSecondSetServer(): Promise<TestServer> {
  const dir = tempDir('svc-golden2-');
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, [
    'scenario-token,admin,uid-admin,system:masters', 'token-alice,alice,uid-alice', 'token-bob,bob,uid-bob,devs',
    'token-node-n1,system:node:n1,uid-node-n1,system:nodes', 'token-impersonator,impersonator,uid-impersonator',
  ].join('\n') + '\n');
  return startTestServer({
    tokenAuthFile: tokens, enableBootstrapTokenAuth: true, serviceAccounts: { issuers: ['https://kubernetes.default.svc'] },
    // no controller manager, as the recorded server: no quota controller (admission-03 writes quota status
    // itself), no token cleaner, no namespace controller
    controllers: false,
    // the recorded server's --enable-admission-plugins, less ValidatingAdmissionPolicy (its scenarios run on
    // their own server below, with its gate and API version as recorded); with the
    // default-on ServiceAccount plugin and, like it, no controller manager: no `default` ServiceAccount
    // appears (admission-06 creates one itself after a pod is refused for want of it)
    admission: { enable: ['ServiceAccount', 'NodeRestriction', 'PodNodeSelector', 'PodTolerationRestriction', 'DenyServiceExternalIPs', 'AlwaysPullImages', 'OwnerReferencesPermissionEnforcement'] },
  });
}

/** Golden callbacks that differ, by the start of the difference, with the reason. */
const CALLBACK_GAPS: Record<string, string> = {
};

describe('golden transcripts: authentication, impersonation, reviews (second set)', { skip: missing }, () => {
  let t: TestServer;
  let webhook: ChildProcess | undefined;
  const webhookLog = join(tempDir('svc-golden2-webhook-'), 'calls.jsonl');
  before(async () => {
    // the webhook-* scenarios call the scenario webhook at https://127.0.0.1:18443 with its committed CA
    webhook = spawn(process.execPath, [join(shared, 'tools/webhook/server.mjs'), '--log', webhookLog], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      webhook!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('webhook listening')) resolve();
      });
      webhook!.once('exit', (code) => reject(new Error(`the scenario webhook exited (${code}): ${out}`)));
    });
    t = await startSecondSetServer();
  });
  after(async () => {
    await t?.stop();
    webhook?.kill();
  });

  it('every step passes or fails only for a known reason', async () => {
    await replay(t, 'scenario-token', SECOND_SET_SCENARIOS, SECOND_SET_MAPS, SECOND_SET_GAPS);
  });

  it('the webhook-* scenarios send the scenario webhook the AdmissionReviews kube sent (golden callbacks)', async () => {
    // a fresh server: the scenarios create what they need and expect it absent
    const fresh = await startSecondSetServer();
    try {
      const webhooks = SECOND_SET_SCENARIOS.filter((s) => s.startsWith('webhook-'));
      // the reviews speak admission.k8s.io and meta.k8s.io as kube's do: only the names of things are mapped
      const diffs = await compareCallbacks({ shared, server: fresh.url, token: 'scenario-token', log: webhookLog, maps: [...BASE_MAPS.filter((m) => m !== 'k8s.io=svc.io'), ...SECOND_SET_MAPS] }, webhooks);
      assert.deepEqual(diffs.filter((d) => !Object.keys(CALLBACK_GAPS).some((g) => d.startsWith(g))), [], 'callbacks that differ from the golden ones');
      assert.deepEqual(Object.keys(CALLBACK_GAPS).filter((g) => !diffs.some((d) => d.startsWith(g))), [], 'known callback gaps that no longer differ: remove them');
    } finally {
      await fresh.stop();
    }
  });
});

/**
 * The vap-* scenarios (README "Second set": recorded on v1.26.1 with the
 * ValidatingAdmissionPolicy gate on and admissionregistration v1alpha1
 * enabled). v1.27 requires a binding's validationActions, which v1.26 did not
 * have: the scenarios are replayed with `validationActions: [Deny]` added to
 * every binding they create (what a v1.26 binding did), and the differences
 * v1.27 makes are listed.
 */
const VAP_SCENARIOS = ['vap-01-deny', 'vap-03-match-resources', 'vap-04-failure-policy-and-validation'];
const V127 = 'deliberate (v1.27): ';
const VAP_GAPS: Record<string, string> = {
  'vap-01-deny / create-policy': `${V127}the policy has a status (its subresource is new in 1.27): status {} in the create response`,
  'vap-01-deny / create-binding': `${V127}validationActions (added to the request, see VAP_SCENARIOS) is in the binding`,
  'vap-03-match-resources / create-policy': `${V127}status {} (see vap-01-deny / create-policy)`,
  'vap-03-match-resources / create-binding': `${V127}validationActions in the binding (see vap-01-deny / create-binding)`,
  'vap-04-failure-policy-and-validation / create-fail-policy': `${V127}status {} (see vap-01-deny / create-policy)`,
  'vap-04-failure-policy-and-validation / create-ignore-policy': `${V127}status {} (see vap-01-deny / create-policy)`,
  'vap-04-failure-policy-and-validation / bind-fail': `${V127}validationActions in the binding (see vap-01-deny / create-binding)`,
  'vap-04-failure-policy-and-validation / bind-ignore': `${V127}validationActions in the binding (see vap-01-deny / create-binding)`,
  'vap-04-failure-policy-and-validation / bind-missing-policy': `${V127}validationActions in the binding (see vap-01-deny / create-binding)`,
  'vap-04-failure-policy-and-validation / binding-without-policy-name': `${V127}a binding without validationActions is refused for that too (the binding of this step has no policyName, so none was added)`,
  'vap-04-failure-policy-and-validation / no-validations': `${V127}validations or auditAnnotations are required, each with that detail (auditAnnotations are new in 1.27)`,
};

/** The vap-* scenarios with validationActions [Deny] in every binding they create, in a temporary folder. */
function vapScenarios(): string {
  const dir = tempDir('svc-golden-vap-');
  for (const name of VAP_SCENARIOS) {
    const scenario = JSON.parse(readFileSync(join(shared, `reference/transcripts/scenarios/${name}.json`), 'utf8')) as { steps: { method?: string; path: string; body?: { spec?: Record<string, unknown> } }[] };
    for (const step of scenario.steps) {
      if (step.method === 'POST' && step.path.endsWith('/validatingadmissionpolicybindings') && step.body?.spec?.policyName !== undefined) step.body.spec.validationActions = ['Deny'];
    }
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(scenario));
  }
  return dir;
}

describe('golden transcripts: ValidatingAdmissionPolicy (second set, recorded on v1.26.1)', { skip: missing }, () => {
  let t: TestServer;
  before(async () => {
    const dir = tempDir('svc-golden-vap-server-');
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'scenario-token,admin,uid-admin,system:masters\n');
    t = await startTestServer({
      tokenAuthFile: tokens, controllers: false,
      featureGates: FeatureGates.parse('ValidatingAdmissionPolicy=true'),
      runtimeConfig: { 'admissionregistration.svc.io/v1alpha1': true },
      admission: { enable: ['ServiceAccount', 'NodeRestriction', 'PodNodeSelector', 'PodTolerationRestriction', 'DenyServiceExternalIPs', 'AlwaysPullImages', 'OwnerReferencesPermissionEnforcement', 'ValidatingAdmissionPolicy'] },
    });
  });
  after(async () => t?.stop());

  it('every step passes or fails only for a known reason', async () => {
    await replay(t, 'scenario-token', VAP_SCENARIOS, SECOND_SET_MAPS, VAP_GAPS, vapScenarios());
  });
});

/**
 * The custom-resource scenarios (second set, recorded on v1.26.1). The CRD
 * controller's status writes are recorded under the server's field manager:
 * kube-apiserver there, svc-apiserver here (as every write of the server's own).
 */
const CRD_SCENARIOS = [
  'crd-01-create-and-crud', 'crd-03-pruning-and-defaults', 'crd-04-status-and-scale', 'crd-06-printer-columns-and-discovery', 'crd-07-listmap-apply-strict',
  'celrules-01-messages', 'celrules-03-rejected-rules', 'celrules-04-libraries',
];

describe('golden transcripts: custom resources and their rules (second set, recorded on v1.26.1)', { skip: missing }, () => {
  let t: TestServer;
  before(async () => {
    const dir = tempDir('svc-golden-crd-server-');
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'scenario-token,admin,uid-admin,system:masters\n');
    t = await startTestServer({ tokenAuthFile: tokens, controllers: false });
  });
  after(async () => t?.stop());

  it('every step passes or fails only for a known reason', async () => {
    await replay(t, 'scenario-token', CRD_SCENARIOS, [...SECOND_SET_MAPS, 'kube-apiserver=svc-apiserver'], {});
  });
});

/** The spellings every replay maps (k8s.io → svc.io). */
const BASE_MAPS = ['k8s.io=svc.io', 'kubernetes.io/metadata.name=svc.io/metadata.name'];

/** Replays scenarios with the scenario tool; every failing step must be a known gap, and every non-timing gap must still fail. */
async function replay(t: TestServer, token: string, scenarios: readonly string[], maps: readonly string[], gaps: Record<string, string>, dir = join(shared, 'reference/transcripts/scenarios')): Promise<void> {
  const args = [tool, 'compare', '--verbose', '--server', t.url, '--token', token, '--golden', join(shared, 'reference/transcripts/golden'),
    ...[...BASE_MAPS, ...maps].flatMap((m) => ['--map', m]),
    ...scenarios.map((s) => join(dir, `${s}.json`))];
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 16 << 20, timeout: 120_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
  );
  const unexpected: string[] = [];
  const seen = new Set<string>();
  for (const line of out.split('\n')) {
    const m = /^FAIL (.+? \/ [^:]+): (.*)$/.exec(line);
    if (!m) continue;
    const reasons = m[2]!.split('; ').filter((r) => !IGNORED_REASON.test(r.trim()));
    if (reasons.length === 0) continue;
    seen.add(m[1]!);
    if (!gaps[m[1]!]) unexpected.push(line);
  }
  assert.deepEqual(unexpected, [], 'new differences from the golden transcripts');
  // A timing gap depends on how fast our controllers run against the recorded server's: it may match.
  const stale = Object.keys(gaps).filter((k) => !seen.has(k) && !gaps[k]!.startsWith('timing:'));
  assert.deepEqual(stale, [], 'known gaps that no longer fail: remove them from the known gaps');
  const summary = /(\d+) passed, (\d+) failed/.exec(out);
  assert.ok(summary, `the scenario tool printed a summary:\n${out.slice(-2000)}`);
}
