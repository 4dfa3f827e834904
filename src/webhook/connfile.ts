// The connection-credentials file (a kubeconfig: apiVersion v1, kind Config)
// that names a remote service for the token authentication webhook, the
// authorization webhook, admission callbacks and the image policy backend, as
// kube's LoadKubeconfig reads it: the current context (required) picks a
// cluster (server URL, CA as a file or inline data, tls-server-name,
// insecure-skip-tls-verify) and a user (client certificate and key as files or
// inline data, a bearer token or token file, or basic credentials). Relative
// file paths are read against the file's own folder.
//
// Admission callbacks read the same file another way (kube's
// AuthenticationInfoResolver): the credentials of the user whose name is the
// callback's host (`<service>.<namespace>.svc`, with `:<port>` unless 443), or
// a `*.`-prefixed wildcard of it, else the user `*`, else the current
// context's user — loadCredentialsFile / credentialsFor.
import { isObject } from '../registry/object.js';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** What a client presents: a certificate and key (PEM), a bearer token, or basic credentials. */
export interface Credentials {
  readonly clientCert?: string;
  readonly clientKey?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

/** Everything needed to call the remote service. PEM text, never paths. */
export interface Connection extends Credentials {
  readonly server: URL;
  readonly ca?: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTLSVerify?: boolean;
}

export class ConnectionFileError extends Error {
  override readonly name = 'ConnectionFileError';
}

type Dict = Record<string, unknown>;

/** Reads and checks a connection-credentials file; throws ConnectionFileError naming the file and the problem. */
export function loadConnectionFile(path: string): Connection {
  return load(path, parseConnectionFile);
}

function load<T>(path: string, parse: (text: string, opts: ParseOptions) => T): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConnectionFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  return parse(text, { path, baseDir: dirname(resolve(path)) });
}

export interface ParseOptions {
  /** The file's name, for messages. */
  readonly path: string;
  /** The folder relative paths are read against. */
  readonly baseDir: string;
}

