// The debug dumps of kube's apf_controller_debug.go (v1.27), served at
// /debug/api_priority_and_fairness/{dump_priority_levels,dump_queues,dump_requests}
// and authorized as non-resource URLs like any other path: one row per
// priority level, per queue, per waiting request, columns joined by ",\t" and
// aligned as Go's tabwriter(minwidth 8, padding 1) aligns them. Exempt levels
// (no queues) show <none>.
import type { FlowControlConfig, PriorityLevel } from './config.js';
import { rfc3339Nano } from '../api/meta/time.js';
import { formatGoDuration } from '../api/meta/goduration.js';

export const DEBUG_PREFIX = '/debug/api_priority_and_fairness/';

/** Go's text/tabwriter for cells terminated by tabs: each column padded to its widest cell + 1, at least 8. */
export function tabwrite(lines: readonly string[][]): string {
  const widths: number[] = [];
  for (const cells of lines) {
    cells.slice(0, -1).forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 8, c.length + 1)));
  }
  return lines.map((cells) => cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]!) : c)).join('') + '\n').join('');
}

/** ",\t"-joined cells as the tabwriter sees them: every cell but the last ends in ",". */
const row = (...cols: string[]) => cols.map((c, i) => (i < cols.length - 1 ? `${c},` : c));

/** Go's SeatSeconds.String: nine decimals and "ss". */
const seatSeconds = (v: number) => `${v.toFixed(9)}ss`;

const byName = (a: PriorityLevel, b: PriorityLevel) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function dumpPriorityLevels(config: FlowControlConfig): string {
  const lines = [row('PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests')];
  for (const l of [...config.levels].sort(byName)) {
    if (l.exempt) {
      lines.push(row(l.name, '<none>', '<none>', '<none>', '<none>', '<none>'));
      continue;
    }
    const queues = l.qs.dumpQueues();
    const active = queues.filter((q) => q.pendingRequests > 0).length;
    const idle = l.qs.totWaiting === 0 && l.qs.totExecuting === 0;
    lines.push(row(l.name, String(active), String(idle), String(!l.live), String(l.qs.totWaiting), String(l.qs.totExecuting)));
  }
  return tabwrite(lines);
}

export function dumpQueues(config: FlowControlConfig): string {
  const lines = [row('PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum')];
  for (const l of [...config.levels].sort(byName)) {
    if (l.exempt) {
      lines.push(row(l.name, ...Array<string>(8).fill('<none>')));
      continue;
    }
    for (const q of l.qs.dumpQueues()) {
      lines.push(row(l.name, String(q.index), String(q.pendingRequests), String(q.executingRequests), String(q.seatsInUse), seatSeconds(q.nextDispatchR),
        String(q.initialSeatsSum), String(q.maxSeatsSum), seatSeconds(q.totalWorkSum)));
    }
  }
  return tabwrite(lines);
}

export function dumpRequests(config: FlowControlConfig, includeDetails: boolean): string {
  const head = ['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency'];
  if (includeDetails) head.push('UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource');
  const lines = [row(...head)];
  for (const l of [...config.levels].sort(byName)) {
    if (l.exempt) continue;
    for (const r of l.qs.dumpRequests()) {
      const cols = [l.name, r.flowSchema, String(r.queue), String(r.indexInQueue), r.distinguisher, rfc3339Nano(r.arrivedWall),
        String(r.initialSeats), String(r.finalSeats), formatGoDuration(r.additionalLatencyMs)];
      if (includeDetails) {
        const i = r.info;
        const res = i?.isResourceRequest ? i : undefined;
        cols.push(r.user, i?.verb ?? '', i?.path ?? '', res?.namespace ?? '', res?.name ?? '',
          res ? (res.apiGroup ? `${res.apiGroup}/${res.apiVersion}` : res.apiVersion) : '', res?.resource ?? '', res?.subresource ?? '');
      }
      lines.push(row(...cols));
    }
  }
  return tabwrite(lines);
}

/** The dump for a debug path, or undefined when the path is not one of them. */
export function debugDump(config: FlowControlConfig, path: string, query: URLSearchParams): string | undefined {
  switch (path) {
    case `${DEBUG_PREFIX}dump_priority_levels`: return dumpPriorityLevels(config);
    case `${DEBUG_PREFIX}dump_queues`: return dumpQueues(config);
    case `${DEBUG_PREFIX}dump_requests`: return dumpRequests(config, (query.get('includeRequestDetails') ?? '') !== '');
    default: return undefined;
  }
}
