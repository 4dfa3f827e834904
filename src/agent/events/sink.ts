// The agent's events: core/v1 Events written as the node (the kubelet's
// EventBroadcaster), through the same recorder and correlator as the
// controllers' (src/controllers/events/), with the kubelet's rate limit:
// --event-qps writes per second with bursts of --event-burst (0 uses 5 and
// 10, as the spec says); writes beyond it wait their turn, as client-go's
// rate-limited client makes them wait.
import type { ApiObject } from '../../registry/object.js';
import type { CoreEventSink } from '../../controllers/events/sinks.js';
import type { CoreEvent } from '../../controllers/events/reference.js';
import type { AgentApi } from '../api.js';
import { TokenBucket } from '../../admission/plugins/eventratelimit/bucket.js';

const CORE_EVENTS = { group: '', version: 'v1', resource: 'events' } as const;

export function agentEventSink(api: AgentApi, qps: number, burst: number): CoreEventSink {
  const bucket = new TokenBucket(qps > 0 ? qps : 5, burst > 0 ? burst : 10);
  const wait = async () => {
    const ms = bucket.reserve();
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  };
  return {
    async create(e) {
      await wait();
      const { resourceVersion: _, ...metadata } = e.metadata;
      return (await api.create(CORE_EVENTS, e.metadata.namespace, { apiVersion: 'v1', kind: 'Event', ...e, metadata } as unknown as ApiObject)) as unknown as CoreEvent;
    },
    async patch(e, patch) {
      await wait();
      return (await api.patch(CORE_EVENTS, e.metadata.namespace, e.metadata.name, patch as unknown as Record<string, unknown>)) as unknown as CoreEvent;
    },
  };
}
