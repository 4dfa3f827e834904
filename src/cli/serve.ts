// `svc server` (all-in-one, what `npm start` runs) and `svc apiserver` (the
// API server alone), with kube-apiserver-style flags. Loaded by main.ts only
// for those commands, so that `svc agent` does not load the server's code.
import { FlagError, parseFlags, usage, type FlagSpec, type FlagValue } from './flags.js';
import { describeStore, type StorageConfig } from '../storage/open.js';
import { DEFAULT_CLUSTER_IP_RANGE, DEFAULT_NODE_PORT_RANGE, startApiServer, type ApiServerOptions } from '../server/apiserver.js';
import { FeatureGateError, FeatureGates } from '../features/gates.js';
import { parseClusterIPRange, parseNodePortRange } from '../registry/allocators/index.js';
import { parseRuntimeConfig, resolveEnablement, type RuntimeConfig } from '../api/catalog/enablement.js';
import { AUTHN_FLAGS, authnOptions } from './authnflags.js';
import { AUTHZ_FLAGS, authzOptions } from './authzflags.js';
import { ADMISSION_FLAGS, admissionOptions } from './admissionflags.js';
import { METRICS_FLAGS, metricsOptions } from './metricsflags.js';
import { AUDIT_FLAGS, auditOptions } from './auditflags.js';
import { APF_FLAGS, apfOptions } from './apfflags.js';
import { agentConfig, inProcessAgent, splitAgentArgs } from './agent.js';
import { CONTROLLER_FLAGS, controllerOptions } from './controllerflags.js';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../authn/serviceaccount/index.js';

