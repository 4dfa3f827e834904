// --audit-*-truncate-enabled (kube's plugin/pkg/audit/truncate): an event
// larger than maxEventSize bytes (its JSON) loses its request and response
// objects and gains the annotation audit.k8s.io/truncated: "true"; one still
// too large is dropped (apiserver_audit_error_total{plugin="truncate"}).
// Events are passed on in batches of at most maxBatchSize bytes.
import type { Backend } from './backend.js';
import { eventJSON } from './encode.js';
import { aggregateErrors } from '../api/meta/aggregate.js';
import { handlePluginError } from './metrics.js';
import { levelAtLeast, type AuditEvent } from './types.js';

export interface TruncateConfig {
  readonly maxEventSize: number;
  readonly maxBatchSize: number;
}

export const TRUNCATED_ANNOTATION = 'audit.k8s.io/truncated';

export class TruncatingBackend implements Backend {
  readonly name: string;
  constructor(private readonly delegate: Backend, private readonly c: TruncateConfig, private readonly apiVersion?: string) {
    this.name = `truncate<${delegate.name}>`;
  }

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const errors: string[] = [];
    const impacted: AuditEvent[] = [];
    const results: (boolean | Promise<boolean>)[] = [];
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    for (let ev of events) {
      let size = Buffer.byteLength(eventJSON(ev, this.apiVersion));
      if (size > this.c.maxEventSize && levelAtLeast(ev.level, 'Request')) {
        ev = truncate(ev);
        size = Buffer.byteLength(eventJSON(ev, this.apiVersion));
      }
      if (size > this.c.maxEventSize) {
        errors.push('event is too large even after truncating');
        impacted.push(ev);
        continue;
      }
      if (batch.length > 0 && batchSize + size > this.c.maxBatchSize) {
        results.push(this.delegate.processEvents(batch));
        batch = [];
        batchSize = 0;
      }
      batchSize += size;
      batch.push(ev);
    }
    if (batch.length > 0) results.push(this.delegate.processEvents(batch));
    if (impacted.length > 0) handlePluginError('truncate', new Error(aggregateErrors(errors)), impacted);
    if (results.every((r) => r === true || r === false)) return results.every((r) => r === true);
    return Promise.all(results).then((rs) => rs.every(Boolean));
  }

  run(): void {
    this.delegate.run?.();
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}

function truncate(ev: AuditEvent): AuditEvent {
  const { requestObject: _q, responseObject: _r, ...rest } = ev;
  return { ...rest, annotations: { ...ev.annotations, [TRUNCATED_ANNOTATION]: 'true' } };
}
