// A svcconfig (kubeconfig format) as a client reads it: the current context's
// cluster and user through the connection-file reader (src/webhook/connfile.ts:
// server, CA, certificates, token, token file, basic credentials), plus what
// only a client uses — the user's `exec` credential plugin (checked with
// clientcmd's validation texts; v1beta1 defaults interactiveMode to
// IfAvailable, v1 requires it) with the cluster's details and its
// `client.authentication.svc.io/exec` extension for provideClusterInfo, and
// certificate files read again when they change.
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { isObject } from '../registry/object.js';
import { ConnectionFileError, parseConnectionFile, type Connection } from '../webhook/connfile.js';
import { fileCredentials, staticCredentials, type CredentialProvider } from './credentials.js';
import { EXEC_API_VERSIONS, ExecPlugin, type ExecClusterInfo, type ExecConfig, type ExecOptions, type InteractiveMode } from './exec.js';

export { ConnectionFileError } from '../webhook/connfile.js';

/** A client's view of a svcconfig: where to connect, and who to be. */
export interface ClientConfig {
  /** Server, CA and TLS settings; the static credentials too (the provider is what requests use). */
  readonly connection: Connection;
  readonly credentials: CredentialProvider;
  /** The exec plugin, when the user has one. */
  readonly exec?: ExecConfig;
}

type Dict = Record<string, unknown>;

const EXEC_EXTENSIONS = ['client.authentication.svc.io/exec', 'client.authentication.k8s.io/exec'];

export function loadSvcconfig(path: string, opts: ExecOptions = {}): ClientConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConnectionFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  return parseSvcconfig(text, { path, baseDir: dirname(resolve(path)) }, opts);
}

export function parseSvcconfig(text: string, where: { path: string; baseDir: string }, opts: ExecOptions = {}): ClientConfig {
  const connection = parseConnectionFile(text, where);
  const fail = (msg: string): never => {
    throw new ConnectionFileError(`${where.path}: ${msg}`);
  };
  const doc = parseYaml(text) as Dict;
  const context = entry(doc.contexts, String(doc['current-context']), 'context');
  const userName = typeof context.user === 'string' ? context.user : '';
  const user = userName ? entry(doc.users, userName, 'user') : {};
  const cluster = entry(doc.clusters, String(context.cluster), 'cluster');
  const rel = (p: string) => (isAbsolute(p) ? p : resolve(where.baseDir, p));

  if (isObject(user.exec)) {
    if (isObject(user['auth-provider'])) fail(`authProvider cannot be provided in combination with an exec plugin for ${userName}`);
    const exec = execConfig(user.exec, userName, fail);
    const resolved = { ...exec, command: exec.command.includes(sep) ? rel(exec.command) : exec.command };
    const plugin = new ExecPlugin(resolved, clusterInfo(connection, cluster), opts);
    return { connection, credentials: plugin, exec: resolved };
  }
  const certFile = typeof user['client-certificate'] === 'string' ? user['client-certificate'] : '';
  const keyFile = typeof user['client-key'] === 'string' ? user['client-key'] : '';
  if (certFile && keyFile) {
    const extra = { ...(connection.token ? { token: connection.token } : {}), ...(connection.username !== undefined ? { username: connection.username, password: connection.password ?? '' } : {}) };
    return { connection, credentials: fileCredentials({ certFile: rel(certFile), keyFile: rel(keyFile), extra }) };
  }
  const { server: _s, ca: _c, tlsServerName: _t, insecureSkipTLSVerify: _i, ...creds } = connection;
  return { connection, credentials: staticCredentials(creds) };
}

function execConfig(e: Dict, userName: string, fail: (m: string) => never): ExecConfig {
  const errors: string[] = [];
  const command = typeof e.command === 'string' ? e.command : '';
  const apiVersion = typeof e.apiVersion === 'string' ? e.apiVersion : '';
  if (!command) errors.push(`command must be specified for ${userName} to use exec authentication plugin`);
  if (!apiVersion) errors.push(`apiVersion must be specified for ${userName} to use exec authentication plugin`);
  const env = (Array.isArray(e.env) ? e.env : []).map((v) => {
    const d = isObject(v) ? v : {};
    const name = typeof d.name === 'string' ? d.name : '';
    if (!name) errors.push(`env variable name must be specified for ${userName} to use exec authentication plugin`);
    return { name, value: typeof d.value === 'string' ? d.value : '' };
  });
  let mode = typeof e.interactiveMode === 'string' ? e.interactiveMode : '';
  // v1beta1 (either spelling) defaults to IfAvailable for backward compatibility; v1 must say
  if (!mode && /\/v1beta1$/.test(apiVersion)) mode = 'IfAvailable';
  if (!mode) errors.push(`interactiveMode must be specified for ${userName} to use exec authentication plugin`);
  else if (!['Never', 'IfAvailable', 'Always'].includes(mode)) errors.push(`invalid interactiveMode for ${userName}: ${JSON.stringify(mode)}`);
  if (apiVersion && !(EXEC_API_VERSIONS as readonly string[]).includes(apiVersion)) errors.push(`exec plugin: invalid apiVersion ${JSON.stringify(apiVersion)}`);
  if (errors.length > 0) fail(errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
  return {
    command, apiVersion, env,
    args: Array.isArray(e.args) ? e.args.map(String) : [],
    ...(typeof e.installHint === 'string' && e.installHint ? { installHint: e.installHint } : {}),
    provideClusterInfo: e.provideClusterInfo === true,
    interactiveMode: mode as InteractiveMode,
  };
}

function clusterInfo(conn: Connection, cluster: Dict): ExecClusterInfo {
  const ext = (Array.isArray(cluster.extensions) ? cluster.extensions : []).find((x) => isObject(x) && EXEC_EXTENSIONS.includes(String(x.name)));
  return {
    server: String(cluster.server ?? conn.server.href),
    ...(conn.tlsServerName ? { 'tls-server-name': conn.tlsServerName } : {}),
    ...(conn.insecureSkipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
    ...(conn.ca ? { 'certificate-authority-data': Buffer.from(conn.ca).toString('base64') } : {}),
    ...(typeof cluster['proxy-url'] === 'string' ? { 'proxy-url': cluster['proxy-url'] } : {}),
    ...(isObject(ext) && ext.extension !== undefined ? { config: ext.extension } : {}),
  };
}

/** The body of a named entry (parseConnectionFile has checked that the current context's exist). */
function entry(list: unknown, name: string, what: string): Dict {
  const e = Array.isArray(list) ? list.find((x) => isObject(x) && x.name === name) : undefined;
  const body = isObject(e) ? e[what] : undefined;
  return isObject(body) ? body : {};
}
