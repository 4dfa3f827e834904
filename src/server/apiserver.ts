// Assembles and runs the API server: storage, PKI, authentication,
// authorization, registry, admission, health, discovery, the filter chain and
// an HTTPS listener speaking HTTP/1.1 and HTTP/2; plus graceful shutdown.
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Store } from '../storage/interface.js';
import { openStore } from '../storage/open.js';
import { UnionAuthenticator, type Authenticator } from '../authn/authenticator.js';
import { X509Authenticator } from '../authn/x509.js';
import { TokenFileAuthenticator } from '../authn/tokenfile.js';
import { BOOTSTRAP_NAMESPACE, BootstrapTokenAuthenticator } from '../authn/bootstrap.js';
import { RequestHeaderAuthenticator } from '../authn/requestheader.js';
import { AudienceAgnostic } from '../authn/audiences.js';
import { externalTokenAuthenticators } from '../authn/external.js';
import { TokenUnionAuthenticator } from '../authn/tokenunion.js';
import { CachedTokenAuthenticator, DEFAULT_SUCCESS_TTL_MS } from '../authn/tokencache.js';
import { issuerDiscovery, JWKS_PATH, OPENID_CONFIGURATION_PATH, registryTokenGetter, type IssuerDiscoveryDocuments } from '../authn/serviceaccount/index.js';
import { serviceAccountTokens } from './satokens.js';
import { ensureSystemNamespaces, StartupWrite } from './startupwrites.js';
import { tokenRequestCreator, tokenRequestHandler } from '../endpoints/tokenrequest.js';
import { buildAuthorizer, DEFAULT_AUTHORIZATION_MODES } from '../authz/modes.js';
import type { Authorizer } from '../authz/authorizer.js';
import { installEscalationChecks } from '../authz/rbac/policybased.js';
import { Registry, type ServedResource } from '../registry/registry.js';
import { Admission } from '../registry/admission.js';
import { buildAdmissionPlugins, planAdmission, type AdmissionPlan } from '../admission/chain.js';
import { buildAudit } from '../audit/options.js';
import { enableAuditHooks } from '../audit/record.js';
import { policyStatusController, policyStatusWanted } from '../admission/plugins/validatingpolicy/status.js';
import { CRD_GROUP, CRD_RESOURCE } from '../apiextensions/serve/controller.js';
import { customResources } from '../apiextensions/serve/index.js';
import { ControllerContext } from '../controllers/context.js';
import { controllerTable, controlPlane, selectControllers, SERVICE_ACCOUNT_CONTROLLERS, type LeaderElectedComponent } from '../controllers/manager.js';
import { ensureClusterInfo } from '../controllers/bootstrapsigner.js';
import { reconcileBootstrapPolicy } from '../authz/rbac/reconcile.js';
import { RBAC_GROUP } from '../api/rbac/v1/validation.js';
import { Discovery } from '../endpoints/discovery.js';
import { resourceHandler } from '../endpoints/resource.js';
import { isStatusError } from '../api/meta/index.js';
import type { ApiObject } from '../registry/object.js';
import { ensurePki, parseCertificateBundle } from './pki.js';
import { buildKubeletClient } from './kubeletclientconfig.js';
import { writeAdminKubeconfig } from './kubeconfig.js';
import { Health, PostStartHook, ShutdownCheck, log, ping, type HealthCheck } from './health.js';
import { ServerClosing } from './closing.js';
import { within } from '../async/within.js';
import { DEFAULT_WATCH_SETTINGS } from '../endpoints/watch.js';
import { servedSubresources } from './filters/metrics.js';
import { collectProcessMetrics, configureMetrics } from '../metrics/registry.js';
import { countObjectsFrom, instrumentStore, keyResource } from '../metrics/storage.js';
import { recordRequestTermination } from '../metrics/apiserver.js';
import { buildHandlerChain } from './chain.js';
import { buildRouter } from './router.js';
import { OpenAPIService } from '../openapi/service.js';
import type { Request, RequestContext, Response } from './context.js';
import { servedResources, servedGroups } from './served.js';
import { DEFAULT_GATES } from '../features/gates.js';
import { nodePortBounds, parseClusterIPRange, parseNodePortRange, serviceHooks } from '../registry/allocators/index.js';
import { buildValidators } from '../api/validation.js';
import { priorityAndFairness } from '../flowcontrol/server.js';

