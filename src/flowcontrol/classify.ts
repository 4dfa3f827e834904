// Classification (kube's apf_controller match + rule.go): a request goes to the
// first FlowSchema, by matchingPrecedence then name, with a rule whose
// subjects include the user and whose resource or non-resource rules cover
// the request. Schemas are compiled once per configuration: verbs, groups,
// resources and namespaces become Sets, and the "*" wildcards flags.
import { createHash } from 'node:crypto';
import type { UserInfo } from '../authn/user.js';
import type { RequestInfo, ResourceRequestInfo } from '../endpoints/requestinfo.js';
import { canonicalGroup } from '../endpoints/requestinfo.js';
import type { ApiObject } from '../registry/object.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strs = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

/** A set with the "*" wildcard. */
interface Match {
  readonly all: boolean;
  readonly items: ReadonlySet<string>;
}
const match = (values: string[], map: (s: string) => string = (s) => s): Match => ({ all: values.includes('*'), items: new Set(values.map(map)) });
const has = (m: Match, v: string) => m.all || m.items.has(v);

type SubjectMatch =
  | { readonly kind: 'User'; readonly name: string }
  | { readonly kind: 'Group'; readonly name: string }
  | { readonly kind: 'ServiceAccount'; readonly namespace: string; readonly name: string };

interface ResourceRule {
  readonly verbs: Match;
  readonly groups: Match;
  readonly resources: Match;
  readonly clusterScope: boolean;
  readonly namespaces: Match;
}

interface NonResourceRule {
  readonly verbs: Match;
  readonly urls: readonly string[];
}

interface Rule {
  readonly subjects: readonly SubjectMatch[];
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
}

export interface CompiledFlowSchema {
  readonly name: string;
  readonly uid: string;
  readonly priorityLevel: string;
  readonly matchingPrecedence: number;
  readonly distinguisher: 'ByUser' | 'ByNamespace' | undefined;
  readonly rules: readonly Rule[];
}

function subjectOf(s: Obj): SubjectMatch | undefined {
  switch (s.kind) {
    case 'User': return { kind: 'User', name: String(obj(s.user).name ?? '') };
    case 'Group': return { kind: 'Group', name: String(obj(s.group).name ?? '') };
    case 'ServiceAccount': {
      const sa = obj(s.serviceAccount);
      return { kind: 'ServiceAccount', namespace: String(sa.namespace ?? ''), name: String(sa.name ?? '') };
    }
    default: return undefined;
  }
}

export function compileFlowSchema(fs: ApiObject): CompiledFlowSchema {
  const spec = obj((fs as unknown as Obj).spec);
  const dm = obj(spec.distinguisherMethod).type;
  return {
    name: fs.metadata.name ?? '',
    uid: fs.metadata.uid ?? '',
    priorityLevel: String(obj(spec.priorityLevelConfiguration).name ?? ''),
    matchingPrecedence: typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 1000,
    distinguisher: dm === 'ByUser' || dm === 'ByNamespace' ? dm : undefined,
    rules: arr(spec.rules).map((r) => {
      const rule = obj(r);
      return {
        subjects: arr(rule.subjects).map((s) => subjectOf(obj(s))).filter((s): s is SubjectMatch => s !== undefined),
        resourceRules: arr(rule.resourceRules).map((x) => {
          const rr = obj(x);
          return {
            verbs: match(strs(rr.verbs)), groups: match(strs(rr.apiGroups), canonicalGroup), resources: match(strs(rr.resources)),
            clusterScope: rr.clusterScope === true, namespaces: match(strs(rr.namespaces)),
          };
        }),
        nonResourceRules: arr(rule.nonResourceRules).map((x) => {
          const nr = obj(x);
          return { verbs: match(strs(nr.verbs)), urls: strs(nr.nonResourceURLs) };
        }),
      };
    }),
  };
}

