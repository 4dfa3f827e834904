// A built-in kind's create starts from its Go zero object (a Pod's
// {metadata: {creationTimestamp: null}, spec: {containers: null}, status: {}}):
// updateObject makes the writer's set straight from the comparison with it,
// without the engine's bookkeeping. Here, for built-in kinds, on a table of
// objects (fields equal to the zero object's, nulls, empty containers,
// ignored status, duplicate keys) and on random pods, that path gives the
// engine's object, managedFields bytes, `changed` and errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaFor } from '../api/schemas.js';
import { goZeroObject } from '../schema/gozero.js';
import { field, FieldSet } from '../smd/fieldpath.js';
import { generalUpdate, updateObject, type UpdateObjectOptions } from '../smd/merge.js';
import { prng } from '../testing/prng.js';
import type { JsonObject } from '../smd/typed.js';

const STATUS = FieldSet.of([field('status')]);
const now = () => '2024-01-01T00:00:00Z';

function options(group: string, kind: string, updated: JsonObject, ignored?: FieldSet): UpdateObjectOptions {
  const schema = schemaFor(group, 'v1', kind)!;
  assert.ok(schema, `${kind} has a schema`);
  return { manager: 'kubectl-create', apiVersion: group ? `${group}/v1` : 'v1', schema, now, live: undefined, updated, empty: goZeroObject(schema) as JsonObject, ...(ignored ? { ignored } : {}) };
}

function outcome(f: typeof updateObject, o: UpdateObjectOptions): unknown {
  try {
    const r = f({ ...o, updated: structuredClone(o.updated) });
    return { json: JSON.stringify(r.object), changed: r.changed };
  } catch (err) {
    return { error: (err as Error).name };
  }
}

const same = (o: UpdateObjectOptions) => {
  const got = outcome(updateObject, o);
  assert.deepEqual(got, outcome(generalUpdate, o), JSON.stringify(o.updated));
  return got as { json?: string; error?: string };
};

const container = (name: string, extra: JsonObject = {}): JsonObject => ({ name, image: `registry.example.com/${name}:1`, ...extra });

describe('a built-in create from its Go zero object: the direct path is the engine', () => {
  const cases: { name: string; group?: string; kind: string; obj: JsonObject; ignored?: FieldSet }[] = [
    { name: 'a restricted pod', kind: 'Pod', ignored: STATUS, obj: {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', labels: { app: 'a' }, annotations: { note: 'x' } },
      spec: {
        securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [container('app', { ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }],
          resources: { requests: { cpu: '100m' }, limits: { memory: '64Mi' } }, securityContext: { capabilities: { drop: ['ALL'] } } })],
      },
    } },
    { name: 'fields equal to the zero object\'s, and a status the main resource ignores', kind: 'Pod', ignored: STATUS,
      obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: null }, spec: { containers: [container('c')] }, status: {} } },
    { name: 'the status when nothing ignores it', kind: 'Pod', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container('c')] }, status: { phase: 'Pending' } } },
    { name: 'null and empty lists where the zero object has null', kind: 'Pod', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } } },
    { name: 'containers null as in the zero object', kind: 'Pod', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: null } } },
    { name: 'a spec that is not a map', kind: 'Pod', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: 'odd' } },
    { name: 'only never-owned fields', kind: 'Pod', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } } },
    { name: 'duplicate container names throw as the engine does', kind: 'Pod', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container('c'), container('c')] } } },
    { name: 'a ConfigMap', kind: 'ConfigMap', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { k: 'v', 'app.properties': 'x=1\n' } } },
    { name: 'a Service whose status is the zero object\'s', kind: 'Service', ignored: STATUS,
      obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'a' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }] }, status: { loadBalancer: {} } } },
    { name: 'a Namespace with an empty spec', kind: 'Namespace', obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, spec: {} } },
    { name: 'a Deployment: selector, template metadata and an empty strategy as in the zero object', group: 'apps', kind: 'Deployment', ignored: STATUS, obj: {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'a' } }, strategy: {}, template: { metadata: { creationTimestamp: null, labels: { app: 'a' } }, spec: { containers: [container('c')] } } },
    } },
    { name: 'a Deployment with a rolling update', group: 'apps', kind: 'Deployment', obj: {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: null, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } }, template: { spec: { containers: [container('c')] } } },
    } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = same(options(c.group ?? '', c.kind, c.obj, c.ignored));
      if (c.name.includes('throw')) assert.equal(got.error, 'TypedError');
    });
  }

  it('the same on random pods', () => {
    const r = prng(31);
    const pick = <T>(xs: readonly T[]): T => xs[r.int(xs.length)]!;
    for (let i = 0; i < 300; i++) {
      const spec: JsonObject = {};
      const n = r.int(4);
      if (n > 0 || r.int(2)) spec.containers = n === 0 ? pick([null, []]) : Array.from({ length: n }, () => container(pick(['a', 'b', 'c', 'd']), r.int(2) ? { ports: [{ containerPort: 80 + r.int(3), protocol: 'TCP' }] } : {}));
      if (r.int(2)) spec.tolerations = [{ key: 'k', operator: 'Exists', effect: pick(['NoSchedule', 'NoExecute']) }];
      if (r.int(2)) spec.volumes = [{ name: 'v', emptyDir: r.int(2) ? {} : { medium: 'Memory' } }];
      if (r.int(3) === 0) spec.nodeSelector = {};
      if (r.int(3) === 0) spec.priority = 0;
      const obj: JsonObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, ...(r.int(2) ? { creationTimestamp: null } : {}), ...(r.int(2) ? { labels: { app: 'x' } } : {}) }, spec };
      if (r.int(3) === 0) obj.status = pick<JsonObject | null>([{}, { phase: 'Pending' }, null]);
      same(options('', 'Pod', obj, r.int(2) ? STATUS : undefined));
    }
  });
});