export { DEFAULT_CLUSTER_IP_RANGE, DEFAULT_NODE_PORT_RANGE, type ApiServerOptions, type RequestHeaderConfig, type ServiceAccountOptions } from './options.js';
import { DEFAULT_CLUSTER_IP_RANGE, DEFAULT_NODE_PORT_RANGE, type ApiServerOptions } from './options.js';

/** kube-apiserver's ShutdownTimeout: how long a shutdown waits for in-flight requests before closing their connections. */
const SHUTDOWN_TIMEOUT_MS = 60_000;

export interface RunningApiServer {
  readonly port: number;
  readonly kubeconfigPath: string | undefined;
  readonly store: Store;
  /** What in-process controllers are built from (this server's registry, storage, authorizer). */
  readonly controllerContext: ControllerContext;
  /** The controller manager, when `controllers` is on (its identity, whether it leads). */
  readonly controllerManager: LeaderElectedComponent | undefined;
  /** SIGTERM behaviour: readyz fails at once, serve for the shutdown delay, drain, close storage. */
  shutdown(): Promise<void>;
}

export async function startApiServer(opts: ApiServerOptions): Promise<RunningApiServer> {
  // The admission flags and configuration file are checked before anything opens.
  const admissionPlan = planAdmission(opts.admission ?? {});
  // Which metrics /metrics exposes (the metric lifecycle), and the process and runtime collectors.
  configureMetrics(opts.metrics ?? {});
  collectProcessMetrics();
  // So is the --controllers selection (kube's "… is not in the list of known controllers").
  if (opts.controllers) selectControllers(opts.controllerManager?.controllers ?? ['*'], controllerTable(opts.featureGates ?? DEFAULT_GATES));
  const store = await openStore(opts.storage);
  try {
    return await assemble(opts, store, admissionPlan);
  } catch (err) {
    await store.close();
    throw err;
  }
}

