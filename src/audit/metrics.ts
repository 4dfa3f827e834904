// The audit metrics of kube v1.27 (staging/src/k8s.io/apiserver/pkg/audit/metrics.go),
// and HandlePluginError: a backend's failure counted per plugin and logged
// with the events it cost.
import { newCounter, type CounterChild } from '../metrics/registry.js';
import { eventString } from './encode.js';
import type { AuditEvent, Level } from './types.js';

export const eventCounter = newCounter({
  name: 'apiserver_audit_event_total',
  help: 'Counter of audit events generated and sent to the audit backend.',
  stabilityLevel: 'ALPHA',
});

export const errorCounter = newCounter<'plugin'>({
  name: 'apiserver_audit_error_total',
  help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
  labelNames: ['plugin'],
  stabilityLevel: 'ALPHA',
});

export const levelCounter = newCounter<'level'>({
  name: 'apiserver_audit_level_total',
  help: 'Counter of policy levels for audit events (1 per request).',
  labelNames: ['level'],
  stabilityLevel: 'ALPHA',
});

export const rejectedCounter = newCounter({
  name: 'apiserver_audit_requests_rejected_total',
  help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
  stabilityLevel: 'ALPHA',
});

/** Per-level counter series, found once (no label lookup on the request path). */
const levelIncs = new Map<Level, CounterChild>();
export function observePolicyLevel(level: Level): void {
  let c = levelIncs.get(level);
  if (!c) levelIncs.set(level, (c = levelCounter.child({ level })));
  c.inc();
}

/** Where plugin errors are logged (tests replace it). */
export let pluginErrorLog: (text: string) => void = (text) => console.error(text);
export function setPluginErrorLog(fn: (text: string) => void): void {
  pluginErrorLog = fn;
}

/** kube's audit.HandlePluginError. */
export function handlePluginError(plugin: string, err: unknown, impacted: readonly AuditEvent[]): void {
  errorCounter.inc({ plugin }, impacted.length);
  let msg = `Error in audit plugin '${plugin}' affecting ${impacted.length} audit events: ${err instanceof Error ? err.message : String(err)}\nImpacted events:\n`;
  for (const ev of impacted) msg += `${eventString(ev)}\n`;
  pluginErrorLog(msg);
}
