// flowcontrol.apiserver/v1beta2: FlowSchema and PriorityLevelConfiguration (deprecated in v1.26).
import type { S } from '../../../schema/index.js';
import { flowcontrolKinds } from '../types.js';

export const kinds: Readonly<Record<string, S>> = flowcontrolKinds({
  package: 'io.k8s.api.flowcontrol.v1beta2',
  sharesField: 'assuredConcurrencyShares',
  mergeConditions: false,
});
