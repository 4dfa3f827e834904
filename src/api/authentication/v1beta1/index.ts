// authentication/v1beta1: SelfSubjectReview (off by default in v1.27).
import type { S } from '../../../schema/index.js';
import { selfSubjectReview } from '../selfsubjectreview.js';

export const kinds: Readonly<Record<string, S>> = { SelfSubjectReview: selfSubjectReview('io.k8s.api.authentication.v1beta1') };