export function parseConnectionFile(text: string, opts: ParseOptions): Connection {
  const f = new FileReader(text, opts);
  const current = f.doc['current-context'];
  if (typeof current !== 'string' || current === '') return f.fail('current-context is required');
  const context = named(f.doc.contexts, current, 'context', f.fail);
  const clusterName = str(context.cluster);
  if (!clusterName) f.fail(`context ${JSON.stringify(current)} names no cluster`);
  const cluster = named(f.doc.clusters, clusterName!, 'cluster', f.fail);
  const userName = str(context.user);
  const user = userName ? f.credentials(userName, named(f.doc.users, userName, 'user', f.fail)) : {};
  const serverText = str(cluster.server);
  if (!serverText) return f.fail(`cluster ${JSON.stringify(clusterName)} has no server`);
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    return f.fail(`cluster ${JSON.stringify(clusterName)}: server ${JSON.stringify(serverText)} is not a URL`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') f.fail(`server ${serverText}: scheme must be https (or http)`);
  const ca = f.fileOrData('certificate-authority', 'certificate-authority-data', cluster, 'certificate authority');
  return {
    server,
    ...(ca !== undefined ? { ca } : {}),
    ...(str(cluster['tls-server-name']) ? { tlsServerName: str(cluster['tls-server-name']) } : {}),
    ...(cluster['insecure-skip-tls-verify'] === true ? { insecureSkipTLSVerify: true } : {}),
    ...user,
  };
}

/** The users of a connection-credentials file, for callbacks that pick credentials by host. */
export interface CredentialsFile {
  readonly users: ReadonlyMap<string, Credentials>;
  /** The current context's user, if any. */
  readonly current?: Credentials;
}

export function loadCredentialsFile(path: string): CredentialsFile {
  return load(path, parseCredentialsFile);
}

export function parseCredentialsFile(text: string, opts: ParseOptions): CredentialsFile {
  const f = new FileReader(text, opts);
  const users = new Map<string, Credentials>();
  for (const e of Array.isArray(f.doc.users) ? f.doc.users : []) {
    if (isObject(e) && typeof e.name === 'string') users.set(e.name, f.credentials(e.name, isObject(e.user) ? e.user : {}));
  }
  const currentName = str(f.doc['current-context']);
  const context = currentName && Array.isArray(f.doc.contexts) ? f.doc.contexts.find((c) => isObject(c) && c.name === currentName) as Dict | undefined : undefined;
  const currentUser = context && isObject(context.context) ? str(context.context.user) : undefined;
  const current = currentUser ? users.get(currentUser) : undefined;
  return { users, ...(current ? { current } : {}) };
}

/**
 * The credentials for a callback at `target` (`host` or `host:port`), as kube's
 * AuthenticationInfoResolver picks them: the user named exactly so, then `*.`-wildcards of ever
 * shorter domain suffixes; for port 443 the same again without the port; then `*`; then the
 * current context's user; none (anonymous) otherwise.
 */
export function credentialsFor(file: CredentialsFile, target: string): Credentials | undefined {
  const lookup = (t: string): Credentials | undefined => {
    const exact = file.users.get(t);
    if (exact) return exact;
    const steps = t.split('.');
    for (let i = 1; i < steps.length; i++) {
      const wild = file.users.get(`*.${steps.slice(i).join('.')}`);
      if (wild) return wild;
    }
    return undefined;
  };
  // without the port, as Go's SplitHostPort gives the host: an IPv6 address loses its brackets
  const found = lookup(target) ?? (target.endsWith(':443') ? lookup(target.slice(0, -4).replace(/^\[(.*)\]$/, '$1')) : undefined);
  return found ?? file.users.get('*') ?? file.current;
}

/** Parsing state shared by both readers: the document, failures naming the file, files read against its folder. */
class FileReader {
  readonly doc: Dict;
  constructor(text: string, private readonly opts: ParseOptions) {
    let doc: unknown;
    try {
      doc = parseYaml(text);
    } catch (err) {
      this.fail(`not YAML or JSON: ${(err as Error).message}`);
    }
    if (!isObject(doc)) this.fail('expected a Config object');
    this.doc = doc as Dict;
    if (this.doc.kind !== undefined && this.doc.kind !== 'Config') this.fail(`kind ${JSON.stringify(this.doc.kind)} is not Config`);
  }

  readonly fail = (msg: string): never => {
    throw new ConnectionFileError(`${this.opts.path}: ${msg}`);
  };

  read(file: string, what: string): string {
    const p = isAbsolute(file) ? file : resolve(this.opts.baseDir, file);
    try {
      return readFileSync(p, 'utf8');
    } catch (err) {
      return this.fail(`cannot read ${what} ${p}: ${(err as Error).message}`);
    }
  }

  fileOrData(fileKey: string, dataKey: string, from: Dict, what: string): string | undefined {
    const data = str(from[dataKey]);
    const file = str(from[fileKey]);
    if (data && file) this.fail(`${what}: give either ${fileKey} or ${dataKey}, not both`);
    if (data) return decodeData(data, `${what} ${dataKey}`, this.fail);
    return file ? this.read(file, what) : undefined;
  }

  credentials(name: string, user: Dict): Credentials {
    const clientCert = this.fileOrData('client-certificate', 'client-certificate-data', user, 'client certificate');
    const clientKey = this.fileOrData('client-key', 'client-key-data', user, 'client key');
    if ((clientCert === undefined) !== (clientKey === undefined)) this.fail(`user ${JSON.stringify(name)}: a client certificate needs its key and a key its certificate`);
    let token = str(user.token);
    const tokenFile = str(user.tokenFile);
    if (!token && tokenFile) token = this.read(tokenFile, 'token file').trim();
    const username = str(user.username);
    const password = str(user.password);
    if (token && username) this.fail(`user ${JSON.stringify(name)}: give either a token or a username and password, not both`);
    return {
      ...(clientCert !== undefined ? { clientCert, clientKey } : {}),
      ...(token ? { token } : {}),
      ...(username ? { username, password: password ?? '' } : {}),
    };
  }
}

function named(list: unknown, name: string, what: string, fail: (m: string) => never): Dict {
  if (!Array.isArray(list)) return fail(`no ${what}s`);
  const entry = list.find((e) => isObject(e) && e.name === name);
  if (!entry) return fail(`${what} ${JSON.stringify(name)} not found`);
  const body = (entry as Dict)[what];
  return isObject(body) ? body : {};
}

function decodeData(b64: string, what: string, fail: (m: string) => never): string {
  if (!/^[A-Za-z0-9+/=\s]*$/.test(b64)) fail(`${what} is not base64`);
  return Buffer.from(b64, 'base64').toString('utf8');
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
