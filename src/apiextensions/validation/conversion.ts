// spec.conversion (validateCustomResourceConversion). kube validates the
// internal form, so a v1 `webhook.clientConfig` is reported as
// `spec.conversion.webhookClientConfig` and `webhook.conversionReviewVersions`
// as `spec.conversion.conversionReviewVersions`.
import { type FieldError, type FieldPath, forbidden, invalid, required } from '../../api/meta/field.js';
import { validateReviewVersions } from '../../api/meta/reviewversions.js';
import type { CustomResourceConversion } from '../types.js';
import { enumErrors } from './enum.js';
import { validateWebhookService, validateWebhookURL } from './webhookconfig.js';

/** The ConversionReview versions the previous server release understands (sorted, as kube lists them). */
export const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;

export const isAcceptedConversionReviewVersion = (v: string): boolean => (ACCEPTED_CONVERSION_REVIEW_VERSIONS as readonly string[]).includes(v);

function validateConversionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: FieldPath): FieldError[] {
  return validateReviewVersions(versions, ACCEPTED_CONVERSION_REVIEW_VERSIONS, requireRecognized, path, '');
}

export function validateConversion(conv: CustomResourceConversion | undefined | null, requireRecognized: boolean, path: FieldPath): FieldError[] {
  if (!conv) return [];
  const errs = enumErrors(path.child('strategy'), conv.strategy, ['None', 'Webhook'], true);
  const cc = conv.webhook?.clientConfig ?? null;
  const reviewVersions = conv.webhook?.conversionReviewVersions ?? [];
  const ccPath = path.child('webhookClientConfig');
  if (conv.strategy === 'Webhook') {
    if (!cc) errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    else {
      const hasURL = cc.url !== undefined && cc.url !== null;
      const hasService = cc.service !== undefined && cc.service !== null;
      if (hasURL === hasService) errs.push(required(ccPath, 'exactly one of url or service is required'));
      else if (hasURL) errs.push(...validateWebhookURL(ccPath.child('url'), cc.url!, true));
      else errs.push(...validateWebhookService(ccPath.child('service'), cc.service!));
    }
    errs.push(...validateConversionReviewVersions(reviewVersions, requireRecognized, path.child('conversionReviewVersions')));
  } else {
    if (cc) errs.push(forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errs.push(forbidden(path.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}
