// autoscaling/v2: HorizontalPodAutoscaler on any metrics (the preferred and
// storage version).
import type { S } from '../../../schema/index.js';
import { HorizontalPodAutoscaler } from './hpa.js';

export * from './hpa.js';
export * from './metrics.js';

export const kinds: Readonly<Record<string, S>> = { HorizontalPodAutoscaler };
