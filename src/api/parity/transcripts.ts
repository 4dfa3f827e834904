// Objects of given kinds found in the golden transcripts (requests, responses
// and watch events of ../shared/reference/transcripts/golden), so a suite can
// check that real v1.26 objects validate against our schemas and carry no
// unknown fields. The recordings normalise server values to placeholders;
// those that a schema's formats would reject are put back into a valid shape:
// `<time>` becomes a timestamp and `port#N` (an allocated node port) a number.
// A field whose value is null is left out, as Go's decoder treats it as unset
// (Go writes the zero creationTimestamp of a pod template's metadata as null).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject } from '../../schema/model.js';
import { REFERENCE_DIR } from './reference.js';

export interface FoundObject {
  /** Where it was found: `<file> <JSON path>`. */
  where: string;
  kind: string;
  object: { [key: string]: unknown };
}

/** Placeholders that stand for server-made values, each with a value of the right shape. */
const PLACEHOLDERS: [RegExp, (m: RegExpExecArray) => unknown][] = [
  [/^<time>$/, () => '2023-01-01T00:00:00Z'],
  [/^port#(\d+)$/, (m) => 30000 + Number(m[1])],
];

function restore(v: unknown): unknown {
  if (typeof v === 'string') {
    for (const [re, value] of PLACEHOLDERS) {
      const m = re.exec(v);
      if (m) return value(m);
    }
    return v;
  }
  if (Array.isArray(v)) return v.map(restore);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null ? [] : [[k, restore(x)]])));
  return v;
}

/** The apiVersion of a group-version as objects spell it: `v1` for the core group, else `<group>/<version>`. */
export function apiVersionOf(k8sGroup: string, version: string): string {
  return k8sGroup === '' ? version : `${k8sGroup}/${version}`;
}

/**
 * Every object whose apiVersion is `apiVersion` (Kubernetes spelling, e.g.
 * `rbac.authorization.k8s.io/v1`, or `v1` for core) and whose kind is one of
 * `kinds`, and every item (without a kind of its own) of a `<Kind>List` of
 * that apiVersion.
 */
/**
 * The themes of the first set of golden transcripts (the API core). The second set (authn, rbac,
 * reviews, impersonate, admission, crd, celrules, vap, webhook) answers with what those features
 * decide — e.g. a 422 from an admission policy, not from validation — so a replay that checks one
 * layer uses the first set only, until the issue that builds the feature replays its scenarios.
 */
export const CORE_THEMES = ['crud', 'errors', 'defaults', 'ns', 'finalizers', 'list', 'watch', 'patch', 'apply', 'dryrun', 'fieldvalidation', 'table', 'health', 'discovery'] as const;

/** Whether a golden file belongs to the first (API core) set. */
export function isCoreTranscript(file: string): boolean {
  return (CORE_THEMES as readonly string[]).includes(file.split('-')[0]!);
}

export function transcriptObjects(apiVersion: string, kinds: readonly string[]): FoundObject[] {
  if (REFERENCE_DIR === undefined) return [];
  const dir = join(REFERENCE_DIR, 'transcripts', 'golden');
  if (!existsSync(dir)) return [];
  const out: FoundObject[] = [];
  const visit = (v: unknown, where: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, `${where}[${i}]`));
      return;
    }
    if (!isObject(v)) return;
    // An object, not a reference to one (ownerReferences, scaleTargetRef carry apiVersion and kind too).
    if (v.apiVersion === apiVersion && typeof v.kind === 'string' && isObject(v.metadata)) {
      if (kinds.includes(v.kind)) out.push({ where, kind: v.kind, object: restore(v) as FoundObject['object'] });
      const itemKind = v.kind.endsWith('List') ? v.kind.slice(0, -4) : undefined;
      if (itemKind !== undefined && kinds.includes(itemKind) && Array.isArray(v.items)) {
        v.items.forEach((item, i) => {
          if (isObject(item) && item.kind === undefined) out.push({ where: `${where}.items[${i}]`, kind: itemKind, object: restore(item) as FoundObject['object'] });
        });
      }
    }
    for (const [k, x] of Object.entries(v)) visit(x, `${where}.${k}`);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.callbacks.json')).sort()) {
    visit(JSON.parse(readFileSync(join(dir, file), 'utf8')), file);
  }
  return out;
}
