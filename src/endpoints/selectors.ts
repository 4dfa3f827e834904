// List and deletecollection filters from `labelSelector` and `fieldSelector`,
// with Kubernetes' grammar and error wording (apimachinery labels and fields).
// Parse errors are 400 BadRequest.
import { newBadRequest } from '../api/meta/index.js';
import { isObject, type ApiObject } from '../registry/object.js';
import type { ServedResource } from '../registry/registry.js';

// ---- label selectors ---------------------------------------------------------

type LabelOp = 'exists' | '!' | '=' | '!=' | 'in' | 'notin' | 'gt' | 'lt';
interface LabelRequirement {
  readonly key: string;
  readonly op: LabelOp;
  readonly values: readonly string[];
}

class SelectorError extends Error {}

type Tok = { t: 'id' | '!' | '=' | '==' | '!=' | '(' | ')' | ',' | 'in' | 'notin' | '>' | '<' | 'end'; v: string };

function lex(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const special = '!=(),<> ';
  while (i < s.length) {
    const c = s[i]!;
    if (c === ' ' || c === '\t') { i++; continue; }
    if (c === '=' && s[i + 1] === '=') { out.push({ t: '==', v: '==' }); i += 2; continue; }
    if (c === '!' && s[i + 1] === '=') { out.push({ t: '!=', v: '!=' }); i += 2; continue; }
    if (c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<') { out.push({ t: c, v: c }); i++; continue; }
    let j = i;
    while (j < s.length && !special.includes(s[j]!)) j++;
    const word = s.slice(i, j);
    out.push({ t: word === 'in' ? 'in' : word === 'notin' ? 'notin' : 'id', v: word });
    i = j;
  }
  out.push({ t: 'end', v: '' });
  return out;
}

function parseLabels(s: string): LabelRequirement[] {
  const toks = lex(s);
  let p = 0;
  const peek = () => toks[p]!;
  const next = () => toks[p++]!;
  const reqs: LabelRequirement[] = [];
  if (peek().t === 'end') return reqs;
  for (;;) {
    let t = next();
    let negate = false;
    if (t.t === '!') { negate = true; t = next(); }
    if (t.t !== 'id') throw new SelectorError(`found '${t.v}', expected: !, identifier, or 'end of string'`);
    const key = t.v;
    const op = peek();
    if (negate || op.t === ',' || op.t === 'end') {
      reqs.push({ key, op: negate ? '!' : 'exists', values: [] });
    } else {
      next();
      if (op.t === '=' || op.t === '==' || op.t === '!=' || op.t === '>' || op.t === '<') {
        const v = peek();
        const value = v.t === 'id' ? next().v : '';
        if (v.t !== 'id' && v.t !== ',' && v.t !== 'end') throw new SelectorError(`found '${v.v}', expected: identifier`);
        const o: LabelOp = op.t === '!=' ? '!=' : op.t === '>' ? 'gt' : op.t === '<' ? 'lt' : '=';
        if ((o === 'gt' || o === 'lt') && !/^-?\d+$/.test(value)) throw new SelectorError(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`);
        reqs.push({ key, op: o, values: [value] });
      } else if (op.t === 'in' || op.t === 'notin') {
        const open = next();
        if (open.t !== '(') throw new SelectorError(`unable to parse requirement: found '${open.v}' expected: '('`);
        const values: string[] = [];
        for (;;) {
          const v = next();
          if (v.t === ')') break;
          if (v.t === ',') { values.push(''); continue; }
          if (v.t !== 'id') throw new SelectorError(`unable to parse requirement: found '${v.v}', expected: ',', ')' or identifier`);
          values.push(v.v);
          const sep = next();
          if (sep.t === ')') break;
          if (sep.t !== ',') throw new SelectorError(`unable to parse requirement: found '${sep.v}', expected: ',' or ')'`);
        }
        reqs.push({ key, op: op.t, values });
      } else {
        throw new SelectorError(`unable to parse requirement: found '${op.v}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    }
    const after = next();
    if (after.t === 'end') break;
    if (after.t !== ',') throw new SelectorError(`found '${after.v}', expected: ',' or 'end of string'`);
  }
  return reqs;
}

function matchLabel(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case 'exists': return has;
    case '!': return !has;
    case '=': return has && v === r.values[0];
    case '!=': return !has || v !== r.values[0];
    case 'in': return has && r.values.includes(v!);
    case 'notin': return !has || !r.values.includes(v!);
    case 'gt': return has && /^-?\d+$/.test(v!) && Number(v) > Number(r.values[0]);
    case 'lt': return has && /^-?\d+$/.test(v!) && Number(v) < Number(r.values[0]);
  }
}

// ---- field selectors ---------------------------------------------------------

interface FieldRequirement {
  readonly field: string;
  readonly op: '=' | '!=';
  readonly value: string;
}

/** Splits on unescaped commas; a term is key=value, key==value or key!=value (backslash escapes). */
function parseFields(s: string): FieldRequirement[] {
  const terms: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) { cur += s[i]! + s[i + 1]!; i++; }
    else if (s[i] === ',') { terms.push(cur); cur = ''; }
    else cur += s[i];
  }
  terms.push(cur);
  const reqs: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === '') continue;
    const m = /^((?:[^\\=!]|\\.)*)(==|!=|=)((?:[^\\=!]|\\.)*)$/.exec(term);
    if (!m) throw new SelectorError(`invalid selector: '${s}'; can't understand '${term}'`);
    const unescape = (x: string) => x.replace(/\\(.)/g, '$1');
    reqs.push({ field: unescape(m[1]!), op: m[2] === '!=' ? '!=' : '=', value: unescape(m[3]!) });
  }
  return reqs;
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const at = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((x, k) => (isObject(x) ? x[k] : undefined), o);

