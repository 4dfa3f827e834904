// Conversion of custom resources between the versions of their CRD
// (apiextensions-apiserver pkg/apiserver/conversion): kube's checks that the
// target and the objects are versions of the CRD, then the CRD's strategy —
// `None` (none.ts: apiVersion rewritten) or `Webhook` (webhook.ts: one
// ConversionReview, review.ts, through the outbound callback client of
// src/webhook/, the answer checked, restore.ts). Errors are CrConversionError:
// a StatusError of 500 with kube's text and no reason, as kube-apiserver
// answers them.
//
// Use: `const c = converterFor(crd, { caller })`, made once per CRD change;
// `c.converts` is false when no object can need more than its apiVersion
// rewritten (None, or a single version), and then `c.convertSync` does it
// without a promise. `c.convert(objects, toApiVersion)` converts a single
// object (one given) or a list's items (several, or `{ list: true }`) in one
// webhook call. Inputs are never modified; results share unchanged parts.
import type { CallbackCaller, CallbackConfig } from '../../webhook/callback.js';
import type { CustomResourceDefinition } from '../types.js';
import { convertNone } from './none.js';
import { reviewVersionFor } from './review.js';
import { CONVERSION_WEBHOOK_TIMEOUT_MS, convertByWebhook, defaultUid, type WebhookCall } from './webhook.js';
import { CrConversionError, gvkString, parseGroupVersion, VersionSet } from './versions.js';

export { CrConversionError } from './versions.js';
export { CONVERSION_WEBHOOK_TIMEOUT_MS } from './webhook.js';
export { SUPPORTED_CONVERSION_REVIEW_VERSIONS } from './review.js';

export interface ConverterDeps {
  /** The outbound callback client (src/webhook AdmissionCallbackClient); needed for the Webhook strategy only. */
  readonly caller?: CallbackCaller;
  /** Default 30 s, kube's. */
  readonly timeoutMs?: number;
  /** The review uid (default: a random UUID). */
  readonly newUid?: () => string;
}

export interface ConvertOptions {
  /** The objects are a list's items: kube's list wording in errors (default: when not exactly one object). */
  readonly list?: boolean;
}

interface ConverterBase {
  readonly strategy: 'None' | 'Webhook';
  /** `objects` in `toApiVersion`, in order; throws CrConversionError. */
  convert(objects: readonly object[], toApiVersion: string, opts?: ConvertOptions): Promise<object[]>;
}

/** Only apiVersion ever changes: `convertSync` does it at once. */
export interface RewritingConverter extends ConverterBase {
  readonly converts: false;
  convertSync(objects: readonly object[], toApiVersion: string, opts?: ConvertOptions): object[];
}

/** A webhook converts objects between versions. */
export interface CallingConverter extends ConverterBase {
  readonly converts: true;
}

export type CrConverter = RewritingConverter | CallingConverter;

/**
 * The converter of a CRD. Throws CrConversionError for a strategy kube does
 * not know, or Webhook without its webhook or without deps.caller.
 */
export function converterFor(crd: CustomResourceDefinition, deps: ConverterDeps = {}): CrConverter {
  const spec = crd.spec;
  const versions = new VersionSet(spec.group, spec.versions.map((v) => v.name));
  const listKind = crd.status?.acceptedNames?.listKind || spec.names.listKind || `${spec.names.kind}List`;
  const strategy = spec.conversion?.strategy ?? 'None';
  if (strategy !== 'None' && strategy !== 'Webhook') throw new CrConversionError(`unknown conversion strategy ${JSON.stringify(strategy)} for CRD ${crd.metadata.name}`);

  /** Checks the request as kube does; the target group-version and how errors print. */
  const prepare = (objects: readonly object[], toApiVersion: string, opts: ConvertOptions | undefined) => {
    const list = opts?.list ?? objects.length !== 1;
    const from = list
      ? { gv: parseGroupVersion(toApiVersion), kind: listKind }
      : { gv: parseGroupVersion((objects[0] as { apiVersion?: unknown }).apiVersion), kind: String((objects[0] as { kind?: unknown }).kind ?? '') };
    const to = versions.check(from, toApiVersion, list ? objects : undefined);
    return { to, list, gvk: gvkString(from.gv, from.kind) };
  };

  const rewrite = (objects: readonly object[], toApiVersion: string, opts?: ConvertOptions): object[] => {
    prepare(objects, toApiVersion, opts);
    return convertNone(objects, toApiVersion);
  };

  if (strategy === 'None' || spec.versions.length < 2) {
    return {
      strategy,
      converts: false,
      convertSync: rewrite,
      convert: async (objects, toApiVersion, opts) => rewrite(objects, toApiVersion, opts),
    };
  }

  const webhook = spec.conversion?.webhook;
  if (!webhook?.clientConfig) throw new CrConversionError(`conversion webhook for CRD ${crd.metadata.name} has no clientConfig`);
  if (!deps.caller) throw new CrConversionError(`conversion webhook for CRD ${crd.metadata.name}: no callback client`);
  const cc = webhook.clientConfig;
  const config: CallbackConfig = Object.freeze({
    ...(cc.url !== undefined ? { url: cc.url } : {}),
    ...(cc.service ? { service: Object.freeze({ namespace: cc.service.namespace, name: cc.service.name, port: cc.service.port ?? 443, ...(cc.service.path !== undefined ? { path: cc.service.path } : {}) }) } : {}),
    ...(cc.caBundle ? { caBundle: cc.caBundle } : {}),
  });
  const call: WebhookCall = {
    caller: deps.caller,
    config,
    version: reviewVersionFor(webhook.conversionReviewVersions ?? []),
    key: `conversion_webhook_for_${crd.metadata.name}`,
    timeoutMs: deps.timeoutMs ?? CONVERSION_WEBHOOK_TIMEOUT_MS,
    newUid: deps.newUid ?? defaultUid,
  };
  return {
    strategy: 'Webhook',
    converts: true,
    async convert(objects, toApiVersion, opts) {
      const { to, list, gvk } = prepare(objects, toApiVersion, opts);
      return convertByWebhook(call, objects, to, { gvk, list });
    },
  };
}
