// Test support for the patch library (imported only by *.test.ts): a Pod/Deployment-
// like OpenAPI schema with the markers Kubernetes publishes, MergeItem (the schema of
// apimachinery's strategicpatch tests), and a seeded PRNG with random JSON documents.
import type { JsonObject, JsonValue } from './json.js';
import { type OpenAPISchema, type PatchMeta, metaFromOpenAPI } from './meta.js';

const str: OpenAPISchema = { type: 'string' };
const int: OpenAPISchema = { type: 'integer' };
const strMap: OpenAPISchema = { type: 'object', additionalProperties: str };
const ref = (name: string): OpenAPISchema => ({ $ref: `#/components/schemas/${name}` });

export const schemas: Record<string, OpenAPISchema> = {
  ObjectMeta: {
    type: 'object',
    properties: {
      name: str,
      labels: strMap,
      annotations: strMap,
      finalizers: { type: 'array', items: str, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' },
      ownerReferences: { type: 'array', items: { allOf: [ref('OwnerReference')] }, 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge' },
    },
  },
  OwnerReference: { type: 'object', properties: { uid: str, kind: str, name: str } },
  Container: {
    type: 'object',
    properties: {
      name: str,
      image: str,
      args: { type: 'array', items: str },
      ports: {
        type: 'array', items: { allOf: [ref('ContainerPort')] },
        'x-kubernetes-patch-merge-key': 'containerPort', 'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      },
      env: { type: 'array', items: { allOf: [ref('EnvVar')] }, 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
      resources: { allOf: [ref('ResourceRequirements')] },
    },
  },
  ContainerPort: { type: 'object', properties: { containerPort: int, protocol: str, name: str } },
  EnvVar: { type: 'object', properties: { name: str, value: str } },
  ResourceRequirements: { type: 'object', properties: { limits: strMap, requests: strMap } },
  Volume: {
    type: 'object',
    properties: { name: str, emptyDir: { type: 'object', properties: { medium: str } }, hostPath: { type: 'object', properties: { path: str } }, configMap: { type: 'object', properties: { name: str } } },
  },
  Toleration: { type: 'object', properties: { key: str, operator: str, effect: str } },
  PodSpec: {
    type: 'object',
    properties: {
      containers: { type: 'array', items: { allOf: [ref('Container')] }, 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
      volumes: { type: 'array', items: { allOf: [ref('Volume')] }, 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge,retainKeys' },
      tolerations: { type: 'array', items: { allOf: [ref('Toleration')] } },
      nodeSelector: strMap,
      activeDeadlineSeconds: int,
    },
  },
  Pod: { type: 'object', properties: { apiVersion: str, kind: str, metadata: { allOf: [ref('ObjectMeta')] }, spec: { allOf: [ref('PodSpec')] } } },
  DeploymentStrategy: { type: 'object', properties: { type: str, rollingUpdate: { type: 'object', properties: { maxSurge: { 'x-kubernetes-int-or-string': true }, maxUnavailable: { 'x-kubernetes-int-or-string': true } } } } },
  Deployment: {
    type: 'object',
    properties: {
      metadata: { allOf: [ref('ObjectMeta')] },
      spec: {
        type: 'object',
        properties: {
          replicas: int,
          strategy: { allOf: [ref('DeploymentStrategy')], 'x-kubernetes-patch-strategy': 'retainKeys' },
          template: { type: 'object', properties: { metadata: { allOf: [ref('ObjectMeta')] }, spec: { allOf: [ref('PodSpec')] } } },
        },
      },
    },
  },
  // apimachinery strategicpatch patch_test.go MergeItem (RetainKeysMergeItem folded in)
  MergeItem: {
    type: 'object',
    properties: {
      name: str, value: str, other: str,
      mergingList: { type: 'array', items: ref('MergeItem'), 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
      nonMergingList: { type: 'array', items: ref('MergeItem') },
      mergingIntList: { type: 'array', items: int, 'x-kubernetes-patch-strategy': 'merge' },
      nonMergingIntList: { type: 'array', items: int },
      simpleMap: strMap,
      replacingItem: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-patch-strategy': 'replace' },
      retainKeysMap: { allOf: [ref('MergeItem')], 'x-kubernetes-patch-strategy': 'retainKeys' },
      retainKeysMergingList: { type: 'array', items: ref('MergeItem'), 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge,retainKeys' },
    },
  },
};

export function metaFor(kind: string): PatchMeta {
  return metaFromOpenAPI(ref(kind), { resolve: (r) => schemas[r.slice('#/components/schemas/'.length)] });
}

/** mulberry32: a small seeded PRNG, so failures reproduce from the seed. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const KEYS = ['a', 'b', 'c', 'd', 'x/y', 'm~n', '', 'é'];

/** A random JSON value; `nulls` allows null members and items. */
export function randomValue(rng: Rng, depth: number, nulls: boolean): JsonValue {
  const roll = rng.int(depth <= 0 ? 4 : 6);
  switch (roll) {
    case 0: return rng.pick(['', 's', 'v1', 'long string']);
    case 1: return rng.pick([0, 1, -2, 3.5, 1e6]);
    case 2: return rng.chance(0.5);
    case 3: return nulls && rng.chance(0.5) ? null : rng.pick(['n', 7]);
    case 4: return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth - 1, nulls));
    default: return randomObject(rng, depth - 1, nulls);
  }
}

export function randomObject(rng: Rng, depth: number, nulls: boolean): JsonObject {
  const o: JsonObject = {};
  for (let n = rng.int(5); n > 0; n--) o[rng.pick(KEYS)] = randomValue(rng, depth, nulls);
  return o;
}

/** A random modification of `v` (same shape most of the time, so patches are small). */
export function mutate(rng: Rng, v: JsonValue, depth: number): JsonValue {
  if (Array.isArray(v)) return rng.chance(0.3) ? randomValue(rng, depth, false) : v.map((x) => (rng.chance(0.3) ? mutate(rng, x, depth - 1) : x));
  if (v !== null && typeof v === 'object') {
    const o: JsonObject = {};
    for (const k of Object.keys(v)) {
      if (rng.chance(0.2)) continue;
      o[k] = rng.chance(0.4) ? mutate(rng, v[k]!, depth - 1) : v[k]!;
    }
    if (rng.chance(0.3)) o[rng.pick(KEYS)] = randomValue(rng, depth, false);
    return o;
  }
  return rng.chance(0.5) ? randomValue(rng, depth, false) : v;
}
