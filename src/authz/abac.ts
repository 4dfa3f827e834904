// ABAC (--authorization-mode=ABAC with --authorization-policy-file), as
// kube-apiserver v1.27's pkg/auth/authorizer/abac: a file of one JSON policy
// per line, read once at start.
//   - a versioned line `{"apiVersion":"abac.authorization.kubernetes.io/v1beta1",
//     "kind":"Policy","spec":{...}}` (also `abac.authorization.svc.io/v1beta1`,
//     and the `/v0` version with its fields at the top level); spec fields
//     user, group, readonly, apiGroup, namespace, resource, nonResourcePath;
//     `*` as user or group means every authenticated subject;
//   - any other line (no apiVersion or kind, or one not registered) is read as
//     the unversioned legacy format `{"user":"alice","readonly":true,...}`,
//     which kube converts: no user nor group → every authenticated subject, no
//     namespace → `*`, no resource → `*`, API group always `*`, and neither
//     namespace nor resource → every non-resource path too;
//   - blank lines and `#` comments are skipped; a line that cannot be read
//     fails start-up with kube's text naming the file, the line number and the
//     line.
// A request is allowed by the first policy whose subject (user, and group when
// both are given), verb (readonly policies allow only get, list and watch) and
// either resource attributes (namespace, resource, apiGroup: exact or `*`) or
// non-resource path (exact, `*`, or a trailing-`*` prefix) match; otherwise no
// opinion, "No policy matched.". Groups compare in either spelling (X.svc.io ≡
// X.k8s.io).
import { readFileSync } from 'node:fs';
import type { UserInfo } from '../authn/user.js';
import { AUTHENTICATED } from '../authn/user.js';
import { canonicalGroup } from '../endpoints/requestinfo.js';
import type { Attributes, Authorizer, Decision, Rules } from './authorizer.js';

/** The internal (converted) policy. */
export interface AbacPolicy {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly namespace: string;
  readonly resource: string;
  readonly nonResourcePath: string;
}

const V1BETA1 = ['abac.authorization.kubernetes.io/v1beta1', 'abac.authorization.svc.io/v1beta1'];
const V0 = ['abac.authorization.kubernetes.io/v0', 'abac.authorization.svc.io/v0'];
const READ_VERBS = new Set(['get', 'list', 'watch']);

export class AbacPolicyError extends Error {
  override readonly name = 'AbacPolicyError';
}

export class AbacAuthorizer implements Authorizer {
  readonly name = 'ABAC';
  constructor(readonly policies: readonly AbacPolicy[]) {}

