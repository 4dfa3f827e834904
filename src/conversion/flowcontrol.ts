// flowcontrol.apiserver.svc.io between v1beta3 (the storage version) and
// v1beta2, as kube-apiserver v1.27 converts them. The two versions differ in
// one field name: a limited priority level's share of the server's
// concurrency, v1beta2 assuredConcurrencyShares, v1beta3
// nominalConcurrencyShares (same value, same place). FlowSchema is the same in
// both. (The zero-shares annotation of later releases does not exist in 1.27:
// there 0 still means "use the default", 30.)
import { isObj, type Obj } from './gojson.js';

const V1BETA2 = 'assuredConcurrencyShares';
const V1BETA3 = 'nominalConcurrencyShares';

/** `o` with key `from` renamed `to`, in the same position; `o` itself when it has no `from`. */
function renameKey(o: Obj, from: string, to: string): Obj {
  if (!(from in o)) return o;
  return Object.fromEntries(Object.entries(o).filter(([k]) => k !== to).map(([k, v]) => [k === from ? to : k, v]));
}

function renameShares(plc: Obj, from: string, to: string): Obj {
  const spec = plc.spec;
  if (!isObj(spec) || !isObj(spec.limited)) return plc;
  const limited = renameKey(spec.limited, from, to);
  return limited === spec.limited ? plc : { ...plc, spec: { ...spec, limited } };
}

/** A v1beta2 PriorityLevelConfiguration in v1beta3; type meta left to the caller. */
export const priorityLevelV1beta2ToV1beta3 = (plc: Obj): Obj => renameShares(plc, V1BETA2, V1BETA3);

/** A v1beta3 PriorityLevelConfiguration in v1beta2; type meta left to the caller. */
export const priorityLevelV1beta3ToV1beta2 = (plc: Obj): Obj => renameShares(plc, V1BETA3, V1BETA2);
