// The component table behind every published document: one canonical Schema
// per component id (Kubernetes' names, e.g. io.k8s.api.core.v1.Pod), the
// group-version-kinds of the top-level types, and the closure of the ids a
// document needs.
//
// Canonical definitions, in order of trust: the meta/v1 pieces and the
// `definitions` the core, apps and batch packages export (types as written
// at their definitions); the kinds themselves; then, for a shared type
// reached only through uses, the use whose description most uses share
// (uses of such types differ only in their descriptions today).
// Kinds without a schema yet get a placeholder that keeps unknown fields;
// List kinds are derived from their item kinds.
import * as common from '../schema/common.js';
import type { Schema } from '../schema/model.js';
import { registeredKinds, schemaFor } from '../api/schemas.js';
import { definitions as coreDefinitions } from '../api/core/v1/index.js';
import { definitions as appsDefinitions } from '../api/apps/v1/index.js';
import { definitions as batchDefinitions } from '../api/batch/v1/index.js';
import type { ServedResource } from '../registry/registry.js';
import * as meta from './meta.js';
import { kubernetesGroup } from '../endpoints/requestinfo.js';

/** A group-version-kind; the group in the svc.io spelling unless said otherwise. */
export interface GVK {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const STATUS_ID = `${META}.Status`;
export const DELETE_OPTIONS_ID = `${META}.DeleteOptions`;
export const WATCH_EVENT_ID = `${META}.WatchEvent`;
export const PATCH_ID = `${META}.Patch`;
export const RESOURCE_LIST_ID = `${META}.APIResourceList`;

export class Definitions {
  private readonly byId = new Map<string, Schema>();
  private readonly gvks = new Map<string, GVK[]>();
  private readonly kinds = new Map<string, string>();
  private readonly lists = new Map<string, string>();

  constructor(resources: readonly ServedResource[]) {
    for (const s of [...common.definitionsOf(common), ...coreDefinitions, ...appsDefinitions, ...batchDefinitions, ...common.definitionsOf(meta)]) {
      if (!this.byId.has(s.schema.id!)) this.byId.set(s.schema.id!, s.schema);
    }
    this.gvks.set(STATUS_ID, [{ group: '', version: 'v1', kind: 'Status' }]);
    const gvs = new Map<string, { group: string; version: string }>([['/v1', { group: '', version: 'v1' }]]);
    for (const r of resources) {
      gvs.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
      this.addKind({ group: r.group, version: r.version, kind: r.kind });
      if (r.verbs.includes('list')) this.addList({ group: r.group, version: r.version, kind: r.kind });
      for (const s of r.subresources) {
        if (isConnect(s)) continue;
        this.addKind({ group: s.group ?? r.group, version: s.version ?? r.version, kind: s.kind });
      }
    }
    for (const id of [DELETE_OPTIONS_ID, WATCH_EVENT_ID]) {
      const kind = id.slice(META.length + 1);
      this.gvks.set(id, [...gvs.values()].map((gv) => ({ ...gv, kind })));
    }
    this.adoptUses();
  }

  /** The canonical schema of a component. */
  schema(id: string): Schema {
    const s = this.byId.get(id);
    if (s === undefined) throw new Error(`openapi: no component ${id}`);
    return s;
  }

  /** Whether `id` names a component (uses of it become references). */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The group-version-kinds a top-level component stands for (svc.io spelling), if any. */
  gvksOf(id: string): readonly GVK[] | undefined {
    return this.gvks.get(id);
  }

  /** The component id of a kind's objects. */
  kindId(k: GVK): string {
    const id = this.kinds.get(key(k));
    if (id === undefined) throw new Error(`openapi: kind ${key(k)} was not registered`);
    return id;
  }

  /** The component id of a kind's List. */
  listId(k: GVK): string {
    const id = this.lists.get(key(k));
    if (id === undefined) throw new Error(`openapi: list of ${key(k)} was not registered`);
    return id;
  }

  /** `ids` and every component they reach, sorted. */
  closure(ids: Iterable<string>): string[] {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      walk(this.schema(id), true, (nested) => visit(nested));
    };
    for (const id of ids) visit(id);
    return [...seen].sort();
  }

  private addKind(k: GVK): void {
    if (this.kinds.has(key(k))) return;
    const s = schemaFor(k.group, k.version, k.kind) ?? placeholder(k, packageOf(k));
    const id = s.id!;
    if (!this.byId.has(id)) this.byId.set(id, s);
    this.kinds.set(key(k), id);
    this.addGvk(id, k);
  }

