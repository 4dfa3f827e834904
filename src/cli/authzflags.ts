// The --authorization-* flags (kube-apiserver v1.27's names and defaults; the
// default mode list is Node,RBAC: a real cluster's, not kube's AlwaysAllow)
// and their translation into options. The checks between them are
// validateAuthorizationConfig's, reported as flag errors.
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import { parseSubjectAccessReviewVersion, type SubjectAccessReviewVersion } from '../authz/webhook.js';
import { AUTHORIZATION_MODES, DEFAULT_AUTHORIZATION_MODES, validateAuthorizationConfig, type AuthorizationConfig } from '../authz/modes.js';

export const AUTHZ_FLAGS: FlagSpec[] = [
  {
    name: 'authorization-mode', type: 'strings', default: [...DEFAULT_AUTHORIZATION_MODES],
    help: `Ordered comma-separated list of authorization plug-ins on the secure port: ${AUTHORIZATION_MODES.join(', ')}. The group system:masters is always allowed.`,
  },
  { name: 'authorization-policy-file', type: 'string', help: 'ABAC policies, one JSON object per line (with --authorization-mode including ABAC).' },
  { name: 'authorization-webhook-config-file', type: 'string', help: 'Connection-credentials file (kubeconfig format) naming the authorization webhook: the API server POSTs a SubjectAccessReview for each request the earlier modes did not decide.' },
  { name: 'authorization-webhook-version', type: 'string', help: 'The authorization.k8s.io SubjectAccessReview version sent to the webhook: v1beta1 or v1.', default: 'v1beta1' },
  { name: 'authorization-webhook-cache-authorized-ttl', type: 'duration', help: "How long to cache the webhook's 'authorized' answers.", default: 5 * 60_000 },
  { name: 'authorization-webhook-cache-unauthorized-ttl', type: 'duration', help: "How long to cache the webhook's 'unauthorized' answers.", default: 30_000 },
];

export function authzOptions(v: Map<string, FlagValue>): { authorization: AuthorizationConfig } {
  const str = (k: string) => (v.get(k) as string | undefined) || undefined;
  let version: SubjectAccessReviewVersion;
  try {
    version = parseSubjectAccessReviewVersion(v.get('authorization-webhook-version') as string);
  } catch (err) {
    throw new FlagError(`invalid value for --authorization-webhook-version: ${(err as Error).message}`);
  }
  const configFile = str('authorization-webhook-config-file');
  const authorization: AuthorizationConfig = {
    modes: (v.get('authorization-mode') as string[] | undefined) ?? [],
    ...(str('authorization-policy-file') ? { policyFile: str('authorization-policy-file') } : {}),
    ...(configFile ? {
      webhook: {
        configFile, version,
        authorizedTtlMs: v.get('authorization-webhook-cache-authorized-ttl') as number,
        unauthorizedTtlMs: v.get('authorization-webhook-cache-unauthorized-ttl') as number,
      },
    } : {}),
  };
  const errs = validateAuthorizationConfig(authorization);
  if (errs.length > 0) throw new FlagError(errs.join('; '));
  return { authorization };
}
