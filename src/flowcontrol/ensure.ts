// Keeping the bootstrap configuration in storage (kube's
// registry/flowcontrol/ensurer, run by the priority-and-fairness-config-producer
// post-start hook at start and then every minute):
//  - mandatory objects (exempt, catch-all): created when missing; their spec
//    and the autoupdate annotation always restored;
//  - suggested objects: created when missing; updated to the bootstrap spec
//    only while the autoupdate annotation says "true", or is absent (or not a
//    boolean) on an object the operator has not changed (generation 1);
//  - objects the server made earlier and no longer suggests (not bootstrap,
//    autoupdate "true") are deleted.
// kube's annotation key apf.kubernetes.io/autoupdate-spec and ours
// apf.svc.io/autoupdate-spec are both written; "false" in either protects.
import type { Registry } from '../registry/registry.js';
import type { ApiObject } from '../registry/object.js';
import { schemaFor } from '../api/schemas.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { isStatusError } from '../api/meta/index.js';
import {
  AUTOUPDATE_ANNOTATIONS, FLOWCONTROL_API_VERSION, FLOWCONTROL_GROUP, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS,
} from './bootstrap.js';

export const ENSURE_PERIOD_MS = 60_000;
/** kube's field manager of the ensurer's writes. */
const MANAGER = 'api-priority-and-fairness-config-producer-v1';

/** The autoupdate annotation read: false wins over true; undefined when neither key holds a boolean. */
export function autoUpdateOf(o: ApiObject): boolean | undefined {
  const ann = o.metadata.annotations ?? {};
  const values = AUTOUPDATE_ANNOTATIONS.map((k) => ann[k]?.toLowerCase()).map((v) => (v === 'true' || v === '1' || v === 't' ? true : v === 'false' || v === '0' || v === 'f' ? false : undefined));
  if (values.includes(false)) return false;
  if (values.includes(true)) return true;
  return undefined;
}

/** Whether a suggested object may be brought to the bootstrap spec (kube's shouldUpdateSpec). */
export function suggestedMayUpdate(o: ApiObject): boolean {
  return autoUpdateOf(o) ?? (o.metadata.generation ?? 1) === 1;
}

/** Deep equality regardless of key order. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export type EnsureAction = 'none' | 'update';

/** What the ensurer does with an existing object, and the object to write. */
export function ensureAction(existing: ApiObject, bootstrap: ApiObject, mandatory: boolean): { action: EnsureAction; object: ApiObject } {
  if (!mandatory && !suggestedMayUpdate(existing)) return { action: 'none', object: existing };
  const ann = existing.metadata.annotations ?? {};
  const annotated = AUTOUPDATE_ANNOTATIONS.every((k) => ann[k] === 'true');
  const want = (bootstrap as unknown as Record<string, unknown>).spec;
  if (annotated && same((existing as unknown as Record<string, unknown>).spec, want)) return { action: 'none', object: existing };
  const next = structuredClone(existing) as ApiObject & { spec?: unknown };
  next.metadata.annotations = { ...ann, ...Object.fromEntries(AUTOUPDATE_ANNOTATIONS.map((k) => [k, 'true'])) };
  next.spec = structuredClone(want);
  return { action: 'update', object: next };
}

const isReason = (err: unknown, reason: string) => isStatusError(err) && err.status.reason === reason;

async function ensureResource(registry: Registry, resource: string, kind: string, mandatory: readonly ApiObject[], suggested: readonly ApiObject[]): Promise<void> {
  const store = registry.store(FLOWCONTROL_GROUP, resource);
  const schema = schemaFor(FLOWCONTROL_GROUP, 'v1beta3', kind);
  const track = (live: ApiObject | undefined, next: ApiObject) => trackWrite({ manager: MANAGER, apiVersion: FLOWCONTROL_API_VERSION, kind, schema }, live, next);
  const one = async (bootstrap: ApiObject, isMandatory: boolean) => {
    const name = bootstrap.metadata.name!;
    for (let attempt = 1; ; attempt++) {
      try {
        let existing: ApiObject | undefined;
        try {
          existing = await store.get('', name);
        } catch (err) {
          if (!isReason(err, 'NotFound')) throw err;
        }
        if (!existing) {
          await store.create('', structuredClone(bootstrap), { dryRun: false, track });
          return;
        }
        const { action, object } = ensureAction(existing, bootstrap, isMandatory);
        if (action === 'update') await store.update('', name, object, { dryRun: false, track });
        return;
      } catch (err) {
        if (!(isReason(err, 'Conflict') || isReason(err, 'AlreadyExists')) || attempt >= 5) throw new Error(`unable to ensure ${kind} ${name}: ${(err as Error).message}`, { cause: err });
      }
    }
  };
  await Promise.all([...suggested.map((o) => one(o, false)), ...mandatory.map((o) => one(o, true))]);
  // objects we made that are no longer suggested
  const names = new Set([...mandatory, ...suggested].map((o) => o.metadata.name));
  const { items } = await store.list('');
  for (const o of items) {
    if (names.has(o.metadata.name) || autoUpdateOf(o) !== true) continue;
    try {
      await store.delete('', o.metadata.name!, { dryRun: false, preconditions: { uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion } });
    } catch (err) {
      if (!(isReason(err, 'NotFound') || isReason(err, 'Conflict'))) throw err;
    }
  }
}

/** One run of the ensurer: priority levels first (the schemas refer to them), then flow schemas. */
export async function ensureBootstrapConfiguration(registry: Registry): Promise<void> {
  await ensureResource(registry, 'prioritylevelconfigurations', 'PriorityLevelConfiguration', MANDATORY_PRIORITY_LEVELS, SUGGESTED_PRIORITY_LEVELS);
  await ensureResource(registry, 'flowschemas', 'FlowSchema', MANDATORY_FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS);
}
