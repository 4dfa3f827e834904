// admissionregistration/v1: the admission webhook configurations.
import type { S } from '../../../schema/index.js';
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from './webhooks.js';

export const kinds: Readonly<Record<string, S>> = { MutatingWebhookConfiguration, ValidatingWebhookConfiguration };
