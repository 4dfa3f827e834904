// Exec credential plugins (client-go's plugin/pkg/client/auth/exec, v1.27):
// the svcconfig user's `exec` section names a command run with its args and
// env plus an ExecCredential in SVC_EXEC_INFO (and KUBERNETES_EXEC_INFO, for
// stock plugins): `spec.interactive`, and `spec.cluster` when
// provideClusterInfo. The plugin writes an ExecCredential of the configured
// version with `status.token` or `status.clientCertificateData` +
// `clientKeyData`, and optionally `expirationTimestamp`: the credentials are
// kept until then (or for good without it), or until a request with them is
// answered 401, when the plugin runs again. Errors carry client-go's texts
// (the install hint when the command is missing).
import { spawn } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { isObject } from '../registry/object.js';
import type { CredentialProvider, Credentials } from './credentials.js';

/** The API versions of the exec protocol, in both spellings. */
export const EXEC_API_VERSIONS = [
  'client.authentication.svc.io/v1', 'client.authentication.svc.io/v1beta1',
  'client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1',
] as const;

export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export interface ExecConfig {
  /** The command, resolved against the svcconfig's folder when it holds a path separator. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion: string;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: InteractiveMode;
}

/** What `spec.cluster` tells the plugin (clientauthentication's Cluster). */
export interface ExecClusterInfo {
  readonly server: string;
  readonly 'tls-server-name'?: string;
  readonly 'insecure-skip-tls-verify'?: boolean;
  /** base64 of the CA's PEM, as in a svcconfig. */
  readonly 'certificate-authority-data'?: string;
  readonly 'proxy-url'?: string;
  /** The cluster's `client.authentication.svc.io/exec` (or k8s.io) extension. */
  readonly config?: unknown;
}

export class ExecPluginError extends Error {
  override readonly name = 'ExecPluginError';
}

const INSTALL_HINT_HELP = `

It looks like you are trying to use a client credential plugin that is not installed.

To learn more about this feature, consult the documentation of client credential plugins (exec) in svcconfig files.`;

export interface ExecOptions {
  /** Whether standard input is a terminal (default: process.stdin.isTTY). */
  readonly isTerminal?: () => boolean;
  readonly now?: () => number;
  /** The environment the plugin inherits (default process.env). */
  readonly environ?: NodeJS.ProcessEnv;
}

/** The group of an exec API version with the svc.io spelling, so both spellings compare equal. */
const canonical = (apiVersion: string) => apiVersion.replace('client.authentication.k8s.io/', 'client.authentication.svc.io/');

export class ExecPlugin implements CredentialProvider {
  private cached: Credentials | undefined;
  private expiry = 0;
  private running: Promise<Credentials> | undefined;
  private readonly isTerminal: () => boolean;
  private readonly now: () => number;

  constructor(readonly config: ExecConfig, private readonly cluster: ExecClusterInfo | undefined, private readonly opts: ExecOptions = {}) {
    if (!(EXEC_API_VERSIONS as readonly string[]).includes(config.apiVersion)) throw new ExecPluginError(`exec plugin: invalid apiVersion ${JSON.stringify(config.apiVersion)}`);
    this.isTerminal = opts.isTerminal ?? (() => process.stdin.isTTY === true);
    this.now = opts.now ?? Date.now;
  }

  async get(): Promise<Credentials> {
    if (this.cached && !(this.expiry && this.now() > this.expiry)) return this.cached;
    return this.run();
  }

  async refresh(used: Credentials): Promise<Credentials | undefined> {
    // another request's 401 ran the plugin already (or runs it now): its answer is the fresh one
    if (this.running) return this.running;
    if (this.cached !== used) return this.cached;
    this.cached = undefined;
    return this.run();
  }

  /** One run at a time; callers meanwhile share its answer. */
  private run(): Promise<Credentials> {
    this.running ??= this.execute().finally(() => { this.running = undefined; });
    return this.running;
  }

  private interactive(): boolean {
    switch (this.config.interactiveMode) {
      case 'Never': return false;
      case 'IfAvailable': return this.isTerminal();
      case 'Always':
        if (!this.isTerminal()) throw new ExecPluginError('exec plugin cannot support interactive mode: standard input is not a terminal');
        return true;
      default: throw new ExecPluginError(`exec plugin cannot support interactive mode: unknown interactiveMode: ${JSON.stringify(this.config.interactiveMode)}`);
    }
  }

  private async execute(): Promise<Credentials> {
    const interactive = this.interactive();
    const info = JSON.stringify({
      kind: 'ExecCredential', apiVersion: this.config.apiVersion,
      spec: { ...(this.config.provideClusterInfo && this.cluster ? { cluster: this.cluster } : {}), interactive },
    });
    const stockInfo = JSON.stringify({ ...JSON.parse(info), apiVersion: this.config.apiVersion.replace('client.authentication.svc.io/', 'client.authentication.k8s.io/') });
    const env: NodeJS.ProcessEnv = { ...(this.opts.environ ?? process.env) };
    for (const e of this.config.env) env[e.name] = e.value;
    env.SVC_EXEC_INFO = info;
    env.KUBERNETES_EXEC_INFO = stockInfo;
    const stdout = await this.spawn(env, interactive);
    const creds = this.decode(stdout);
    this.cached = creds;
    return creds;
  }

  private spawn(env: NodeJS.ProcessEnv, interactive: boolean): Promise<string> {
    const cmd = this.config.command;
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, [...this.config.args], { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit'] });
      const chunks: Buffer[] = [];
      child.stdout!.on('data', (c: Buffer) => chunks.push(c));
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'EACCES') {
          reject(new ExecPluginError(`exec: executable ${cmd} not found${INSTALL_HINT_HELP}${this.config.installHint ? `\n\n${this.config.installHint}` : ''}`));
        } else reject(new ExecPluginError(`exec: ${err.message}`));
      });
      child.on('close', (code, signal) => {
        if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
        else reject(new ExecPluginError(`exec: executable ${cmd} failed with exit code ${code ?? (signal ? -1 : 0)}`));
      });
    });
  }

  /** The plugin's answer checked as client-go checks it. */
  private decode(stdout: string): Credentials {
    let doc: unknown;
    try {
      doc = parseYaml(stdout);
    } catch (err) {
      throw new ExecPluginError(`decoding stdout: ${(err as Error).message}`);
    }
    if (!isObject(doc) || typeof doc.apiVersion !== 'string' || doc.apiVersion === '' || typeof doc.kind !== 'string' || doc.kind === '') {
      throw new ExecPluginError(`decoding stdout: Object 'Kind' is missing in '${stdout.trim()}'`);
    }
    if (doc.kind !== 'ExecCredential' || !(EXEC_API_VERSIONS as readonly string[]).includes(doc.apiVersion)) {
      throw new ExecPluginError(`decoding stdout: no kind "${doc.kind}" is registered for version "${doc.apiVersion}"`);
    }
    if (canonical(doc.apiVersion) !== canonical(this.config.apiVersion)) {
      throw new ExecPluginError(`exec plugin is configured to use API version ${this.config.apiVersion}, plugin returned version ${doc.apiVersion}`);
    }
    if (!isObject(doc.status)) throw new ExecPluginError("exec plugin didn't return a status field");
    const s = doc.status;
    const token = typeof s.token === 'string' ? s.token : '';
    const cert = typeof s.clientCertificateData === 'string' ? s.clientCertificateData : '';
    const key = typeof s.clientKeyData === 'string' ? s.clientKeyData : '';
    if (!token && !cert && !key) throw new ExecPluginError("exec plugin didn't return a token or cert/key pair");
    if (!cert !== !key) throw new ExecPluginError('exec plugin returned only certificate or key, not both');
    if (cert && !/-----BEGIN [A-Z ]*CERTIFICATE-----/.test(cert)) throw new ExecPluginError('failed parsing client key/certificate: tls: failed to find any PEM data in certificate input');
    if (key && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new ExecPluginError('failed parsing client key/certificate: tls: failed to find any PEM data in key input');
    this.expiry = 0;
    if (typeof s.expirationTimestamp === 'string' && s.expirationTimestamp !== '') {
      const at = Date.parse(s.expirationTimestamp);
      if (Number.isNaN(at)) throw new ExecPluginError(`decoding stdout: parsing time ${JSON.stringify(s.expirationTimestamp)} as RFC 3339 failed`);
      this.expiry = at;
    }
    return { ...(token ? { token } : {}), ...(cert ? { clientCert: cert, clientKey: key } : {}) };
  }
}
