// The client side of svcconfig files, for `svc agent` and other clients of
// an API server: svcconfig.ts reads the file (current context → cluster and
// user), credentials.ts says where credentials come from (fixed, certificate
// files read again when they change, exec.ts's credential plugins), http.ts
// is the HTTPS client that asks the provider before each request and once
// more after a 401.
//
//   loadSvcconfig(path) ──► ClientConfig { connection, credentials } ──► new ApiHttp(connection, { credentials })
export { loadSvcconfig, parseSvcconfig, ConnectionFileError, type ClientConfig } from './svcconfig.js';
export { ExecPlugin, ExecPluginError, EXEC_API_VERSIONS, type ExecConfig, type ExecClusterInfo, type InteractiveMode } from './exec.js';
export { staticCredentials, fileCredentials, type CredentialProvider, type Credentials } from './credentials.js';
export { ApiHttp, CredentialsError, statusError, type ApiHttpOptions, type HttpAnswer, type Headers } from './http.js';
import { ApiHttp } from './http.js';
import type { ClientConfig } from './svcconfig.js';

/** An HTTPS client for a svcconfig's cluster, as its user. */
export const clientFor = (config: ClientConfig, userAgent?: string): ApiHttp =>
  new ApiHttp(config.connection, { credentials: config.credentials, ...(userAgent ? { userAgent } : {}) });
