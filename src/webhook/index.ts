// Outbound callbacks: the connection-credentials file (connfile.ts) and the
// HTTPS client with kube's retry policy (client.ts). The token authentication
// webhook uses them today; the authorization webhook, admission callbacks and
// the image policy backend are to use them too.
export { loadConnectionFile, parseConnectionFile, loadCredentialsFile, parseCredentialsFile, credentialsFor, ConnectionFileError, type Connection, type Credentials, type CredentialsFile } from './connfile.js';
export { OutboundClient, OutboundError, DEFAULT_BACKOFF, shouldRetry, withBackoff, type Backoff, type ClientOptions, type CallOptions, type Response } from './client.js';
