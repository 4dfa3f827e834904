// Outbound callbacks: the connection-credentials file (connfile.ts), the
// HTTPS client with kube's retry policy (client.ts) and the check of a review
// answer's envelope (review.ts). The token authentication and authorization
// webhooks use them; admission callbacks and the image policy backend are to.
export { loadConnectionFile, parseConnectionFile, loadCredentialsFile, parseCredentialsFile, credentialsFor, ConnectionFileError, type Connection, type Credentials, type CredentialsFile } from './connfile.js';
export { OutboundClient, OutboundError, DEFAULT_BACKOFF, shouldRetry, withBackoff, type Backoff, type ClientOptions, type CallOptions, type Response } from './client.js';
export { checkReviewEnvelope } from './review.js';
