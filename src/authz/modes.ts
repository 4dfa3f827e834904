// --authorization-mode: which authorizers the server asks, in order
// (kube-apiserver v1.27's pkg/kubeapiserver/authorizer): the privileged group
// first, then each mode as listed; the first allow or deny decides.
import type { Registry } from '../registry/registry.js';
import type { Store } from '../storage/interface.js';
import { alwaysAllow, alwaysDeny, systemMasters, UnionAuthorizer, type Authorizer } from './authorizer.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { AbacAuthorizer } from './abac.js';
import { WebhookAuthorizer } from './webhook.js';
import { NodeAuthorizer } from './node/authorizer.js';
import { startNodeGraph } from './node/populator.js';
import { nodeRules } from './node/rules.js';
import type { FeatureGates } from '../features/gates.js';
import { startRbacCache } from './rbac/cache.js';
import { RBAC_GROUP } from '../api/rbac/v1/validation.js';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];
export const DEFAULT_AUTHORIZATION_MODES: readonly AuthorizationMode[] = ['Node', 'RBAC'];

export interface WebhookAuthorizationConfig {
  /** --authorization-webhook-config-file: connection credentials (kubeconfig format). */
  readonly configFile: string;
  /** --authorization-webhook-version: the SubjectAccessReview version sent (v1beta1 or v1). */
  readonly version: 'v1' | 'v1beta1';
  readonly authorizedTtlMs: number;
  readonly unauthorizedTtlMs: number;
}

export interface AuthorizationConfig {
  readonly modes: readonly string[];
  /** --authorization-policy-file (ABAC). */
  readonly policyFile?: string;
  readonly webhook?: WebhookAuthorizationConfig;
}

/** kube's checks of the authorization flags; each message names what to fix. */
export function validateAuthorizationConfig(c: AuthorizationConfig): string[] {
  const errs: string[] = [];
  if (c.modes.length === 0) errs.push('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const m of c.modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) errs.push(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    if (seen.has(m)) errs.push(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
  }
  if (seen.has('ABAC') && !c.policyFile) errs.push("authorization-mode ABAC's authorization policy file not passed");
  if (!seen.has('ABAC') && c.policyFile) errs.push('cannot specify --authorization-policy-file without mode ABAC');
  if (seen.has('Webhook') && !c.webhook?.configFile) errs.push("authorization-mode Webhook's authorization config file not passed");
  if (!seen.has('Webhook') && c.webhook?.configFile) errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  return errs;
}

export interface BuiltAuthorizer {
  readonly authorizer: Authorizer;
  /** The RBAC authorizer when RBAC is a mode (escalation checks resolve rules through it). */
  readonly rbac: RbacAuthorizer | undefined;
  stop(): void;
}

/**
 * The union for the configured modes, with the caches they need listed from
 * storage before it returns (so the first request is decided on the whole policy).
 */
export async function buildAuthorizer(c: AuthorizationConfig, deps: { registry: Registry; storage: Store; gates: FeatureGates }): Promise<BuiltAuthorizer> {
  const errs = validateAuthorizationConfig(c);
  if (errs.length > 0) throw new Error(errs.join('; '));
  const authorizers: Authorizer[] = [systemMasters];
  const stops: (() => void)[] = [];
  let rbac: RbacAuthorizer | undefined;
  try {
    for (const mode of c.modes as AuthorizationMode[]) {
      switch (mode) {
        case 'AlwaysAllow': authorizers.push(alwaysAllow); break;
        case 'AlwaysDeny': authorizers.push(alwaysDeny); break;
        case 'RBAC': {
          if (!deps.registry.servesGroup(RBAC_GROUP)) {
            throw new Error('--authorization-mode=RBAC needs the rbac.authorization.svc.io/v1 API: enable it with --runtime-config or choose other modes');
          }
          const { cache, stop } = await startRbacCache(deps.registry, deps.storage);
          stops.push(stop);
          rbac = new RbacAuthorizer(cache);
          authorizers.push(rbac);
          break;
        }
        case 'Node': {
          const nodes = await startNodeGraph(deps.registry, deps.storage);
          stops.push(() => nodes.stop());
          authorizers.push(new NodeAuthorizer(nodes.graph, nodeRules(deps.gates)));
          break;
        }
        case 'ABAC': authorizers.push(AbacAuthorizer.fromFile(c.policyFile!)); break;
        case 'Webhook': {
          const w = c.webhook!;
          const webhook = WebhookAuthorizer.fromConfigFile(w.configFile, { version: w.version, authorizedTtlMs: w.authorizedTtlMs, unauthorizedTtlMs: w.unauthorizedTtlMs });
          stops.push(() => webhook.close());
          authorizers.push(webhook);
          break;
        }
      }
    }
  } catch (err) {
    stops.forEach((s) => s());
    throw err;
  }
  return { authorizer: new UnionAuthorizer(authorizers), rbac, stop: () => stops.forEach((s) => s()) };
}
