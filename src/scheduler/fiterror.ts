// The FailedScheduling message (kube's FitError.Error()): "0/N nodes are
// available:" then either the PreFilter's message or a histogram of the
// nodes' reasons ("1 node(s) had untolerated taint {a: b}, 2 Insufficient
// cpu", sorted as strings), each part closed by ". ", and the PostFilter's
// (preemption's) message last. Preemption's own message is such a text
// too, so a failed preemption ends with "..".
import type { Status } from './framework.js';

export interface Diagnosis {
  /** Each node's filter status (nodes that fit are absent). */
  readonly nodeStatuses: ReadonlyMap<string, Status>;
  readonly preFilterMsg?: string;
  readonly postFilterMsg?: string;
}

export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg) msg += ` ${d.preFilterMsg}.`;
  else {
    const counts = new Map<string, number>();
    for (const s of d.nodeStatuses.values()) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort();
    if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
  }
  if (d.postFilterMsg) msg += ` ${d.postFilterMsg}.`;
  return msg;
}
