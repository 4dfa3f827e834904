// The webhook backend (kube's plugin/pkg/audit/webhook): each batch is POSTed
// as an audit.k8s.io/v1 EventList to the server of --audit-webhook-config-file
// (a kubeconfig, read with the project's connection-credentials reader) over
// the project's HTTPS client. As kube's audit webhook (retryOnError), every
// failure is retried — any status, any connection error — with exponential
// backoff from --audit-webhook-initial-backoff (×1.5, jitter 0.2, 5 attempts).
// A batch that still fails counts apiserver_audit_error_total{plugin="webhook"}
// per event.
import { OutboundClient, withBackoff, type Backoff, type Connection } from '../webhook/index.js';
import type { Backend } from './backend.js';
import { eventListJSON, DEFAULT_EVENT_VERSION } from './encode.js';
import { handlePluginError } from './metrics.js';
import type { AuditEvent } from './types.js';

/** kube's DefaultInitialBackoffDelay for the audit webhook. */
export const DEFAULT_INITIAL_BACKOFF_MS = 10_000;
/** Each attempt's own deadline (kube's webhook client timeout). */
const REQUEST_TIMEOUT_MS = 30_000;

export class WebhookBackend implements Backend {
  readonly name = 'webhook';
  /** One attempt per call; the retries are ours. */
  private readonly client: OutboundClient;
  private readonly backoff: Backoff;

  constructor(connection: Connection, initialBackoffMs = DEFAULT_INITIAL_BACKOFF_MS, private readonly apiVersion: string = DEFAULT_EVENT_VERSION) {
    this.backoff = { initialMs: initialBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 };
    this.client = new OutboundClient(connection, { backoff: { ...this.backoff, steps: 1 }, timeoutMs: REQUEST_TIMEOUT_MS, userAgent: 'svc-apiserver/audit' });
  }

  async processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    const body = Buffer.from(eventListJSON(events, this.apiVersion));
    try {
      await withBackoff(this.backoff, Infinity, () => true, () => this.client.call({ method: 'POST', body, headers: { accept: 'application/json' } }));
      return true;
    } catch (err) {
      handlePluginError('webhook', err, events);
      return false;
    }
  }

  async shutdown(): Promise<void> {
    this.client.close();
  }
}
