// authorization/v1: the access review kinds.
import type { S } from '../../../schema/index.js';
import { LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview } from './reviews.js';

export const kinds: Readonly<Record<string, S>> = { LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview };
