// resource/v1alpha2: dynamic resource allocation (alpha, off by default).
import type { S } from '../../../schema/index.js';
import { ResourceClaim, ResourceClaimTemplate } from './claim.js';
import { PodSchedulingContext, ResourceClass } from './scheduling.js';

export const kinds: Readonly<Record<string, S>> = { PodSchedulingContext, ResourceClaim, ResourceClaimTemplate, ResourceClass };