  private addList(k: GVK): void {
    if (this.lists.has(key(k))) return;
    const itemId = this.kindId(k);
    const id = `${itemId}List`;
    const item = this.schema(itemId);
    this.byId.set(id, {
      type: 'object',
      description: `A list of ${k.kind} objects.`,
      id,
      required: ['items'],
      properties: {
        apiVersion: common.typeMeta.apiVersion.schema,
        kind: common.typeMeta.kind.schema,
        metadata: { ...common.ListMeta.schema, description: 'Standard list metadata.' },
        items: { type: 'array', description: `The ${k.kind} objects.`, items: item },
      },
    });
    this.lists.set(key(k), id);
    this.addGvk(id, { ...k, kind: `${k.kind}List` });
  }

  private addGvk(id: string, k: GVK): void {
    const list = this.gvks.get(id) ?? [];
    if (!list.some((x) => key(x) === key(k))) list.push(k);
    this.gvks.set(id, list);
  }

  /** Gives every shared type reached only through uses a definition: the use with the most common description. */
  private adoptUses(): void {
    const uses = new Map<string, Schema[]>();
    const walked = new Set<string>();
    const visit = (s: Schema) => {
      walk(s, true, (_id, use) => {
        const list = uses.get(use.id!) ?? [];
        if (!list.includes(use)) list.push(use);
        uses.set(use.id!, list);
        if (walked.has(use.id!)) return;
        walked.add(use.id!);
        visit(this.byId.get(use.id!) ?? use);
      });
    };
    for (const s of [...this.byId.values()]) {
      walked.add(s.id!);
      visit(s);
    }
    for (const [id, list] of uses) {
      if (this.byId.has(id)) continue;
      const counts = new Map<string | undefined, number>();
      for (const u of list) counts.set(u.description, (counts.get(u.description) ?? 0) + 1);
      let best = list[0]!;
      for (const u of list) if (counts.get(u.description)! > counts.get(best.description)!) best = u;
      this.byId.set(id, best);
    }
  }
}

/** Calls `onRef` for each shared-type use directly under `s` (not descending into them). */
export function walk(s: Schema, top: boolean, onRef: (id: string, use: Schema) => void): void {
  if (!top && s.id !== undefined) {
    onRef(s.id, s);
    return;
  }
  for (const p of Object.values(s.properties ?? {})) walk(p, false, onRef);
  if (s.items) walk(s.items, false, onRef);
  if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, false, onRef);
}

/** A connecter subresource (exec, attach, portforward, proxy): marked `connect` in the catalogue; its kind is an *Options type. */
export function isConnect(s: { readonly kind: string; readonly verbs: readonly string[] }): boolean {
  return (s as { connect?: boolean }).connect === true || /Options$/.test(s.kind);
}

const key = (k: GVK) => `${k.group}/${k.version}/${k.kind}`;

/** The OpenAPI package of a group-version: that of a kind it registers, else one made up from the group. */
function packageOf(k: GVK): string {
  for (const r of registeredKinds()) {
    if (r.group !== k.group || r.version !== k.version) continue;
    const id = schemaFor(r.group, r.version, r.kind)?.id;
    if (id !== undefined) return id.slice(0, id.lastIndexOf('.'));
  }
  const name = k.group === '' ? 'core' : k.group.replace(/\.svc\.io$/, '');
  return `io.k8s.api.${name}.${k.version}`;
}

/** A kind without a schema yet: its metadata is known, everything else is kept as sent. */
function placeholder(k: GVK, pkg: string): Schema {
  return {
    type: 'object',
    id: `${pkg}.${k.kind}`,
    description: `A ${k.kind}. Its fields are not described yet; the server keeps them as sent.`,
    properties: {
      apiVersion: common.typeMeta.apiVersion.schema,
      kind: common.typeMeta.kind.schema,
      metadata: common.ObjectMeta.schema,
    },
    'x-kubernetes-preserve-unknown-fields': true,
  };
}

/** The x-kubernetes-group-version-kind list of a top-level type: each GVK in the svc.io and k8s.io spellings. */
export function gvkExtension(gvks: readonly GVK[]): { group: string; kind: string; version: string }[] {
  const out: { group: string; kind: string; version: string }[] = [];
  for (const k of gvks) {
    for (const group of new Set([k.group, kubernetesGroup(k.group)])) out.push({ group, kind: k.kind, version: k.version });
  }
  return out;
}
