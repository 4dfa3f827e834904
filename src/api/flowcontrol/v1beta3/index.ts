// flowcontrol.apiserver/v1beta3: FlowSchema and PriorityLevelConfiguration (preferred in v1.27).
import type { S } from '../../../schema/index.js';
import { flowcontrolKinds } from '../types.js';

export const kinds: Readonly<Record<string, S>> = flowcontrolKinds({
  package: 'io.k8s.api.flowcontrol.v1beta3',
  sharesField: 'nominalConcurrencyShares',
  mergeConditions: true,
});