const SERVER_FLAGS = (bind: string): FlagSpec[] => [
  { name: 'bind-address', type: 'string', help: 'The IP address on which to listen for the --secure-port port.', default: bind },
  { name: 'secure-port', type: 'int', help: 'The port on which to serve HTTPS (HTTP/1.1 and HTTP/2). 0 picks a free port.', default: 6443 },
  { name: 'data-dir', type: 'string', help: 'Directory for the embedded store, generated certificates and the admin kubeconfig.', default: process.env.SVC_DATA_DIR ?? './data' },
  { name: 'storage-backend', type: 'string', help: 'Storage backend: sqlite (embedded) or etcd3.', default: 'sqlite' },
  { name: 'etcd-servers', type: 'strings', help: 'Comma-separated etcd client URLs (with --storage-backend=etcd3).' },
  { name: 'etcd-prefix', type: 'string', help: 'Prefix for every key in etcd.', default: '' },
  { name: 'etcd-cafile', type: 'string', help: 'CA file for TLS to etcd.' },
  { name: 'etcd-certfile', type: 'string', help: 'Client certificate for TLS to etcd.' },
  { name: 'etcd-keyfile', type: 'string', help: 'Client key for TLS to etcd.' },
  { name: 'storage-history', type: 'duration', help: 'History kept by automatic compaction of the embedded store.', default: 5 * 60_000 },
  { name: 'tls-cert-file', type: 'string', help: 'Serving certificate (PEM). Without it, a CA and certificates are generated in <data-dir>/pki.' },
  { name: 'tls-private-key-file', type: 'string', help: 'Private key of --tls-cert-file.' },
  { name: 'client-ca-file', type: 'string', help: 'CA bundle for client certificates (username from CN, groups from O). Defaults to the generated CA.' },
  { name: 'token-auth-file', type: 'string', help: 'Static bearer tokens: CSV of token,user,uid,"group1,group2".' },
  { name: 'enable-bootstrap-token-auth', type: 'bool', help: 'Accept bootstrap tokens (<id>.<secret>) from Secrets of type bootstrap.svc.io/token (or bootstrap.kubernetes.io/token) named bootstrap-token-<id> in svc-system.', default: false },
  { name: 'requestheader-client-ca-file', type: 'string', help: 'CA bundle an authenticating proxy\'s client certificate must verify against before its identity headers are read. Do not reuse it for anything else.' },
  { name: 'requestheader-username-headers', type: 'strings', help: 'Headers (in order) holding the username set by an authenticating proxy, e.g. X-Remote-User. Required with --requestheader-client-ca-file.' },
  { name: 'requestheader-group-headers', type: 'strings', help: 'Headers holding groups set by an authenticating proxy, e.g. X-Remote-Group; every value is a group.' },
  { name: 'requestheader-extra-headers-prefix', type: 'strings', help: 'Header prefixes for extra user information, e.g. X-Remote-Extra-; the rest of the name (lower-cased, percent-decoded) is the key.' },
  { name: 'requestheader-allowed-names', type: 'strings', help: 'CommonNames the proxy\'s client certificate may carry; empty: any certificate of the requestheader CA.' },
  {
    name: 'service-account-issuer', type: 'stringArray',
    help: `Identifier of the service account token issuer ("iss" of issued tokens). Repeatable: the first issues, all are accepted. Default ${DEFAULT_SERVICE_ACCOUNT_ISSUER}.`,
  },
  {
    name: 'service-account-key-file', type: 'stringArray',
    help: 'PEM file of RSA or ECDSA keys (private or public, several per file) that verify service account tokens. Repeatable. Default: the signing key and the TLS private key.',
  },
  { name: 'service-account-signing-key-file', type: 'string', help: 'PEM private key that signs service account tokens. Default: <data-dir>/pki/sa.key, generated on first start.' },
  { name: 'service-account-max-token-expiration', type: 'duration', help: 'Longest validity of a requested service account token (0: no limit; else between 1h and 2^32 s).', default: 0 },
  {
    name: 'service-account-extend-token-expiration', type: 'bool', default: true,
    help: 'Pod-bound tokens requested for 3607 s (as admission-injected tokens are) for the API audiences live a year, with warnafter at 3607 s.',
  },
  { name: 'service-account-lookup', type: 'bool', help: 'Check that legacy (Secret) service account tokens still exist in storage.', default: true },
  { name: 'service-account-jwks-uri', type: 'string', help: 'jwks_uri of the issuer discovery document. Default https://<host:port>/openid/v1/jwks.' },
  { name: 'api-audiences', type: 'strings', help: 'Audiences of the API: tokens must be for one of them. Default: the service account issuers.' },
  { name: 'anonymous-auth', type: 'bool', help: 'Serve requests without credentials as system:anonymous.', default: true },
  { name: 'kubelet-client-certificate', type: 'string', help: 'Client certificate (PEM) presented to node agents. Default: one for kube-apiserver-kubelet-client from the generated CA.' },
  { name: 'kubelet-client-key', type: 'string', help: 'Private key of --kubelet-client-certificate.' },
  { name: 'kubelet-certificate-authority', type: 'string', help: 'CA bundle that node agents\' serving certificates must verify against; without it they are not verified.' },
  { name: 'kubelet-preferred-address-types', type: 'strings', help: 'Node address types tried in order to reach a node agent (kubeadm\'s order; kube-apiserver\'s own default puts Hostname first).', default: ['InternalIP', 'ExternalIP', 'Hostname', 'InternalDNS', 'ExternalDNS'] },
  ...AUTHN_FLAGS,
  ...AUTHZ_FLAGS,
  ...ADMISSION_FLAGS,
  ...METRICS_FLAGS,
  ...AUDIT_FLAGS,
  ...APF_FLAGS,
  { name: 'livez-grace-period', type: 'duration', help: 'How long /livez treats unfinished start-up hooks as healthy.', default: 0 },
  { name: 'shutdown-delay-duration', type: 'duration', help: 'After SIGTERM, keep serving (with /readyz failing) for this long.', default: 0 },
  { name: 'max-requests-inflight', type: 'int', help: 'Most non-mutating requests in flight; 0 for no limit.', default: 400 },
  { name: 'max-mutating-requests-inflight', type: 'int', help: 'Most mutating requests in flight; 0 for no limit.', default: 200 },
  { name: 'request-timeout', type: 'duration', help: 'Timeout of non-watch requests.', default: 60_000 },
  { name: 'service-cluster-ip-range', type: 'string', help: 'The IPv4 CIDR Service cluster IPs are allocated from.', default: DEFAULT_CLUSTER_IP_RANGE },
  { name: 'service-node-port-range', type: 'string', help: 'The port range NodePort and LoadBalancer Services get node ports from (a-b).', default: DEFAULT_NODE_PORT_RANGE },
  {
    name: 'runtime-config', type: 'map',
    help: 'Comma-separated key[=true|false] pairs (omitted value: true) enabling or disabling built-in APIs: api/all, api/ga, api/beta, api/alpha; ' +
      '<group>/<version> (api/v1 is the core group; svc.io or k8s.io spelling), e.g. resource.svc.io/v1alpha2=true; <group>/<version>/<resource>. Repeatable.',
  },
  { name: 'feature-gates', type: 'string', help: 'Comma-separated Name=true|false pairs for alpha/beta features (e.g. WatchList=true).', default: '' },
  { name: 'help', type: 'bool', help: 'Show this help.' },
];

