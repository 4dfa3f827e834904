// Indexed Jobs: the completion index of a pod (annotation
// batch.kubernetes.io/job-completion-index) and status.completedIndexes, the
// succeeded indexes as ordered ranges ("1,3-5,7"), as kube writes and reads
// them (indexed_job_utils.go: an index at or past completions is dropped, a
// malformed part ignored).
import type { ApiObject } from '../../registry/object.js';

export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** The pod's index, or undefined when absent or not a non-negative integer. */
export function completionIndex(pod: ApiObject): number | undefined {
  const v = pod.metadata.annotations?.[COMPLETION_INDEX];
  if (v === undefined || !/^[0-9]+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The indexes named by completedIndexes, below `completions`, ascending without repeats. */
export function parseIndexes(text: string | undefined, completions: number): number[] {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    if (part === '') continue;
    const m = /^([0-9]+)(?:-([0-9]+))?$/.exec(part);
    if (!m) continue;
    const first = Number(m[1]);
    const last = Math.min(m[2] === undefined ? first : Number(m[2]), completions - 1);
    for (let i = first; i <= last; i++) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

/** Ascending indexes as completedIndexes ranges ("" for none). */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The lowest `count` indexes below `completions` that neither succeeded nor have an active pod. */
export function pendingIndexes(active: Iterable<number>, succeeded: Iterable<number>, count: number, completions: number): number[] {
  const taken = new Set([...active, ...succeeded]);
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i)) out.push(i);
  return out;
}
