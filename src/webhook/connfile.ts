// The connection-credentials file (a kubeconfig: apiVersion v1, kind Config)
// that names a remote service for the token authentication webhook, the
// authorization webhook, admission callbacks and the image policy backend, as
// kube's LoadKubeconfig reads it: the current context (required) picks a
// cluster (server URL, CA as a file or inline data, tls-server-name,
// insecure-skip-tls-verify) and a user (client certificate and key as files or
// inline data, a bearer token or token file, or basic credentials). Relative
// file paths are read against the file's own folder.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** Everything needed to call the remote service. PEM text, never paths. */
export interface Connection {
  readonly server: URL;
  readonly ca?: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTLSVerify?: boolean;
  readonly clientCert?: string;
  readonly clientKey?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

export class ConnectionFileError extends Error {
  override readonly name = 'ConnectionFileError';
}

type Dict = Record<string, unknown>;

/** Reads and checks a connection-credentials file; throws ConnectionFileError naming the file and the problem. */
export function loadConnectionFile(path: string): Connection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConnectionFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  return parseConnectionFile(text, { path, baseDir: dirname(resolve(path)) });
}

export interface ParseOptions {
  /** The file's name, for messages. */
  readonly path: string;
  /** The folder relative paths are read against. */
  readonly baseDir: string;
}

export function parseConnectionFile(text: string, opts: ParseOptions): Connection {
  const fail = (msg: string): never => {
    throw new ConnectionFileError(`${opts.path}: ${msg}`);
  };
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    return fail(`not YAML or JSON: ${(err as Error).message}`);
  }
  if (!isDict(doc)) return fail('expected a Config object');
  if (doc.kind !== undefined && doc.kind !== 'Config') fail(`kind ${JSON.stringify(doc.kind)} is not Config`);
  const current = doc['current-context'];
  if (typeof current !== 'string' || current === '') return fail('current-context is required');
  const context = named(doc.contexts, current, 'context', fail);
  const clusterName = str(context.cluster);
  if (!clusterName) fail(`context ${JSON.stringify(current)} names no cluster`);
  const cluster = named(doc.clusters, clusterName!, 'cluster', fail);
  const userName = str(context.user);
  const user = userName ? named(doc.users, userName, 'user', fail) : {};

  const read = (file: string, what: string): string => {
    const p = isAbsolute(file) ? file : resolve(opts.baseDir, file);
    try {
      return readFileSync(p, 'utf8');
    } catch (err) {
      return fail(`cannot read ${what} ${p}: ${(err as Error).message}`);
    }
  };
  const fileOrData = (fileKey: string, dataKey: string, from: Dict, what: string): string | undefined => {
    const data = str(from[dataKey]);
    const file = str(from[fileKey]);
    if (data && file) fail(`${what}: give either ${fileKey} or ${dataKey}, not both`);
    if (data) return decodeData(data, `${what} ${dataKey}`, fail);
    return file ? read(file, what) : undefined;
  };

  const serverText = str(cluster.server);
  if (!serverText) return fail(`cluster ${JSON.stringify(clusterName)} has no server`);
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    return fail(`cluster ${JSON.stringify(clusterName)}: server ${JSON.stringify(serverText)} is not a URL`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') fail(`server ${serverText}: scheme must be https (or http)`);
  const ca = fileOrData('certificate-authority', 'certificate-authority-data', cluster, 'certificate authority');
  const clientCert = fileOrData('client-certificate', 'client-certificate-data', user, 'client certificate');
  const clientKey = fileOrData('client-key', 'client-key-data', user, 'client key');
  if ((clientCert === undefined) !== (clientKey === undefined)) fail(`user ${JSON.stringify(userName)}: a client certificate needs its key and a key its certificate`);
  let token = str(user.token);
  const tokenFile = str(user.tokenFile);
  if (!token && tokenFile) token = read(tokenFile, 'token file').trim();
  const username = str(user.username);
  const password = str(user.password);
  if (token && username) fail(`user ${JSON.stringify(userName)}: give either a token or a username and password, not both`);
  return {
    server,
    ...(ca !== undefined ? { ca } : {}),
    ...(str(cluster['tls-server-name']) ? { tlsServerName: str(cluster['tls-server-name']) } : {}),
    ...(cluster['insecure-skip-tls-verify'] === true ? { insecureSkipTLSVerify: true } : {}),
    ...(clientCert !== undefined ? { clientCert, clientKey } : {}),
    ...(token ? { token } : {}),
    ...(username ? { username, password: password ?? '' } : {}),
  };
}

function named(list: unknown, name: string, what: string, fail: (m: string) => never): Dict {
  if (!Array.isArray(list)) return fail(`no ${what}s`);
  const entry = list.find((e) => isDict(e) && e.name === name);
  if (!entry) return fail(`${what} ${JSON.stringify(name)} not found`);
  const body = (entry as Dict)[what];
  return isDict(body) ? body : {};
}

function decodeData(b64: string, what: string, fail: (m: string) => never): string {
  if (!/^[A-Za-z0-9+/=\s]*$/.test(b64)) fail(`${what} is not base64`);
  return Buffer.from(b64, 'base64').toString('utf8');
}

function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
