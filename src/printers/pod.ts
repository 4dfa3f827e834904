// The Pod printer: Ready, Status, Restarts as kube-apiserver v1.27 prints them.
//
// Status is decided in this order (later steps override earlier ones):
//   phase → status.reason → SchedulingGated (PodScheduled condition)
//   → first unfinished init container: Init:<reason> | Init:Signal:N | Init:ExitCode:N | Init:i/n
//   → (no init container pending) containers, last to first: waiting reason | terminated reason
//       | Signal:N | ExitCode:N; "Completed" with a running container → Running / NotReady
//   → deletionTimestamp: Unknown (node lost) | Terminating
// Restarts: the sum of restart counts (init containers while initializing, app
// containers after), with "(<age> ago)" of the newest lastState.terminated.finishedAt.
import { humanDuration, parseTime } from './age.js';
import { AGE_COLUMN, NAME_COLUMN, WIDE, age, arr, col, has, meta, nameOf, num, rec, spec, status, str } from './cells.js';
import type { Json } from './cells.js';
import type { KObject, Printer, PrintedRow, TableRowCondition } from './table.js';

const COLUMNS = [
  NAME_COLUMN,
  col('Ready', 'string', 'Ready containers out of all containers.'),
  col('Status', 'string', "The pod's state, summed up from its phase and its containers."),
  col('Restarts', 'string', 'Container restarts in total, with the time since the latest one.'),
  AGE_COLUMN,
  col('IP', 'string', "The pod's IP address.", WIDE),
  col('Node', 'string', 'The node the pod is assigned to.', WIDE),
  col('Nominated Node', 'string', 'The node the pod should run on once preemption is done.', WIDE),
  col('Readiness Gates', 'string', 'Readiness gates that are met, out of all.', WIDE),
];

const SUCCEEDED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** Tracks the restart count and the newest restart time. */
class Restarts {
  count = 0;
  last: number | undefined;
  add(containerStatus: Json): void {
    this.count += num(containerStatus.restartCount);
    const terminated = rec(containerStatus.lastState).terminated;
    if (!has(terminated)) return;
    const finished = parseTime(rec(terminated).finishedAt);
    if (finished !== undefined && (this.last === undefined || finished > this.last)) this.last = finished;
  }
  cell(now: number): string {
    return this.count !== 0 && this.last !== undefined ? `${this.count} (${humanDuration(now - this.last)} ago)` : String(this.count);
  }
}

const exitText = (terminated: Json, prefix: string): string =>
  num(terminated.signal) !== 0 ? `${prefix}Signal:${num(terminated.signal)}` : `${prefix}ExitCode:${num(terminated.exitCode)}`;

const conditionTrue = (st: Json, type: string): boolean =>
  arr(st.conditions).some((c) => str(rec(c).type) === type && str(rec(c).status) === 'True');

/** The reason of the first init container that has not succeeded, or undefined when all have. */
function initReason(sp: Json, st: Json, restarts: Restarts): string | undefined {
  const statuses = arr(st.initContainerStatuses).map(rec);
  const total = arr(sp.initContainers).length;
  for (const [i, c] of statuses.entries()) {
    restarts.add(c);
    const state = rec(c.state);
    const terminated = rec(state.terminated);
    const waiting = rec(state.waiting);
    if (has(state.terminated) && num(terminated.exitCode) === 0) continue;
    if (has(state.terminated)) return str(terminated.reason) === '' ? exitText(terminated, 'Init:') : `Init:${str(terminated.reason)}`;
    if (has(state.waiting) && str(waiting.reason) !== '' && str(waiting.reason) !== 'PodInitializing') return `Init:${str(waiting.reason)}`;
    return `Init:${i}/${total}`;
  }
  return undefined;
}

function podRow(o: KObject, now: number): PrintedRow {
  const sp = spec(o);
  const st = status(o);
  let reason = str(st.reason) !== '' ? str(st.reason) : str(st.phase);
  for (const c of arr(st.conditions).map(rec)) {
    if (str(c.type) === 'PodScheduled' && str(c.reason) === 'SchedulingGated') reason = 'SchedulingGated';
  }

  let restarts = new Restarts();
  let ready = 0;
  const init = initReason(sp, st, restarts);
  if (init !== undefined) {
    reason = init;
  } else {
    const last = restarts.last;
    restarts = new Restarts();
    restarts.last = last;
    let hasRunning = false;
    const statuses = arr(st.containerStatuses).map(rec);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts.add(c);
      const state = rec(c.state);
      const waiting = rec(state.waiting);
      const terminated = rec(state.terminated);
      if (has(state.waiting) && str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (has(state.terminated) && str(terminated.reason) !== '') reason = str(terminated.reason);
      else if (has(state.terminated)) reason = exitText(terminated, '');
      else if (c.ready === true && has(state.running)) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(st, 'Ready') ? 'Running' : 'NotReady';
  }

  if (has(meta(o).deletionTimestamp)) reason = str(st.reason) === 'NodeLost' ? 'Unknown' : 'Terminating';

  const podIPs = arr(st.podIPs).map(rec);
  const podIP = (podIPs.length > 0 ? str(podIPs[0]!.ip) : str(st.podIP)) || '<none>';
  const gates = arr(sp.readinessGates).map(rec);
  let readinessGates = '<none>';
  if (gates.length > 0) {
    const conditions = arr(st.conditions).map(rec);
    const passed = gates.filter((g) => str(conditions.find((c) => str(c.type) === str(g.conditionType))?.status) === 'True').length;
    readinessGates = `${passed}/${gates.length}`;
  }

  const cells = [
    nameOf(o), `${ready}/${arr(sp.containers).length}`, reason, restarts.cell(now), age(o, now),
    podIP, str(sp.nodeName) || '<none>', str(st.nominatedNodeName) || '<none>', readinessGates,
  ];
  const phase = str(st.phase);
  if (phase === 'Succeeded') return { cells, conditions: SUCCEEDED };
  if (phase === 'Failed') return { cells, conditions: FAILED };
  return { cells };
}

export const podPrinter: Printer = { columns: COLUMNS, row: (o, { now }) => podRow(o, now) };
