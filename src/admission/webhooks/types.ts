// A webhook as the dispatchers use it: one entry of a Mutating- or
// ValidatingWebhookConfiguration, read once per stored configuration with
// v1's defaults filled in (kube's WebhookAccessor).
import type { CallbackConfig } from './caller.js';

export type WebhookKind = 'mutating' | 'validating';

export interface WebhookRule {
  readonly operations: readonly string[];
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly resources: readonly string[];
  /** 'Cluster' | 'Namespaced' | '*' */
  readonly scope: string;
}

export interface Webhook {
  /** "<configuration>/<webhook>/<index>": unique per configuration generation (kube's accessor UID). */
  readonly uid: string;
  readonly kind: WebhookKind;
  readonly configuration: string;
  readonly name: string;
  readonly rules: readonly WebhookRule[];
  readonly matchPolicy: 'Exact' | 'Equivalent';
  readonly namespaceSelector: unknown;
  readonly objectSelector: unknown;
  /** Undefined when the stored object has none (kube: "Webhook SideEffects is nil"). */
  readonly sideEffects: string | undefined;
  readonly timeoutSeconds: number;
  readonly admissionReviewVersions: readonly string[];
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
  readonly clientConfig: CallbackConfig;
  readonly matchConditions: readonly unknown[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** One stored rule (RuleWithOperations) with scope's default; also ValidatingAdmissionPolicy's resource rules. */
export function rule(v: unknown): WebhookRule {
  const r = obj(v);
  return { operations: strs(r.operations), apiGroups: strs(r.apiGroups), apiVersions: strs(r.apiVersions), resources: strs(r.resources), scope: str(r.scope) ?? '*' };
}

function clientConfig(v: unknown): CallbackConfig {
  const c = obj(v);
  const out: CallbackConfig = {};
  if (typeof c.url === 'string') out.url = c.url;
  if (c.service !== undefined && c.service !== null) {
    const s = obj(c.service);
    out.service = {
      namespace: str(s.namespace) ?? '', name: str(s.name) ?? '',
      ...(typeof s.path === 'string' ? { path: s.path } : {}),
      ...(typeof s.port === 'number' ? { port: s.port } : {}),
    };
  }
  if (typeof c.caBundle === 'string' && c.caBundle !== '') out.caBundle = c.caBundle;
  // frozen: made once per stored configuration, the client prepares each config object once
  return Object.freeze(out);
}

/** The webhooks of one configuration object, in list order. */
export function webhooksOf(config: Obj, kind: WebhookKind): Webhook[] {
  const configuration = str(obj(config.metadata).name) ?? '';
  const list = Array.isArray(config.webhooks) ? config.webhooks : [];
  return list.map((v, i) => {
    const w = obj(v);
    const name = str(w.name) ?? '';
    return {
      uid: `${configuration}/${name}/${i}`,
      kind, configuration, name,
      rules: (Array.isArray(w.rules) ? w.rules : []).map(rule),
      matchPolicy: w.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
      namespaceSelector: w.namespaceSelector ?? {},
      objectSelector: w.objectSelector ?? {},
      sideEffects: str(w.sideEffects),
      timeoutSeconds: typeof w.timeoutSeconds === 'number' ? w.timeoutSeconds : 10,
      admissionReviewVersions: strs(w.admissionReviewVersions),
      failurePolicy: w.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
      reinvocationPolicy: kind === 'mutating' && w.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
      clientConfig: clientConfig(w.clientConfig),
      matchConditions: Array.isArray(w.matchConditions) ? w.matchConditions : [],
    } satisfies Webhook;
  });
}
