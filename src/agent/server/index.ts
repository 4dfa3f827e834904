// The agent's HTTPS server (kubelet's :10250): serving certificate (tls.ts),
// authentication (authn.ts: client certificates, TokenReview, anonymous),
// authorization (authz.ts: AlwaysAllow or SubjectAccessReview on nodes/<sub>),
// routes (handlers.ts: /healthz, /pods, /containerLogs; the later streaming
// routes are seams that answer 404), and the server itself (server.ts) with
// the plain-HTTP health server. What it needs from the agent: host.ts.
export * from './authn.js';
export * from './authz.js';
export * from './handlers.js';
export * from './host.js';
export * from './logquery.js';
export * from './server.js';
export * from './tls.js';