async function assemble(opts: ApiServerOptions, rawStore: Store, admissionPlan: AdmissionPlan): Promise<RunningApiServer> {
  // Every storage call is timed (etcd_request_duration_seconds, both backends); keys name their resource.
  const resourceOfKey = keyResource((segment) => registry.servesGroup(segment));
  const store = instrumentStore(rawStore, resourceOfKey);
  // TLS material: given files, or a generated PKI in the data directory.
  const generated = !opts.tlsCertFile ? await ensurePki({ dataDir: opts.dataDir, bindAddress: opts.bindAddress }) : undefined;
  const cert = opts.tlsCertFile ? readFileSync(opts.tlsCertFile, 'utf8') : generated!.serving.cert;
  const key = opts.tlsPrivateKeyFile ? readFileSync(opts.tlsPrivateKeyFile, 'utf8') : generated!.serving.key;
  const clientCA = opts.clientCAFile ? readFileSync(opts.clientCAFile, 'utf8') : generated?.ca.cert;

  const requestHeaderCA = opts.requestHeader ? readCAFile(opts.requestHeader.clientCAFile, '--requestheader-client-ca-file') : undefined;
  // The TLS server asks for a client certificate and trusts both CAs; each authenticator then
  // verifies the chain against its own CA (a proxy certificate is no user certificate, nor the reverse).
  const trustedCAs = [clientCA, requestHeaderCA].filter((c): c is string => c !== undefined).join('\n');
  const serviceAccounts = await serviceAccountTokens(opts, key);
  // --api-audiences (default: the service-account issuers).
  const apiAudiences = opts.apiAudiences ?? serviceAccounts.config.apiAudiences;
  // The registry is built below; the bootstrap authenticator reads Secrets through it (watch cache).
  let secretLookup: (name: string) => Promise<ApiObject | undefined> = async () => undefined;

  const gates = opts.featureGates ?? DEFAULT_GATES;
  const resources: ServedResource[] = servedResources(opts.runtimeConfig);
  const admission = new Admission();
  const nodePortRange = parseNodePortRange(opts.serviceNodePortRange ?? DEFAULT_NODE_PORT_RANGE);
  const validators = buildValidators({ nodePortRange: nodePortBounds(nodePortRange) });
  const registry = new Registry(resources, store, admission, { watchCache: true, window: opts.watchCacheWindow, validators });
  countObjectsFrom(registry, resourceOfKey);
  const serviceAllocation = serviceHooks({
    storage: store,
    clusterIPRange: parseClusterIPRange(opts.serviceClusterIPRange ?? DEFAULT_CLUSTER_IP_RANGE),
    nodePortRange,
  });
  registry.store('', 'services').useHooks(serviceAllocation);
  // The admission chain, in kube's order (the registry's stores hold `admission` already): built
  // before anything starts watching, so a plugin configuration it refuses stops a quiet start. The
  // plugins that authorize (OwnerReferencesPermissionEnforcement, certificates) reach the
  // authorizer built next.
  let authorizerForAdmission: Authorizer | undefined;
  const admissionAuthorizer: Authorizer = {
    name: 'admission',
    authorize: (a) => authorizerForAdmission!.authorize(a),
  };
  for (const p of buildAdmissionPlugins(admissionPlan, { registry, authorizer: admissionAuthorizer, gates })) admission.register(p);
  // --authorization-mode (default Node,RBAC): the policy caches are listed before the server listens.
  const authz = await buildAuthorizer(opts.authorization ?? { modes: DEFAULT_AUTHORIZATION_MODES }, { registry, storage: store, gates });
  const authorizer = authz.authorizer;
  authorizerForAdmission = authorizer;
  // RBAC objects grant only what the writer holds (or may escalate / bind).
  if (registry.servesGroup(RBAC_GROUP)) installEscalationChecks(registry, { authorizer });
  secretLookup = async (name) => {
    try {
      return await registry.store('', 'secrets').get(BOOTSTRAP_NAMESPACE, name, { kind: 'any' });
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) return undefined;
      throw err;
    }
  };

  // Bearer-token authenticators in kube's order (static file, service-account tokens, bootstrap
  // tokens, OIDC, the token webhook): one union whose successes are cached 10 s (kube's tokencache).
  // TokenReview runs exactly these.
  const tokenAuthenticators: Authenticator[] = [];
  if (opts.tokenAuthFile) tokenAuthenticators.push(new AudienceAgnostic(TokenFileAuthenticator.fromFile(opts.tokenAuthFile), apiAudiences));
  tokenAuthenticators.push(...serviceAccounts.authenticators(registryTokenGetter(registry)));
  if (opts.enableBootstrapTokenAuth) tokenAuthenticators.push(new AudienceAgnostic(new BootstrapTokenAuthenticator((name) => secretLookup(name)), apiAudiences));
  const external = externalTokenAuthenticators({ ...opts, apiAudiences });
  tokenAuthenticators.push(...external.authenticators);
  const bearerTokens = new CachedTokenAuthenticator(new TokenUnionAuthenticator(tokenAuthenticators), { successTtlMs: opts.tokenCacheTtlMs ?? DEFAULT_SUCCESS_TTL_MS });
  const authenticators: Authenticator[] = [];
  if (opts.requestHeader) {
    const rh = opts.requestHeader;
    authenticators.push(new RequestHeaderAuthenticator({
      clientCA: parseCertificateBundle(requestHeaderCA!), usernameHeaders: rh.usernameHeaders, groupHeaders: rh.groupHeaders,
      extraHeaderPrefixes: rh.extraHeadersPrefix, allowedNames: rh.allowedNames,
    }));
  }
  if (clientCA) authenticators.push(new X509Authenticator(parseCertificateBundle(clientCA)));
  authenticators.push(bearerTokens);
  const authenticator = new UnionAuthenticator(authenticators, { anonymous: opts.anonymousAuth });
  const tokenAuthenticator = new UnionAuthenticator([bearerTokens], { anonymous: false });
  // The CA bundle pods verify the API server with (the token controller and root-CA publisher publish it).
  const rootCA = generated?.ca.cert ?? clientCA ?? cert;

  const cachesReady = new PostStartHook('watch-cache-initialized');
  const systemNamespaces = new PostStartHook('start-system-namespaces-controller');
  // The RBAC API's post-start hook and controller exist only when the API is served (--runtime-config).
  const rbacServed = registry.servesGroup(RBAC_GROUP);
  const rbacBootstrap = new PostStartHook('rbac/bootstrap-roles');
  const storageCheck: HealthCheck = { name: 'etcd', check: async () => void (await store.currentRevision()) };
  const shutdownCheck = new ShutdownCheck();
  // API Priority and Fairness (src/flowcontrol/server.ts): its config producer is a post-start hook
  const apf = priorityAndFairness(opts, { registry, storage: store, authorizer, gates });
  const hooks = [cachesReady, systemNamespaces, ...(rbacServed ? [rbacBootstrap] : []), ...apf.hooks];
  const health = new Health({
    checks: {
      healthz: [ping, log, storageCheck, ...hooks],
      livez: [ping, log, storageCheck, ...hooks],
      readyz: [ping, log, storageCheck, ...hooks, shutdownCheck],
    },
    livezGracePeriodMs: opts.livezGracePeriodMs,
  });

  let port = opts.securePort;
  const openapi = new OpenAPIService(resources);
  const discovery = new Discovery({ resources, groups: servedGroups(resources), serverAddress: () => `${opts.bindAddress}:${port}`, aggregated: gates.enabled('AggregatedDiscoveryEndpoint') });
  let issuerDocs: Promise<IssuerDiscoveryDocuments | undefined> | undefined;
  const issuerDocuments = () => (issuerDocs ??= issuerDiscovery({
    issuer: serviceAccounts.config.issuers[0]!, jwksURI: serviceAccounts.config.jwksURI,
    externalAddress: `${hostFor(opts.bindAddress).includes(':') ? `[${hostFor(opts.bindAddress)}]` : hostFor(opts.bindAddress)}:${port}`, keys: serviceAccounts.config.publicKeys,
  }).catch((err: Error) => {
    console.error(`svc: service account issuer discovery is not served: ${err.message}`);
    return undefined;
  }));
  const router = buildRouter({
    health, discovery, knowsGroup: (g) => registry.servesGroup(g), openapi,
    resources: resourceHandler(registry, { authenticator, authorizer, tokenAuthenticator, apiAudiences }, { ...DEFAULT_WATCH_SETTINGS, watchList: gates.enabled('WatchList'), ...opts.watch }, gates, tokenRequestHandler(registry, serviceAccounts), await buildKubeletClient(opts.kubeletClient, generated?.ca)),
    debug: apf.debug,
    metricsWithReset: opts.metrics?.profiling ?? true,
    issuerDiscovery: async (path) => {
      if (path !== OPENID_CONFIGURATION_PATH && path !== JWKS_PATH) return undefined;
      const docs = await issuerDocuments();
      if (!docs) return undefined;
      return path === JWKS_PATH ? { contentType: 'application/jwk-set+json', body: docs.jwks } : { contentType: 'application/json', body: docs.configuration };
    },
  });
  const audit = opts.audit ? buildAudit(opts.audit) : undefined;
  if (audit) enableAuditHooks();
  const chain = buildHandlerChain(router, {
    ...(audit ? { audit } : {}),
    authenticator,
    authorizer,
    inFlight: { readonly: opts.maxRequestsInflight, mutating: opts.maxMutatingRequestsInflight },
    priorityAndFairness: apf.filter && { ...apf.filter, recordRequestTermination },
    requestTimeoutMs: opts.requestTimeoutMs,
    metrics: { served: servedSubresources((g, v, r) => registry.lookup(g, v, r)) },
  });

  let inFlight = 0;
  let drained: (() => void) | undefined;
  const closing = new ServerClosing();
  const compression = gates.enabled('APIResponseCompression');
  // Requests are answered in batches in the check phase, after the loop has read every ready
  // socket: one setImmediate starts the chains of every request that arrived since the last
  // batch. Answering from inside the TLS read callback costs about a third more CPU per request,
  // and starting the chains together puts their writes together too (a response's bytes leave
  // when the microtasks of the batch have run), so a client reading many connections is woken
  // once per batch rather than once per response — with wrk on the same 2 cores, 8–11k gets/s
  // instead of 5–8k (measured, see bench/RESULTS.md).
  let batch: RequestContext[] = [];
  const done = () => {
    if (--inFlight === 0) drained?.();
  };
  const runBatch = () => {
    const ready = batch;
    batch = [];
    for (const ctx of ready) chain(ctx).catch((err) => console.error('svc: unhandled error in the handler chain', err)).finally(done);
  };
  const server = http2.createSecureServer({ allowHTTP1: true, cert, key, ...(trustedCAs ? { ca: trustedCAs, requestCert: true, rejectUnauthorized: false } : {}) }, (req, res) => {
    inFlight++;
    batch.push({
      req: req as unknown as Request,
      res: res as unknown as Response,
      url: new URL(req.url ?? '/', 'https://svc.invalid'),
      compression,
      closing,
    });
    if (batch.length === 1) setImmediate(runBatch);
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('secureConnection', (sock) => {
    // Nagle's algorithm off, as Node's HTTP/1 server does by default (noDelay) but not when
    // HTTP/1.1 arrives through the HTTP/2 server: otherwise a body's last small segment waits
    // for the client's delayed ACK, ~40–50 ms on a large list page.
    sock.setNoDelay(true);
    sockets.add(sock);
    sock.once('close', () => sockets.delete(sock));
  });
  // What runs besides the listener, stopped in reverse order at shutdown — or at once when the start fails.
  const running: { stop(): void | Promise<void> }[] = [
    { stop: () => external.close() }, { stop: () => authz.stop() }, { stop: () => registry.stopCaches() }, { stop: () => serviceAllocation.close() },
  ];
  // The audit backend stops last, once every request it may hear about has ended.
  if (audit) running.unshift({ stop: () => audit.backend.shutdown() });
  const start = async <T extends { start(): Promise<void>; stop(): void }>(c: T): Promise<T> => {
    running.push(c);
    await c.start();
    return c;
  };
  const stopRunning = async () => {
    for (const c of running.splice(0).reverse()) await c.stop();
  };
  let kubeconfigPath: string | undefined;
  const cm = opts.controllerManager ?? {};
  const controllerContext = new ControllerContext(registry, store, authorizer, gates, {
    config: { rootCA, tokenGenerator: serviceAccounts.legacyIssuer, tokenRequest: tokenRequestCreator(serviceAccounts), concurrentSyncs: cm.concurrentSyncs ?? {}, settings: cm.settings ?? {}, ...(generated ? { clusterSigningCA: generated.ca } : {}) },
  });
  running.push({ stop: () => controllerContext.informers.stop() });
  const plane = opts.controllers ? controlPlane(controllerContext, {
    ...cm,
    // Without the service-account controllers (the e2e harness's default) their names are turned off first.
    controllers: [...(opts.serviceAccountControllers ?? true ? [] : SERVICE_ACCOUNT_CONTROLLERS.map((n) => `-${n}`)), ...(cm.controllers ?? ['*'])],
    leaderElection: { leaderElect: false, ...cm.leaderElection },
  }) : undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.securePort, opts.bindAddress, () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    kubeconfigPath = generated ? await writeAdminKubeconfig({ dataDir: opts.dataDir, port, host: hostFor(opts.bindAddress), pki: generated }) : undefined;

    await registry.startCaches();
    // Custom resources: the Established CRDs are served before the server is ready; then their changes.
    if (registry.has(CRD_GROUP, CRD_RESOURCE)) await start(customResources(registry, store, { discovery, openapi }));
    cachesReady.done();
    await start(new StartupWrite(systemNamespaces, () => ensureSystemNamespaces(registry)));
    if (rbacServed) await start(new StartupWrite(rbacBootstrap, () => reconcileBootstrapPolicy(registry, gates)));
    for (const c of apf.components()) await start(c);
    // With bootstrap tokens, cluster-info in svc-public, as kubeadm publishes it for nodes joining.
    if (opts.enableBootstrapTokenAuth) {
      const url = `https://${hostFor(opts.bindAddress)}:${port}`;
      await start(new StartupWrite(new PostStartHook('svc/cluster-info'), () => ensureClusterInfo(registry, url, Buffer.from(rootCA).toString('base64'), { rbac: rbacServed })));
    }
    // ValidatingAdmissionPolicy writes its policies' status.typeChecking from inside the server, as kube's plugin does
    if (policyStatusWanted(admissionPlan.names, registry, gates)) await start(policyStatusController(registry, store));
    for (const c of plane?.components ?? []) await start(c);
  } catch (err) {
    await stopRunning();
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => (server.listening ? server.close(() => r()) : r()));
    throw err;
  }

  let shuttingDown: Promise<void> | undefined;
  return {
    port,
    kubeconfigPath,
    store,
    controllerContext,
    controllerManager: plane?.manager,
    shutdown() {
      shuttingDown ??= (async () => {
        shutdownCheck.begin();
        await new Promise((r) => setTimeout(r, opts.shutdownDelayMs));
        const closed = new Promise<void>((r) => server.close(() => r()));
        // watches and log streams end now; the other requests get kube's shutdown timeout to finish
        closing.begin();
        if (inFlight > 0 && !(await within(new Promise<void>((r) => (drained = r)), SHUTDOWN_TIMEOUT_MS))) {
          console.error(`svc: shutting down with ${inFlight} request(s) still running after ${SHUTDOWN_TIMEOUT_MS / 1000} s; closing their connections`);
        }
        await stopRunning();
        // Idle keep-alive connections and HTTP/2 sessions would hold close() open: end them.
        for (const sock of sockets) sock.destroy();
        await closed;
        await store.close();
      })();
      return shuttingDown;
    },
  };
}

function readCAFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${flag} ${path}: ${(err as Error).message}`);
  }
}

function hostFor(bind: string): string {
  return bind === '0.0.0.0' || bind === '::' || bind === '' ? '127.0.0.1' : bind;
}