function options(v: Map<string, unknown>, controllers: boolean): ApiServerOptions & { featureGates: FeatureGates } {
  const str = (k: string) => v.get(k) as string | undefined;
  const num = (k: string) => v.get(k) as number;
  const storage: StorageConfig = {
    backend: str('storage-backend')!,
    dataDir: str('data-dir')!,
    etcdServers: (v.get('etcd-servers') as string[] | undefined) ?? [],
    etcdPrefix: str('etcd-prefix'),
    etcdCaFile: str('etcd-cafile'),
    etcdCertFile: str('etcd-certfile'),
    etcdKeyFile: str('etcd-keyfile'),
    compaction: { retentionMs: num('storage-history') },
  };
  if ((str('kubelet-client-certificate') === undefined) !== (str('kubelet-client-key') === undefined)) {
    throw new FlagError('--kubelet-client-certificate and --kubelet-client-key must be given together');
  }
  if ((str('tls-cert-file') === undefined) !== (str('tls-private-key-file') === undefined)) {
    throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  }
  let featureGates: FeatureGates;
  try {
    featureGates = FeatureGates.parse(str('feature-gates') ?? '');
  } catch (err) {
    if (err instanceof FeatureGateError) throw new FlagError(`invalid argument ${JSON.stringify(str('feature-gates'))} for "--feature-gates" flag: ${err.message}`);
    throw err;
  }
  for (const w of featureGates.warnings) console.error(`W svc: ${w}`);
  for (const [flag, parse] of [['service-cluster-ip-range', parseClusterIPRange], ['service-node-port-range', parseNodePortRange]] as const) {
    try {
      parse(str(flag)!);
    } catch (err) {
      throw new FlagError(`invalid argument ${JSON.stringify(str(flag))} for "--${flag}" flag: ${(err as Error).message}`);
    }
  }
  let runtimeConfig: RuntimeConfig;
  try {
    runtimeConfig = parseRuntimeConfig((v.get('runtime-config') as Record<string, string> | undefined) ?? {});
    resolveEnablement(runtimeConfig);
  } catch (err) {
    throw new FlagError(`invalid argument for "--runtime-config" flag: ${(err as Error).message}`);
  }
  const list = (k: string) => (v.get(k) as string[] | undefined) ?? [];
  const requestHeaderCA = str('requestheader-client-ca-file');
  if (requestHeaderCA !== undefined && requestHeaderCA !== '' && list('requestheader-username-headers').length === 0) {
    throw new FlagError('--requestheader-username-headers must name at least one header when --requestheader-client-ca-file is set');
  }
  const maxExpirationMs = num('service-account-max-token-expiration');
  if (maxExpirationMs !== 0 && (maxExpirationMs < 3_600_000 || maxExpirationMs > 2 ** 32 * 1000)) {
    throw new FlagError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
  const issuers = (v.get('service-account-issuer') as string[] | undefined) ?? [];
  if (issuers.some((i) => i === '')) throw new FlagError('service-account-issuer should not be an empty string');
  if (new Set(issuers).size !== issuers.length) throw new FlagError('service-account-issuer contains a duplicate value');
  const port = num('secure-port');
  if (port < 0 || port > 65535) throw new FlagError(`invalid value ${port} for --secure-port: must be between 0 and 65535`);
  return {
    bindAddress: str('bind-address')!,
    securePort: port,
    dataDir: str('data-dir')!,
    storage,
    tlsCertFile: str('tls-cert-file'),
    tlsPrivateKeyFile: str('tls-private-key-file'),
    clientCAFile: str('client-ca-file'),
    tokenAuthFile: str('token-auth-file'),
    serviceAccounts: {
      issuers,
      keyFiles: (v.get('service-account-key-file') as string[] | undefined) ?? [],
      signingKeyFile: str('service-account-signing-key-file'),
      maxExpirationSeconds: maxExpirationMs / 1000,
      extendExpiration: v.get('service-account-extend-token-expiration') as boolean,
      lookup: v.get('service-account-lookup') as boolean,
      jwksURI: str('service-account-jwks-uri'),
      apiAudiences: (v.get('api-audiences') as string[] | undefined) ?? [],
    },
    anonymousAuth: v.get('anonymous-auth') as boolean,
    kubeletClient: {
      clientCertificateFile: str('kubelet-client-certificate'),
      clientKeyFile: str('kubelet-client-key'),
      certificateAuthorityFile: str('kubelet-certificate-authority'),
      preferredAddressTypes: list('kubelet-preferred-address-types'),
    },
    enableBootstrapTokenAuth: v.get('enable-bootstrap-token-auth') as boolean,
    requestHeader: requestHeaderCA ? {
      clientCAFile: requestHeaderCA,
      usernameHeaders: list('requestheader-username-headers'),
      groupHeaders: list('requestheader-group-headers'),
      extraHeadersPrefix: list('requestheader-extra-headers-prefix'),
      allowedNames: list('requestheader-allowed-names'),
    } : undefined,
    ...authnOptions(v as Map<string, FlagValue>),
    ...authzOptions(v as Map<string, FlagValue>),
    ...admissionOptions(v as Map<string, FlagValue>),
    ...metricsOptions(v as Map<string, FlagValue>),
    ...auditOptions(v as Map<string, FlagValue>),
    ...apfOptions(v as Map<string, FlagValue>, featureGates),
    livezGracePeriodMs: num('livez-grace-period'),
    shutdownDelayMs: num('shutdown-delay-duration'),
    maxRequestsInflight: num('max-requests-inflight'),
    maxMutatingRequestsInflight: num('max-mutating-requests-inflight'),
    requestTimeoutMs: num('request-timeout'),
    featureGates,
    runtimeConfig,
    serviceClusterIPRange: str('service-cluster-ip-range'),
    serviceNodePortRange: str('service-node-port-range'),
    controllers,
  };
}

/**
 * The options `svc <cmd> <argv>` starts its server with; undefined when the
 * command only printed (--help, or an agent's). Throws FlagError on a bad flag.
 */
export function serverOptions(cmd: 'server' | 'apiserver', argv: string[]): ApiServerOptions | undefined {
  // `svc server` is also kube-controller-manager and kube-scheduler (their flags); `svc apiserver` is kube-apiserver alone.
  const specs = [...SERVER_FLAGS(cmd === 'server' ? '127.0.0.1' : '0.0.0.0'), ...(cmd === 'server' ? [...CONTROLLER_FLAGS, AGENT_FLAG] : [])];
  // `svc server --agent`: the agent's own flags (those the server does not have) go to the agent
  const split = cmd === 'server' ? splitAgentArgs(argv, specs) : { server: argv, agent: [] };
  const { values, args, warnings } = parseFlags(specs, split.server);
  for (const w of warnings) console.error(w);
  if (values.get('help')) {
    console.log(`Usage: svc ${cmd} [flags]\n\nFlags:\n${usage(specs)}`);
    return undefined;
  }
  if (args.length > 0) throw new FlagError(`unexpected argument ${JSON.stringify(args[0])}`);
  // kube-controller-manager's controllers (namespace, service accounts, token Secrets, root CA, quota…)
  // run in the all-in-one `svc server`; `svc apiserver` is kube-apiserver alone (no default
  // ServiceAccount or root-CA ConfigMap appears by itself, a deleted namespace stays Terminating).
  const base = options(values, cmd === 'server');
  if (split.agent.length > 0 && !values.get('agent')) throw new FlagError(`${split.agent[0]} is a node agent flag: add --agent to run an agent in this server`);
  const agent = values.get('agent') ? agentConfig(split.agent) : undefined;
  if (values.get('agent') && !agent) return undefined;
  return cmd === 'server'
    ? { ...base, controllerManager: { ...controllerOptions(values, base.featureGates!), ...(agent ? { agent: (ctx) => inProcessAgent(ctx, agent) } : {}) } }
    : base;
}

export async function serve(cmd: 'server' | 'apiserver', argv: string[]): Promise<number> {
  const opts = serverOptions(cmd, argv);
  if (!opts) return 0;
  const server = await startApiServer(opts);
  console.log(`svc ${cmd}: serving on https://${opts.bindAddress}:${server.port} (HTTP/1.1 and HTTP/2), storage ${describeStore(opts.storage)}`);
  if (server.kubeconfigPath) console.log(`svc ${cmd}: admin kubeconfig: ${server.kubeconfigPath}  (kubectl --kubeconfig ${server.kubeconfigPath} get ns)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log(`svc ${cmd}: shutting down`);
  await server.shutdown();
  return 0;
}

const AGENT_FLAG: FlagSpec = {
  name: 'agent', type: 'bool', default: false,
  help: 'Also run a node agent in this process (needs --container-runtime-endpoint): one machine is a whole cluster. The agent\'s flags (svc agent --help) are accepted; names the server also has (--tls-cert-file, --feature-gates, …) are the server\'s.',
};

