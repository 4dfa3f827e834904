// The validation registry, and a replay of the golden transcripts' 422
// answers (../shared/reference/transcripts/golden, read at test time): every
// invalid create, update or patch of a kind with a validator is validated
// here (with the previous stored object for updates) and its causes outside
// `metadata` (the store's part) must equal the recorded ones, field and
// message. Two things are bridged, and only these:
//   - defaulting: the recorded server validated defaulted objects, and a
//     request body is not defaulted, so the defaults our checks read are
//     applied first (applyDefaults: pod and container policies, service type,
//     affinity, protocol and targetPort, deployment strategy, secret type);
//   - v1.26 → v1.27: the transcripts come from v1.26.1, whose pod-update
//     Forbidden message joins the updatable fields with ", " and " or ";
//     v1.27 joins them with ",". Only that first line is compared: the rest
//     of the message is a go-cmp diff of Go's internal PodSpec, which we do
//     not reproduce (we print a plain account of the change instead).
// PATCH steps are replayed where the patch's effect is written out below
// (PATCH_EFFECTS); other PATCH steps are counted as skipped.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REFERENCE_DIR } from './parity/reference.js';
import { isCoreTranscript } from './parity/transcripts.js';
import { renderBody } from './meta/govalue.js';
import { POD_UPDATE_FORBIDDEN } from './core/v1/validation.js';
import { buildValidators, validatorFor, ValidatorRegistry } from './validation.js';

type O = { [k: string]: unknown };
const isO = (v: unknown): v is O => typeof v === 'object' && v !== null && !Array.isArray(v);

describe('validator registry', () => {
  it('covers the issue-5 kinds under svc.io group names', () => {
    for (const [g, k] of [
      ['', 'Pod'], ['', 'ConfigMap'], ['', 'Secret'], ['', 'Service'], ['', 'Namespace'], ['', 'Node'], ['', 'Event'],
      ['apps', 'Deployment'], ['apps', 'ReplicaSet'], ['apps', 'StatefulSet'], ['apps', 'DaemonSet'],
      ['batch', 'Job'], ['batch', 'CronJob'],
      ['rbac.authorization.svc.io', 'Role'], ['rbac.authorization.svc.io', 'ClusterRoleBinding'],
      ['admissionregistration.svc.io', 'ValidatingWebhookConfiguration'], ['admissionregistration.svc.io', 'MutatingWebhookConfiguration'],
      ['coordination.svc.io', 'Lease'], ['events.svc.io', 'Event'],
    ] as const) assert.ok(validatorFor(g, k), `${g}/${k}`);
    assert.equal(validatorFor('', 'Widget'), undefined);
    assert.equal(validatorFor('rbac.authorization.k8s.io', 'Role'), undefined);
  });
  it('duplicate registration throws', () => {
    const r = new ValidatorRegistry();
    const v = { validate: () => [], validateUpdate: () => [] };
    r.register('', 'Pod', v);
    assert.throws(() => r.register('', 'Pod', v), /duplicate validator for core Pod/);
  });
  it('the node-port range is a parameter', () => {
    const svc = { metadata: { name: 's' }, spec: { type: 'NodePort', sessionAffinity: 'None', ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 31000 }] } };
    assert.equal(buildValidators().get('', 'Service')!.validate(svc).length, 0);
    assert.equal(buildValidators({ nodePortRange: { min: 40000, max: 40100 } }).get('', 'Service')!.validate(svc).length, 1);
  });
});

// ---- golden replay ----

