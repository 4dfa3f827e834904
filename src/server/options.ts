// What the API server is started with: every flag of `svc server` / `svc
// apiserver` as a typed option (src/cli parses the flags into these), and the
// defaults kube-apiserver documents for the service ranges.
import { type StorageConfig } from '../storage/open.js';
import { type OidcConfig, type TokenWebhookConfig } from '../authn/external.js';
import { type AuthorizationConfig } from '../authz/modes.js';
import { type AdmissionFlags } from '../admission/chain.js';
import { type AuditOptions } from '../audit/options.js';
import { type ControllerSettings } from '../controllers/context.js';
import { type ControlPlaneOptions } from '../controllers/manager.js';
import { type WatchSettings } from '../endpoints/watch.js';
import { type KubeletClientOptions } from './kubeletclientconfig.js';
import type { RuntimeConfig } from '../api/catalog/index.js';
import { type FeatureGates } from '../features/gates.js';

export const DEFAULT_CLUSTER_IP_RANGE = '10.0.0.0/24';
export const DEFAULT_NODE_PORT_RANGE = '30000-32767';

export interface ApiServerOptions {
  readonly bindAddress: string;
  readonly securePort: number;
  readonly dataDir: string;
  readonly storage: StorageConfig;
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  readonly clientCAFile?: string;
  readonly tokenAuthFile?: string;
  readonly anonymousAuth: boolean;
  /** --enable-bootstrap-token-auth: bootstrap-token Secrets in svc-system are bearer tokens. */
  readonly enableBootstrapTokenAuth?: boolean;
  /** The --requestheader-* flags: an authenticating proxy's identity headers. */
  readonly requestHeader?: RequestHeaderConfig;
  /** The API server's audiences (--api-audiences; TokenReview's default, audience-agnostic tokens' audiences). */
  readonly apiAudiences?: readonly string[];
  /** --oidc-* (OpenID Connect ID tokens). */
  readonly oidc?: OidcConfig;
  /** --authentication-token-webhook-*. */
  readonly tokenWebhook?: TokenWebhookConfig;
  readonly livezGracePeriodMs: number;
  readonly shutdownDelayMs: number;
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  /** --enable-priority-and-fairness (default true): with the APIPriorityAndFairness gate, APF replaces the in-flight limit. */
  readonly enablePriorityAndFairness?: boolean;
  readonly requestTimeoutMs: number;
  /** The watch cache's history window (default 5 minutes, at most 100,000 events per resource). */
  readonly watchCacheWindow?: { readonly windowMs?: number; readonly maxEvents?: number };
  /** Watch tunables (tests shorten the bookmark interval). */
  readonly watch?: Partial<WatchSettings>;
  /** --service-cluster-ip-range (default 10.0.0.0/24) and --service-node-port-range (default 30000-32767). */
  readonly serviceClusterIPRange?: string;
  readonly serviceNodePortRange?: string;
  /** --runtime-config, parsed (api/catalog/enablement.ts); the catalogue's defaults when absent. */
  readonly runtimeConfig?: RuntimeConfig;
  /** --feature-gates (defaults when absent). */
  readonly featureGates?: FeatureGates;
  /** Run the controller manager (svc server does; svc apiserver, kube-apiserver alone, does not). */
  readonly controllers: boolean;
  /**
   * The controller manager's flags: --controllers (default '*'), --leader-elect* (default here: no
   * leader election — `svc server` turns it on, as kube-controller-manager's default), the
   * --concurrent-*-syncs by controller name, --scheduler-config, --simulated-nodes.
   */
  readonly controllerManager?: ControlPlaneOptions & { readonly concurrentSyncs?: Readonly<Record<string, number>>; readonly settings?: ControllerSettings };
  /** The --service-account-* flags and --api-audiences (defaults when absent). */
  readonly serviceAccounts?: ServiceAccountOptions;
  /**
   * Run the service-account controller, the token controller and the root-CA publisher (default: with
   * `controllers`). The e2e harness leaves them off unless a test asks, so that a namespace holds only
   * what the test put there (as on the server the golden transcripts were recorded from).
   */
  readonly serviceAccountControllers?: boolean;
  /** How long successful bearer-token authentications are cached (kube-apiserver: 10 s; tests shorten it). */
  readonly tokenCacheTtlMs?: number;
  /** --authorization-mode and its files (default: Node,RBAC). */
  readonly authorization?: AuthorizationConfig;
  /**
   * --enable-admission-plugins, --disable-admission-plugins, --admission-control-config-file
   * (default: kube's default-on plugins that are implemented; see admission/chain.ts).
   */
  readonly admission?: AdmissionFlags;
  /** --show-hidden-metrics-for-version (checked by the flag; src/cli/metricsflags.ts). */
  readonly metrics?: { readonly showHiddenMetricsForVersion?: string; readonly profiling?: boolean };
  /** --kubelet-client-certificate, --kubelet-client-key, --kubelet-certificate-authority, --kubelet-preferred-address-types. */
  readonly kubeletClient?: KubeletClientOptions;
  /** --audit-policy-file, --audit-log-*, --audit-webhook-* (src/audit/options.ts); auditing is off without a policy and a backend. */
  readonly audit?: AuditOptions;
}

export interface ServiceAccountOptions {
  /** --service-account-issuer (default DEFAULT_SERVICE_ACCOUNT_ISSUER). */
  readonly issuers?: readonly string[];
  /** --service-account-key-file (default: the signing key and the TLS key). */
  readonly keyFiles?: readonly string[];
  /** --service-account-signing-key-file (default: <data-dir>/pki/sa.key, generated). */
  readonly signingKeyFile?: string;
  readonly maxExpirationSeconds?: number;
  readonly extendExpiration?: boolean;
  readonly lookup?: boolean;
  readonly jwksURI?: string;
  /** --api-audiences (default: the issuers). */
  readonly apiAudiences?: readonly string[];
}

export interface RequestHeaderConfig {
  readonly clientCAFile: string;
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders?: readonly string[];
  readonly extraHeadersPrefix?: readonly string[];
  readonly allowedNames?: readonly string[];
}
