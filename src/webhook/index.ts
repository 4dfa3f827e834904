// Outbound callbacks: the connection-credentials file (connfile.ts), the
// HTTPS client with kube's retry policy (client.ts) and the check of a review
// answer's envelope (review.ts). The token authentication and authorization
// webhooks use them. Admission webhooks call through callback.ts: a clientConfig
// (url or service, resolved by serviceresolver.ts) over pooled connections
// (pool.ts: kept-alive HTTP/1.1, h1.ts) with a bound per webhook (limiter.ts).
export { loadConnectionFile, parseConnectionFile, loadCredentialsFile, parseCredentialsFile, credentialsFor, ConnectionFileError, type Connection, type Credentials, type CredentialsFile } from './connfile.js';
export { OutboundClient, OutboundError, DEFAULT_BACKOFF, shouldRetry, withBackoff, type Backoff, type ClientOptions, type CallOptions, type Response } from './client.js';
export { checkReviewEnvelope } from './review.js';
export { AdmissionCallbackClient, CallbackConfigError, DEFAULT_MAX_IN_FLIGHT_PER_WEBHOOK, DEFAULT_MAX_RESPONSE_BYTES, type AdmissionCallbackClientOptions, type CallbackCall, type CallbackCaller, type CallbackConfig, type CallbackResult } from './callback.js';
export { endpointsResolver, type ServiceResolver, type ObjectSource } from './serviceresolver.js';
export { KeyedLimiter } from './limiter.js';