const RESOURCES: Record<string, string> = {
  pods: 'Pod', configmaps: 'ConfigMap', secrets: 'Secret', services: 'Service', namespaces: 'Namespace', nodes: 'Node', events: 'Event',
  deployments: 'Deployment', replicasets: 'ReplicaSet', statefulsets: 'StatefulSet', daemonsets: 'DaemonSet', jobs: 'Job', cronjobs: 'CronJob',
  roles: 'Role', rolebindings: 'RoleBinding', clusterroles: 'ClusterRole', clusterrolebindings: 'ClusterRoleBinding', leases: 'Lease',
  validatingwebhookconfigurations: 'ValidatingWebhookConfiguration', mutatingwebhookconfigurations: 'MutatingWebhookConfiguration',
};
const svcGroup = (g: string) => g.replace(/\.k8s\.io$/, '.svc.io');

interface Target {
  group: string;
  kind: string;
  namespace: string;
  /** The path of the object itself: the request path, or the collection path plus a created object's name. */
  objectPath(name: unknown): string;
}

function target(path: string): Target | undefined {
  const bare = path.split('?')[0]!;
  const parts = bare.split('/').filter(Boolean);
  let group = '';
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) rest = parts.slice(2);
  else if (parts[0] === 'apis' && parts.length >= 4) {
    group = svcGroup(parts[1]!);
    rest = parts.slice(3);
  } else return undefined;
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1]!;
    rest = rest.slice(2);
  }
  const kind = RESOURCES[rest[0] ?? ''];
  if (!kind || rest.length > 2) return undefined;
  return { group, kind, namespace, objectPath: (name) => (rest.length === 2 ? bare : `${bare}/${String(name)}`) };
}

function defaultPodSpec(spec: O): void {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  for (const k of ['containers', 'initContainers']) {
    for (const c of (spec[k] as O[] | undefined) ?? []) {
      const image = String(c.image ?? '');
      c.imagePullPolicy ??= image.endsWith(':latest') || !image.split('/').pop()!.includes(':') ? 'Always' : 'IfNotPresent';
      c.terminationMessagePolicy ??= 'File';
      for (const p of (c.ports as O[] | undefined) ?? []) p.protocol ??= 'TCP';
    }
  }
}