  /** --authorization-policy-file; throws AbacPolicyError (kube's text) for a file that cannot be read or a bad line. */
  static fromFile(path: string): AbacAuthorizer {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new AbacPolicyError(`open ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
    }
    return new AbacAuthorizer(parsePolicyFile(text, path));
  }

  authorize(a: Attributes): Decision {
    for (const p of this.policies) if (matches(p, a)) return { decision: 'allow', reason: '' };
    return { decision: 'noOpinion', reason: 'No policy matched.' };
  }

  /** kube's ABAC RulesFor: every policy of the subject for the namespace (or `*`), never incomplete. */
  rulesFor(user: UserInfo, namespace: string): Rules {
    const resourceRules: Rules['resourceRules'][number][] = [];
    const nonResourceRules: Rules['nonResourceRules'][number][] = [];
    for (const p of this.policies) {
      if (!subjectMatches(p, user)) continue;
      if (p.namespace !== '*' && p.namespace !== namespace) continue;
      const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
      if (p.resource) resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource] });
      if (p.nonResourcePath) nonResourceRules.push({ verbs: [...verbs], nonResourceURLs: [p.nonResourcePath] });
    }
    return { resourceRules, nonResourceRules, incomplete: false };
  }
}

/** The policies of a file's text; `path` names the file in errors. */
export function parsePolicyFile(text: string, path: string): AbacPolicy[] {
  const out: AbacPolicy[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    try {
      out.push(parsePolicyLine(line));
    } catch (err) {
      throw new AbacPolicyError(`error reading policy file ${path}, line ${i + 1}: ${line}: ${(err as Error).message}`);
    }
  });
  return out;
}

/** One line: versioned v1beta1 (or v0), else the unversioned legacy format. Throws with the decoder's reason. */
export function parsePolicyLine(line: string): AbacPolicy {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (err) {
    throw new Error(`couldn't get version/kind; json parse error: ${goSyntaxError(line, err as Error)}`);
  }
  if (!isDict(v)) throw new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(v)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  for (const k of ['apiVersion', 'kind'] as const) {
    if (v[k] !== undefined && v[k] !== null && typeof v[k] !== 'string') throw new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(v[k])} into Go struct field .${k} of type string`);
  }
  const apiVersion = typeof v.apiVersion === 'string' ? v.apiVersion : '';
  if (v.kind === 'Policy' && V1BETA1.includes(apiVersion)) return fromV1beta1(v);
  if (v.kind === 'Policy' && V0.includes(apiVersion)) return fromV0(v);
  // Missing version or kind, or not registered: kube migrates the line as an unversioned (v0) policy.
  return fromV0(v);
}

type Dict = Record<string, unknown>;

function fromV1beta1(v: Dict): AbacPolicy {
  const spec = v.spec ?? {};
  if (!isDict(spec)) throw typeError(spec, 'Policy.spec', 'v1beta1.PolicySpec');
  const s = {
    user: str(spec, 'user', 'PolicySpec.spec.user'),
    group: str(spec, 'group', 'PolicySpec.spec.group'),
    readonly: bool(spec, 'readonly', 'PolicySpec.spec.readonly'),
    apiGroup: str(spec, 'apiGroup', 'PolicySpec.spec.apiGroup'),
    resource: str(spec, 'resource', 'PolicySpec.spec.resource'),
    namespace: str(spec, 'namespace', 'PolicySpec.spec.namespace'),
    nonResourcePath: str(spec, 'nonResourcePath', 'PolicySpec.spec.nonResourcePath'),
  };
  // v1beta1: `*` as user or group means every authenticated subject.
  if (s.user === '*' || s.group === '*') return { ...s, user: '', group: AUTHENTICATED };
  return s;
}

function fromV0(v: Dict): AbacPolicy {
  const user = str(v, 'user', 'Policy.user');
  const group = str(v, 'group', 'Policy.group');
  const readonly = bool(v, 'readonly', 'Policy.readonly');
  const resource = str(v, 'resource', 'Policy.resource');
  const namespace = str(v, 'namespace', 'Policy.namespace');
  const everyone = (user === '' && group === '') || user === '*' || group === '*';
  return {
    user: user === '*' || group === '*' ? '' : user,
    group: everyone ? AUTHENTICATED : group,
    readonly,
    apiGroup: '*',
    namespace: namespace || '*',
    resource: resource || '*',
    nonResourcePath: namespace === '' && resource === '' ? '*' : '',
  };
}

function str(o: Dict, k: string, field: string): string {
  const x = o[k];
  if (x === undefined || x === null) return '';
  if (typeof x !== 'string') throw typeError(x, field, 'string');
  return x;
}

function bool(o: Dict, k: string, field: string): boolean {
  const x = o[k];
  if (x === undefined || x === null) return false;
  if (typeof x !== 'boolean') throw typeError(x, field, 'bool');
  return x;
}

/** encoding/json's UnmarshalTypeError text. */
function typeError(v: unknown, field: string, goType: string): Error {
  return new Error(`json: cannot unmarshal ${goJsonType(v)} into Go struct field ${field} of type ${goType}`);
}

function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** An approximation of encoding/json's syntax error for a line JSON.parse refused. */
function goSyntaxError(line: string, err: Error): string {
  const at = /position (\d+)/.exec(err.message);
  const c = at ? line[Number(at[1])] : undefined;
  if (c === undefined) return 'unexpected end of JSON input';
  return `invalid character '${c}' looking for beginning of value`;
}

function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function matches(p: AbacPolicy, a: Attributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  // Every policy allows reads; a readonly one allows nothing else.
  if (p.readonly && !READ_VERBS.has(a.verb)) return false;
  return a.isResourceRequest ? resourceMatches(p, a) : nonResourceMatches(p, a.path);
}

/** A given user must be the user, a given group one of the groups; a policy naming neither matches no one. */
function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user !== '*' && p.user !== user.name) return false;
    matched = true;
  }
  if (p.group) {
    if (p.group !== '*' && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

function resourceMatches(p: AbacPolicy, a: Attributes & { isResourceRequest: true }): boolean {
  return (p.namespace === '*' || p.namespace === a.namespace)
    && (p.resource === '*' || p.resource === a.resource)
    && (p.apiGroup === '*' || p.apiGroup === a.apiGroup || canonicalGroup(p.apiGroup) === canonicalGroup(a.apiGroup));
}

function nonResourceMatches(p: AbacPolicy, path: string): boolean {
  const want = p.nonResourcePath;
  if (want === '*' || want === path) return true;
  return want.endsWith('*') && path.startsWith(want.replace(/\*+$/, ''));
}
