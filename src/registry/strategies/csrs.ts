// CertificateSigningRequests (kube v1.27 pkg/registry/certificates/certificates
// strategy.go): cluster-scoped; a create records who asked (spec.username,
// uid, groups, extra) and starts without status; the main resource changes
// neither spec nor status, /status changes status but keeps the Approved and
// Denied conditions it was not asked to add or remove, /approval changes only
// the conditions. Conditions written without timestamps get them.
import { baseStrategy, type Strategy } from '../strategy.js';
import { isObject, nowTimestamp, type ApiObject } from '../object.js';
import type { UserInfo } from '../../authn/user.js';
import { pathSegmentName } from './names.js';

type Condition = Record<string, unknown>;

const statusOf = (o: ApiObject): Record<string, unknown> => (isObject(o.status) ? o.status : {});
const conditionsOf = (o: ApiObject): Condition[] => (Array.isArray(statusOf(o).conditions) ? (statusOf(o).conditions as unknown[]).filter(isObject) : []);
const clone = <T>(v: T): T => structuredClone(v);

function recordRequester(obj: ApiObject, user: UserInfo | undefined): void {
  const spec = isObject(obj.spec) ? obj.spec : (obj.spec = {});
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (!user) return;
  if (user.name) spec.username = user.name;
  if (user.uid) spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
}

/** preserveConditionInstances: the same number of conditions of `type` as before keep their old values. */
function preserveConditions(conditions: Condition[], old: Condition[], type: string): void {
  const oldOnes = old.filter((c) => c.type === type);
  const indices = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
  if (indices.length !== oldOnes.length) return; // added or removed: validation refuses it
  indices.forEach((at, k) => (conditions[at] = clone(oldOnes[k]!)));
}

/** populateConditionTimestamps: lastUpdateTime now; lastTransitionTime kept from an old condition of the same type and status. */
function fillTimestamps(conditions: Condition[], old: Condition[]): void {
  const now = nowTimestamp();
  for (const c of conditions) {
    if (!c.lastUpdateTime) c.lastUpdateTime = now;
    if (!c.lastTransitionTime) {
      const before = old.find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime);
      c.lastTransitionTime = before ? before.lastTransitionTime : now;
    }
  }
}

function setConditions(obj: ApiObject, conditions: Condition[]): void {
  const status = { ...statusOf(obj) };
  if (conditions.length > 0) status.conditions = conditions;
  else delete status.conditions;
  obj.status = status;
}

export const certificateSigningRequests: Strategy = baseStrategy({
  namespaced: false,
  // ValidateCertificateRequestName accepts any name; the path-segment rule keeps storage keys sound.
  validateName: pathSegmentName,
  hasStatus: true,
  statusWriters: ['approval'],
  prepareForCreate(obj, user) {
    recordRequester(obj, user);
  },
  prepareForUpdate(obj, old, subresource) {
    obj.spec = clone(old.spec);
    const oldConditions = conditionsOf(old);
    if (subresource === 'status') {
      const conditions = conditionsOf(obj);
      preserveConditions(conditions, oldConditions, 'Approved');
      preserveConditions(conditions, oldConditions, 'Denied');
      fillTimestamps(conditions, oldConditions);
      setConditions(obj, conditions);
    } else if (subresource === 'approval') {
      const conditions = conditionsOf(obj);
      fillTimestamps(conditions, oldConditions);
      obj.status = clone(statusOf(old));
      setConditions(obj, conditions);
    }
    // The main resource: the store has put the old status back.
  },
});
