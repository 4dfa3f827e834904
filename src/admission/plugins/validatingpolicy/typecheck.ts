// status.typeChecking of a policy (kube's TypeChecker, v1.27): each
// validation expression checked against the schema of every kind the
// policy's matchConstraints name explicitly (groups and versions without
// `*`, resources without `*` or a subresource; at most 10 kinds, in group,
// version, kind order), `params` typed by the paramKind's schema. Only the
// kinds with issues are reported, one line each:
//   apps/v1, Kind=Deployment: ERROR: <input>:1:8: undefined field 'foo'
// Warnings never change what the policy does.
import { kubernetesGroup } from '../../../endpoints/requestinfo.js';
import type { AdmissionCelEngine, OpenAPISchema } from '../../matchconditions/engine.js';

export interface GroupVersionKind { readonly group: string; readonly version: string; readonly kind: string }

export interface TypeCheckDeps {
  /** The kinds a group/version/resource names (kube's RESTMapper.KindsFor); none when it is not served. */
  readonly kindsFor: (group: string, version: string, resource: string) => readonly GroupVersionKind[];
  /** The schema of a kind; undefined when there is none (kube: ErrSchemaNotFound, the kind is skipped). */
  readonly schemaOf: (gvk: GroupVersionKind) => OpenAPISchema | undefined;
}

export interface ExpressionWarning { readonly fieldRef: string; readonly warning: string }

const MAX_TYPES_TO_CHECK = 10;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const gvkString = (g: GroupVersionKind) => `${kubernetesGroup(g.group)}/${g.version}, Kind=${g.kind}`;

/** kube's typesToCheck. */
export function typesToCheck(spec: Obj, deps: TypeCheckDeps): GroupVersionKind[] {
  const found = new Map<string, GroupVersionKind>();
  const sorted = () => [...found.values()].sort((a, b) => cmp(a.group, b.group) || cmp(a.version, b.version) || cmp(a.kind, b.kind));
  let count = 0;
  for (const raw of Array.isArray(obj(spec.matchConstraints).resourceRules) ? (obj(spec.matchConstraints).resourceRules as unknown[]) : []) {
    const r = obj(raw);
    const groups = strs(r.apiGroups);
    const versions = strs(r.apiVersions);
    if (groups.length === 0 || groups.some((g) => g.includes('*'))) continue;
    if (versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const resources = strs(r.resources).filter((x) => !x.includes('*') && !x.includes('/'));
    if (resources.length === 0) continue;
    for (const g of [...groups].sort(cmp)) {
      for (const v of [...versions].sort(cmp)) {
        for (const res of [...resources].sort(cmp)) {
          for (const gvk of deps.kindsFor(g, v, res)) {
            found.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, gvk);
            if (++count === MAX_TYPES_TO_CHECK) return sorted();
          }
        }
      }
    }
  }
  return sorted();
}

/** The warnings of a policy, one per validation that fails checking against some kind. */
export function typeCheckPolicy(engine: AdmissionCelEngine, policy: Obj, deps: TypeCheckDeps): ExpressionWarning[] {
  const spec = obj(policy.spec);
  const schemas = typesToCheck(spec, deps).flatMap((gvk) => {
    const s = deps.schemaOf(gvk);
    return s ? [{ gvk, schema: s }] : [];
  });
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  let params: OpenAPISchema | undefined;
  if (hasParams) {
    const pk = obj(spec.paramKind);
    const apiVersion = typeof pk.apiVersion === 'string' ? pk.apiVersion : '';
    const parts = apiVersion.split('/');
    if (parts.length <= 2 && typeof pk.kind === 'string') {
      const [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
      params = deps.schemaOf({ group, version, kind: pk.kind });
    }
  }
  const out: ExpressionWarning[] = [];
  (Array.isArray(spec.validations) ? spec.validations : []).forEach((v, i) => {
    const expression = typeof obj(v).expression === 'string' ? (obj(v).expression as string) : '';
    const lines: string[] = [];
    for (const { gvk, schema } of schemas) {
      const issues = engine.typeCheck(expression, hasParams, { object: schema, ...(params ? { params } : {}) });
      if (issues !== undefined) lines.push(`${gvkString(gvk)}: ${issues}`);
    }
    if (lines.length > 0) out.push({ fieldRef: `spec.validations[${i}].expression`, warning: lines.join('\n') });
  });
  return out;
}