/** Extra selectable fields per (group/resource) beyond metadata.name and metadata.namespace. */
const EXTRA_FIELDS: Record<string, readonly string[]> = {
  '/pods': ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  '/events': ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  '/secrets': ['type'],
  '/namespaces': ['status.phase'],
  '/nodes': ['spec.unschedulable'],
  '/replicationcontrollers': ['status.replicas'],
  'apps/replicasets': ['status.replicas'],
  'batch/jobs': ['status.successful'],
  'certificates.svc.io/certificatesigningrequests': ['spec.signerName'],
};

function fieldValue(group: string, resource: string, obj: ApiObject, field: string): string {
  if (field === 'metadata.name') return str(obj.metadata.name);
  if (field === 'metadata.namespace') return str(obj.metadata.namespace);
  if (group === '' && resource === 'events' && field === 'source') return str(at(obj, 'source.component'));
  if (group === '' && resource === 'pods' && field === 'status.podIPs') return str(at(obj, 'status.podIP'));
  if (group === '' && resource === 'pods' && field === 'spec.hostNetwork') return String(at(obj, 'spec.hostNetwork') === true);
  if (group === '' && resource === 'nodes' && field === 'spec.unschedulable') return String(at(obj, 'spec.unschedulable') === true);
  if (field.endsWith('.replicas') || field === 'status.successful') return str(at(obj, field) ?? 0);
  return str(at(obj, field));
}

function checkFields(served: ServedResource, reqs: readonly FieldRequirement[]): void {
  const extra = EXTRA_FIELDS[`${served.group}/${served.resource}`];
  for (const r of reqs) {
    if (r.field === 'metadata.name' || r.field === 'metadata.namespace') continue;
    if (extra?.includes(r.field)) continue;
    if (extra) throw newBadRequest(`field label not supported: ${r.field}`);
    throw newBadRequest(`"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
  }
}

/** The filter for a list or deletecollection request, or undefined when there are no selectors. */
export function listPredicate(served: ServedResource, q: URLSearchParams): ((obj: ApiObject) => boolean) | undefined {
  const ls = q.get('labelSelector');
  const fs = q.get('fieldSelector');
  if (!ls && !fs) return undefined;
  let labels: LabelRequirement[] = [];
  let fields: FieldRequirement[] = [];
  try {
    if (ls) labels = parseLabels(ls);
    if (fs) fields = parseFields(fs);
  } catch (err) {
    if (err instanceof SelectorError) throw newBadRequest(err.message);
    throw err;
  }
  checkFields(served, fields);
  return (obj) => {
    const l = obj.metadata.labels ?? {};
    for (const r of labels) if (!matchLabel(r, l)) return false;
    for (const r of fields) if ((fieldValue(served.group, served.resource, obj, r.field) === r.value) !== (r.op === '=')) return false;
    return true;
  };
}

export const _test = { parseLabels, parseFields };
