// The defaulter registry, and the defaulters against kube-apiserver's own
// answers: every create (and successful update) recorded in the golden
// transcripts that show defaulted objects (../shared/reference/transcripts,
// read at test time, never copied) is replayed through our defaulters
// (+ the DefaultTolerationSeconds and Priority admission steps for pods) and
// must equal the recorded response, once the parts that are not defaulting
// are set aside (INTENDED_DIFFERENCES, each with its reason).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FeatureGates } from '../features/gates.js';
import { defaultPodPriority, defaultTolerationSeconds, isObj, type Json } from './core/v1/defaults.js';
import { defaultedKinds, defaulterFor, registerDefaulter } from './defaults.js';
import { REFERENCE_DIR } from './parity/reference.js';

describe('defaulterFor', () => {
  it('finds kinds by svc.io group, version and kind', () => {
    for (const [group, version, kind] of [
      ['', 'v1', 'Pod'], ['apps', 'v1', 'Deployment'], ['batch', 'v1', 'CronJob'], ['networking.svc.io', 'v1', 'NetworkPolicy'],
      ['rbac.authorization.svc.io', 'v1', 'RoleBinding'], ['autoscaling', 'v2', 'HorizontalPodAutoscaler'],
      ['admissionregistration.svc.io', 'v1', 'MutatingWebhookConfiguration'], ['flowcontrol.apiserver.svc.io', 'v1beta3', 'FlowSchema'],
    ] as const) assert.equal(typeof defaulterFor(group, version, kind), 'function', `${group}/${version} ${kind}`);
  });
  it('has nothing for kinds without defaults, unknown kinds, or the k8s.io spelling', () => {
    assert.equal(defaulterFor('', 'v1', 'ConfigMap'), undefined);
    assert.equal(defaulterFor('policy', 'v1', 'PodDisruptionBudget'), undefined);
    assert.equal(defaulterFor('networking.k8s.io', 'v1', 'NetworkPolicy'), undefined);
    assert.equal(defaulterFor('apps', 'v2', 'Deployment'), undefined);
  });
  it('throws on a duplicate registration', () => {
    assert.throws(() => registerDefaulter('', 'v1', 'Pod', () => {}), /defaulter for \/v1\/Pod registered twice/);
  });
  it('binds the feature gates given', () => {
    const sts = () => ({ spec: { template: { spec: { containers: [] } } } }) as Json;
    const off = sts();
    defaulterFor('apps', 'v1', 'StatefulSet', FeatureGates.parse('StatefulSetAutoDeletePVC=false'))!(off);
    assert.equal((off.spec as Json).persistentVolumeClaimRetentionPolicy, undefined);
    const on = sts();
    defaulterFor('apps', 'v1', 'StatefulSet')!(on); // beta and on by default in v1.27
    assert.deepEqual((on.spec as Json).persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  });
  it('lists every registered kind once', () => {
    const keys = defaultedKinds().map((k) => `${k.group}/${k.version}/${k.kind}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(keys.includes('storage.svc.io/v1/StorageClass'));
  });
});

// ---- the golden transcripts ----

const GOLDEN = ['defaults-01-pod', 'defaults-03-service', 'defaults-04-pod-details-and-workloads', 'crud-04-pod', 'crud-03-secret', 'finalizers-03-propagation'];
const goldenDir = REFERENCE_DIR === undefined ? undefined : join(REFERENCE_DIR, 'transcripts', 'golden');
const missing = goldenDir === undefined || !existsSync(join(goldenDir, `${GOLDEN[0]}.json`)) ? 'no ../shared/reference/transcripts/golden' : false;

interface Step { name: string; request: { method: string; body?: unknown }; response: { status: number; body?: unknown } }

/** Server-set metadata, never defaulting. */
const SERVER_METADATA = ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation', 'namespace'];

/**
 * What the recorded responses hold that defaulting does not produce, by
 * design, each with its reason. Applied to both sides before comparing.
 */
const INTENDED_DIFFERENCES: { what: string; why: string; drop: (kind: string, obj: Json) => void }[] = [
  {
    what: 'status', why: 'set by the strategy on create (Pod phase/qosClass, Service loadBalancer, workload status); status defaults are tested per folder',
    drop: (_, o) => { delete o.status; },
  },
  {
    what: 'Service spec.clusterIP(s), ipFamilies, ipFamilyPolicy, ports[].nodePort', why: 'allocated by the Service registry',
    drop: (kind, o) => {
      const spec = kind === 'Service' && isObj(o.spec) ? o.spec : undefined;
      if (!spec) return;
      for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) delete spec[k];
      for (const p of Array.isArray(spec.ports) ? spec.ports.filter(isObj) : []) delete p.nodePort;
    },
  },
  {
    what: 'Namespace spec.finalizers ["kubernetes"]', why: "added by the Namespace strategy's prepareForCreate",
    drop: (kind, o) => { if (kind === 'Namespace') delete o.spec; },
  },
  {
    what: 'metadata.finalizers ["kubernetes.io/pvc-protection"] of a PVC', why: 'added by the StorageObjectInUseProtection admission plugin',
    drop: (kind, o) => { if (kind === 'PersistentVolumeClaim' && isObj(o.metadata)) delete o.metadata.finalizers; },
  },
  {
    what: 'the deprecated.daemonset.template.generation annotation', why: 'set by the DaemonSet strategy with templateGeneration',
    drop: (kind, o) => {
      const md = kind === 'DaemonSet' && isObj(o.metadata) ? o.metadata : undefined;
      if (md && isObj(md.annotations)) {
        delete md.annotations['deprecated.daemonset.template.generation'];
        if (Object.keys(md.annotations).length === 0) delete md.annotations;
      }
    },
  },
  {
    what: 'creationTimestamp: null in embedded metadata (pod and job templates, created even when absent)',
    why: "Go's encoding of a zero metav1.Time inside a non-pointer ObjectMeta: a serialisation artefact for the encoder, not a default",
    drop: (_, o) => dropNullTimestamps(o),
  },
];

/** Removes `metadata: {creationTimestamp: null}` wherever it is nested below the top level. */
function dropNullTimestamps(v: unknown): void {
  if (Array.isArray(v)) return v.forEach(dropNullTimestamps);
  if (!isObj(v)) return;
  for (const [k, x] of Object.entries(v)) {
    if (k === 'metadata' && isObj(x) && x.creationTimestamp === null) {
      delete x.creationTimestamp;
      if (Object.keys(x).length === 0) delete v[k];
    } else dropNullTimestamps(x);
  }
}

/** Kubernetes' spellings of the well-known keys the server sets, in ours (../shared/DESIGN.md §2). */
function respell(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)
    .replaceAll('"kubernetes.io/metadata.name"', '"svc.io/metadata.name"')
    .replaceAll('"node.kubernetes.io/', '"node.svc.io/'));
}

/** Namespaces carry kube's kubernetes.io/metadata.name beside ours (src/api/core/v1/defaults.ts NAMESPACE_NAME_LABELS). */
function withKubeNameLabel(v: unknown): unknown {
  if (isObj(v) && v.kind === 'Namespace' && isObj(v.metadata) && isObj(v.metadata.labels) && typeof v.metadata.labels['svc.io/metadata.name'] === 'string') {
    v.metadata.labels['kubernetes.io/metadata.name'] = v.metadata.labels['svc.io/metadata.name'];
  }
  return v;
}

function normalise(obj: unknown): Json {
  const o = structuredClone(obj) as Json;
  const kind = String(o.kind);
  if (isObj(o.metadata)) for (const k of SERVER_METADATA) delete o.metadata[k];
  for (const d of INTENDED_DIFFERENCES) d.drop(kind, o);
  return o;
}

function groupVersion(apiVersion: string): [group: string, version: string] {
  const slash = apiVersion.lastIndexOf('/');
  if (slash < 0) return ['', apiVersion];
  return [apiVersion.slice(0, slash).replace(/\.k8s\.io$/, '.svc.io'), apiVersion.slice(slash + 1)];
}

/** What our server would store for a request body: defaults, then the pod admission steps of a create. */
function ourDefaults(body: unknown, create: boolean): Json {
  const o = structuredClone(body) as Json;
  const [group, version] = groupVersion(String(o.apiVersion));
  defaulterFor(group, version, String(o.kind))?.(o);
  if (o.kind === 'Pod' && create) {
    defaultTolerationSeconds(o);
    assert.equal(defaultPodPriority(o), undefined);
  }
  return o;
}

describe('defaults match kube-apiserver (golden transcripts)', { skip: missing }, () => {
  let compared = 0;
  for (const file of GOLDEN) {
    const steps = (JSON.parse(readFileSync(join(goldenDir!, `${file}.json`), 'utf8')) as { steps: Step[] }).steps;
    for (const step of steps) {
      const { method, body } = step.request;
      const ok = (method === 'POST' && step.response.status === 201) || (method === 'PUT' && step.response.status === 200);
      if (!ok || !isObj(body) || !isObj(step.response.body)) continue;
      it(`${file} / ${step.name}`, () => {
        compared++;
        const want = normalise(withKubeNameLabel(respell(step.response.body)));
        // a client updating sends back what it read, in our spellings
        const got = normalise(ourDefaults(respell(body), method === 'POST'));
        // the request may omit what the response carries from the URL
        got.kind = want.kind;
        got.apiVersion = want.apiVersion;
        assert.deepEqual(got, want);
      });
    }
  }
  it('compared the recorded creates', () => assert.ok(compared >= 20, `only ${compared} steps compared`));
});