/** The defaults the checks read, as the server applies them before validation. */
function applyDefaults(kind: string, o: O): O {
  const spec = isO(o.spec) ? o.spec : undefined;
  if (kind === 'Secret') o.type ??= 'Opaque';
  if (kind === 'Pod' && spec) defaultPodSpec(spec);
  if (kind === 'Service' && spec) {
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    for (const p of (spec.ports as O[] | undefined) ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
    }
  }
  if (['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].includes(kind) && spec) {
    if (isO(spec.template) && isO(spec.template.spec)) defaultPodSpec(spec.template.spec);
    if (kind === 'Deployment') {
      spec.replicas ??= 1;
      spec.strategy ??= { type: 'RollingUpdate' };
      const s = spec.strategy as O;
      if (s.type === 'RollingUpdate') s.rollingUpdate ??= { maxUnavailable: '25%', maxSurge: '25%' };
      spec.progressDeadlineSeconds ??= 600;
      spec.revisionHistoryLimit ??= 10;
    }
  }
  return o;
}

/** What each replayed PATCH did to the stored object (the patch bodies are in the transcripts). */
const PATCH_EFFECTS: Record<string, (old: O) => O> = {
  'patch-04-smp-pod/env-forbidden': (old) => {
    const o = structuredClone(old);
    const app = ((o.spec as O).containers as O[]).find((c) => c.name === 'app')!;
    app.env = [{ name: 'C', value: '3' }, ...((app.env as O[]) ?? [])];
    return o;
  },
  'patch-04-smp-pod/delete-container-forbidden': (old) => {
    const o = structuredClone(old);
    (o.spec as O).containers = ((o.spec as O).containers as O[]).filter((c) => c.name !== 'sidecar');
    return o;
  },
  'patch-06-smp-deployment/recreate-without-retainkeys': (old) => {
    const o = structuredClone(old);
    ((o.spec as O).strategy as O).type = 'Recreate';
    return o;
  },
};

const V126_POD_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** One comparable line per cause; the pod-update Forbidden message is cut to its first line, in v1.27 wording. */
function comparable(field: string, message: string): string {
  const first = message.split('\n')[0]!;
  if (first === `Forbidden: ${V126_POD_FORBIDDEN}` || first === `Forbidden: ${POD_UPDATE_FORBIDDEN}`) return `${field}: Forbidden: ${POD_UPDATE_FORBIDDEN}`;
  return `${field}: ${message}`;
}

interface Step {
  name: string;
  request: { method: string; path: string; body?: unknown };
  response: { status: number; body?: unknown };
}

const dir = REFERENCE_DIR && join(REFERENCE_DIR, 'transcripts', 'golden');
const skip = !dir || !existsSync(dir) ? 'golden transcripts not found beside the repository' : false;

describe('golden transcripts: 422 causes of validated kinds', { skip }, () => {
  const replayed: string[] = [];
  const skipped: string[] = [];
  // The first set only (see CORE_THEMES); *.callbacks.json hold what a scenario's webhook received, not steps.
  for (const file of skip ? [] : readdirSync(dir!).filter((f) => f.endsWith('.json') && !f.endsWith('.callbacks.json') && isCoreTranscript(f)).sort()) {
    const scenario = file.replace(/\.json$/, '');
    const steps = (JSON.parse(readFileSync(join(dir!, file), 'utf8')) as { steps: Step[] }).steps;
    const stored = new Map<string, O>();
    for (const step of steps) {
      const t = target(step.request.path);
      const { method } = step.request;
      const ok = step.response.status >= 200 && step.response.status < 300;
      if (t && ok && isO(step.response.body) && ['GET', 'POST', 'PUT', 'PATCH'].includes(method) && step.response.body.kind === t.kind) {
        stored.set(t.objectPath((step.response.body.metadata as O | undefined)?.name), step.response.body);
      }
      if (!t || step.response.status !== 422 || !['POST', 'PUT', 'PATCH'].includes(method)) continue;
      const v = validatorFor(t.group, t.kind);
      if (!v) continue;
      const causes = (((step.response.body as O).details as O | undefined)?.causes as { field?: string; message?: string }[] | undefined) ?? [];
      if (causes.some((c) => ['patch', 'dryRun', 'fieldValidation'].includes(c.field ?? ''))) continue;
      const want = causes.filter((c) => !(c.field ?? '').startsWith('metadata')).map((c) => comparable(c.field ?? '', c.message ?? ''));
      const id = `${scenario}/${step.name}`;
      const old = method === 'POST' ? undefined : stored.get(t.objectPath(undefined));
      let obj: O | undefined;
      if (method === 'PATCH') {
        const effect = PATCH_EFFECTS[id];
        if (!effect || !old) {
          skipped.push(id);
          continue;
        }
        obj = effect(old);
      } else obj = structuredClone(step.request.body) as O;
      if (!isO(obj)) continue;
      const meta = (obj.metadata ??= {}) as O;
      meta.namespace ??= t.namespace || undefined;
      applyDefaults(t.kind, obj);
      replayed.push(id);
      it(id, () => {
        const errs = old ? v.validateUpdate(obj!, applyDefaults(t.kind, structuredClone(old))) : v.validate(obj!);
        assert.deepEqual(errs.map((e) => comparable(e.field, renderBody(e))), want);
      });
    }
  }
  it('replayed the invalid requests the issue names', () => {
    for (const id of ['crud-01-configmap/create-overlapping-keys', 'crud-03-secret/create-basic-auth-without-keys', 'crud-03-secret/create-tls-without-keys', 'crud-03-secret/update-immutable', 'crud-03-secret/update-type', 'crud-04-pod/update-forbidden', 'patch-04-smp-pod/env-forbidden', 'patch-04-smp-pod/delete-container-forbidden', 'patch-06-smp-deployment/recreate-without-retainkeys']) {
      assert.ok(replayed.includes(id), `${id} replayed (skipped: ${skipped.join(', ') || 'none'})`);
    }
  });
});