/** kube's order: matchingPrecedence ascending, ties by name. */
export function byPrecedence(a: CompiledFlowSchema, b: CompiledFlowSchema): number {
  if (a.matchingPrecedence !== b.matchingPrecedence) return a.matchingPrecedence - b.matchingPrecedence;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

const SA_PREFIX = 'system:serviceaccount:';

function subjectMatches(s: SubjectMatch, user: UserInfo): boolean {
  switch (s.kind) {
    case 'User': return s.name === '*' || s.name === user.name;
    case 'Group': return s.name === '*' || user.groups.includes(s.name);
    case 'ServiceAccount': {
      if (!user.name.startsWith(SA_PREFIX)) return false;
      const rest = user.name.slice(SA_PREFIX.length);
      const colon = rest.indexOf(':');
      if (colon < 0 || rest.slice(0, colon) !== s.namespace) return false;
      return s.name === '*' || rest.slice(colon + 1) === s.name;
    }
  }
}

function urlMatches(patterns: readonly string[], path: string): boolean {
  for (const p of patterns) {
    if (p === '*' || p === path) return true;
    if (p.endsWith('*') && path.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

/** Whether any subject of the rule is the user. */
function subjectsMatch(rule: Rule, user: UserInfo): boolean {
  for (const s of rule.subjects) if (subjectMatches(s, user)) return true;
  return false;
}

/** Whether a rule's resource or non-resource rules cover the request; group and sub (resource/subresource) worked out once by the caller. */
function requestMatches(rule: Rule, info: RequestInfo, group: string, sub: string): boolean {
  if (!info.isResourceRequest) {
    for (const r of rule.nonResourceRules) if (has(r.verbs, info.verb) && urlMatches(r.urls, info.path)) return true;
    return false;
  }
  for (const r of rule.resourceRules) {
    if (has(r.verbs, info.verb) && has(r.groups, group) && has(r.resources, sub) &&
      (info.namespace === '' ? r.clusterScope : has(r.namespaces, info.namespace))) return true;
  }
  return false;
}

const subOf = (info: ResourceRequestInfo) => (info.subresource ? `${info.resource}/${info.subresource}` : info.resource);

export function schemaMatches(fs: CompiledFlowSchema, user: UserInfo, info: RequestInfo): boolean {
  const group = info.isResourceRequest ? canonicalGroup(info.apiGroup) : '';
  const sub = info.isResourceRequest ? subOf(info) : '';
  for (const r of fs.rules) if (subjectsMatch(r, user) && requestMatches(r, info, group, sub)) return true;
  return false;
}

/**
 * The schemas a user can match, in order, each with only the rules whose
 * subjects include the user: subjects depend on the user alone, so a caller
 * that classifies many requests of one user works this out once
 * (FlowControlConfig caches it) and checks only the request part of each rule.
 */
export interface UserCandidate<T> {
  readonly item: T;
  readonly rules: readonly Rule[];
}
export function candidatesFor<T>(ordered: readonly T[], schemaOf: (t: T) => CompiledFlowSchema, user: UserInfo): UserCandidate<T>[] {
  const out: UserCandidate<T>[] = [];
  for (const item of ordered) {
    const rules = schemaOf(item).rules.filter((r) => subjectsMatch(r, user));
    if (rules.length > 0) out.push({ item, rules });
  }
  return out;
}

/** The first candidate with a rule that covers the request, or undefined. */
export function firstCandidate<T>(candidates: readonly UserCandidate<T>[], info: RequestInfo): T | undefined {
  const group = info.isResourceRequest ? canonicalGroup(info.apiGroup) : '';
  const sub = info.isResourceRequest ? subOf(info) : '';
  for (const c of candidates) {
    for (const r of c.rules) if (requestMatches(r, info, group, sub)) return c.item;
  }
  return undefined;
}

/** The first matching schema of `ordered` (sorted byPrecedence), or undefined. */
export function classify(ordered: readonly CompiledFlowSchema[], user: UserInfo, info: RequestInfo): CompiledFlowSchema | undefined {
  for (const fs of ordered) if (schemaMatches(fs, user, info)) return fs;
  return undefined;
}

/** The flow distinguisher: the user's name (ByUser), the request's namespace (ByNamespace), or none. */
export function flowDistinguisher(fs: CompiledFlowSchema, user: UserInfo, info: RequestInfo): string {
  if (fs.distinguisher === 'ByUser') return user.name;
  if (fs.distinguisher === 'ByNamespace') return info.isResourceRequest ? info.namespace : '';
  return '';
}

/** kube's hashFlowID: the first 8 bytes (little-endian) of sha256(schema NUL distinguisher), as a bigint. */
export function hashFlowID(schema: string, distinguisher: string): bigint {
  const sum = createHash('sha256').update(schema).update('\0').update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}
