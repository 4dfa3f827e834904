// spec.podFailurePolicy as kube v1.27's job controller applies it to a failed
// pod (matchPodFailurePolicy): the first rule whose exit-code requirement or
// pod-condition patterns match decides — Ignore (the failure is not counted),
// Count (counted, as without a policy) or FailJob (counted, and the Job fails
// with kube's message naming the container or condition and the rule's index).
// No rule matching counts the failure.
import type { ApiObject } from '../../registry/object.js';

export type FailureAction = 'FailJob' | 'Ignore' | 'Count';

export interface PolicyMatch {
  /** Whether the failure counts towards backoffLimit. */
  readonly countFailed: boolean;
  /** The action of the rule that matched, if any. */
  readonly action?: FailureAction;
  /** For FailJob: the Job's failure message. */
  readonly message?: string;
}

interface ExitCodes { containerName?: string | null; operator?: string; values?: number[] }
interface Rule { action?: string; onExitCodes?: ExitCodes | null; onPodConditions?: { type?: string; status?: string }[] | null }
interface ContainerStatus { name?: string; state?: { terminated?: { exitCode?: number } | null } }

const statuses = (pod: ApiObject, field: string): ContainerStatus[] => {
  const status = (pod.status ?? {}) as Record<string, unknown>;
  return Array.isArray(status[field]) ? (status[field] as ContainerStatus[]) : [];
};

function matchingContainer(list: ContainerStatus[], req: ExitCodes): ContainerStatus | undefined {
  for (const cs of list) {
    const terminated = cs.state?.terminated;
    if (!terminated) continue; // still terminating: no exit code to match
    if (req.containerName != null && req.containerName !== cs.name) continue;
    const code = terminated.exitCode ?? 0;
    if (code === 0) continue;
    const listed = (req.values ?? []).includes(code);
    if (req.operator === 'In' ? listed : req.operator === 'NotIn' ? !listed : false) return cs;
  }
  return undefined;
}

function matchingCondition(pod: ApiObject, patterns: { type?: string; status?: string }[]): { type?: string } | undefined {
  const conditions = ((pod.status ?? {}) as { conditions?: { type?: string; status?: string }[] }).conditions ?? [];
  for (const c of conditions) for (const p of patterns) if (c.type === p.type && c.status === (p.status || 'True')) return c;
  return undefined;
}

export function matchPodFailurePolicy(policy: unknown, pod: ApiObject): PolicyMatch {
  const rules = ((policy ?? {}) as { rules?: Rule[] }).rules;
  if (!policy || !Array.isArray(rules)) return { countFailed: true };
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  for (const [index, rule] of rules.entries()) {
    let what: string | undefined;
    if (rule.onExitCodes) {
      const cs = matchingContainer(statuses(pod, 'containerStatuses'), rule.onExitCodes) ?? matchingContainer(statuses(pod, 'initContainerStatuses'), rule.onExitCodes);
      if (!cs) continue;
      what = `Container ${cs.name} for pod ${ns}/${name} failed with exit code ${cs.state!.terminated!.exitCode} matching ${rule.action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const c = matchingCondition(pod, rule.onPodConditions);
      if (!c) continue;
      what = `Pod ${ns}/${name} has condition ${c.type} matching ${rule.action} rule at index ${index}`;
    } else continue;
    switch (rule.action) {
      case 'Ignore': return { countFailed: false, action: 'Ignore' };
      case 'Count': return { countFailed: true, action: 'Count' };
      case 'FailJob': return { countFailed: true, action: 'FailJob', message: what };
      default: continue;
    }
  }
  return { countFailed: true };
}
