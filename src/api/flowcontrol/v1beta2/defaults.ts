// Server-side defaulting for flowcontrol.apiserver.svc.io/v1beta2 (and, with
// the shares field renamed, v1beta3) as kube-apiserver v1.27 applies it:
// FlowSchema matchingPrecedence, and a limited PriorityLevelConfiguration's
// concurrency shares, lendablePercent and queuing parameters. In place.
import { at, orNum, orSet, struct, type Gates, type Json } from '../../core/v1/defaults.js';

export const DEFAULT_MATCHING_PRECEDENCE = 1000;
export const DEFAULT_CONCURRENCY_SHARES = 30;
export const DEFAULT_QUEUING = { handSize: 8, queues: 64, queueLengthLimit: 50 } as const;

export function defaultFlowSchema(fs: Json): void {
  const spec = struct(fs, 'spec');
  if (spec) orNum(spec, 'matchingPrecedence', DEFAULT_MATCHING_PRECEDENCE);
}

/** The PriorityLevelConfiguration defaulter of a version whose limited shares field is `sharesField`. */
export function priorityLevelDefaulter(sharesField: 'assuredConcurrencyShares' | 'nominalConcurrencyShares'): (plc: Json) => void {
  return (plc) => {
    const limited = at(at(plc, 'spec') ?? {}, 'limited');
    if (!limited) return;
    orNum(limited, sharesField, DEFAULT_CONCURRENCY_SHARES);
    orSet(limited, 'lendablePercent', 0);
    const queuing = at(at(limited, 'limitResponse') ?? {}, 'queuing');
    if (queuing) for (const [k, v] of Object.entries(DEFAULT_QUEUING)) orNum(queuing, k, v);
  };
}

/** The flowcontrol.apiserver.svc.io/v1beta2 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  FlowSchema: defaultFlowSchema,
  PriorityLevelConfiguration: priorityLevelDefaulter('assuredConcurrencyShares'),
};
