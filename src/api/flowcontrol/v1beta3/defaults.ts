// Server-side defaulting for flowcontrol.apiserver.svc.io/v1beta3 as
// kube-apiserver v1.27 applies it: as v1beta2, with the limited shares field
// named nominalConcurrencyShares (0 still means "use the default" in v1.27).
import { defaultFlowSchema, priorityLevelDefaulter } from '../v1beta2/defaults.js';
import type { Gates, Json } from '../../core/v1/defaults.js';

/** The flowcontrol.apiserver.svc.io/v1beta3 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  FlowSchema: defaultFlowSchema,
  PriorityLevelConfiguration: priorityLevelDefaulter('nominalConcurrencyShares'),
};
