// Test fixture: a real OpenID provider process over TLS (oidcproviderproc.ts)
// with certificates from a generated CA (server/pki.ts) and RSA signing keys
// made by jose. `token()` asks its token endpoint for an ID token; `rotate()`
// restarts it on the same port with a new signing key first (the old one still
// published), as a provider rotating its keys does.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair } from 'jose';
import { ensurePki } from '../server/pki.js';
import { tempDir } from './tempdir.js';

export interface OidcClient {
  readonly id: string;
  readonly secret: string;
}

export interface OidcProviderFixture {
  /** https://localhost:<port> */
  readonly issuer: string;
  readonly port: number;
  /** PEM of the CA that signed the provider's certificate, and a file holding it. */
  readonly ca: string;
  readonly caFile: string;
  /** The CA's directory (pki/ with ca.crt, apiserver.crt/key for the provider, admin.crt/key). */
  readonly dir: string;
  /** An ID token from the provider's token endpoint for `sub` with extra claims. */
  token(sub: string, claims?: Record<string, unknown>, opts?: { client?: OidcClient; expiresIn?: number }): Promise<string>;
  /** The kids published, the signing one first. */
  readonly kids: readonly string[];
  /** Restarts with a new signing key (the old ones still published). */
  rotate(opts?: { dropOld?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

export const DEFAULT_CLIENT: OidcClient = { id: 'svc-cluster', secret: 'svc-cluster-secret' };

export async function startOidcProvider(opts: { clients?: readonly OidcClient[] } = {}): Promise<OidcProviderFixture> {
  const dir = tempDir('svc-oidc-');
  const pki = await ensurePki({ dataDir: dir });
  const caFile = join(dir, 'oidc-ca.crt');
  writeFileSync(caFile, pki.ca.cert);
  const clients = opts.clients ?? [DEFAULT_CLIENT];
  let keys: Record<string, unknown>[] = [await newKey()];
  let port = 0;
  let child: ChildProcess | undefined;
  const script = fileURLToPath(new URL('./oidcproviderproc.js', import.meta.url));

  const launch = async () => {
    const cfg = {
      port, issuer: port ? `https://localhost:${port}` : '', cert: pki.serving.cert, key: pki.serving.key, jwks: { keys },
      clients: clients.map((c) => ({ client_id: c.id, client_secret: c.secret, id_token_signed_response_alg: 'RS256' })),
    };
    if (!port) {
      // The issuer names the port, so pick one first: a throwaway listen of the child.
      const { freePort } = await import('./ports.js');
      port = await freePort();
      cfg.port = port;
      cfg.issuer = `https://localhost:${port}`;
    }
    const proc = spawn(process.execPath, [script], { env: { ...process.env, SVC_OIDC_FIXTURE: JSON.stringify(cfg) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/listening \d+/.test(out)) resolve();
      });
      proc.once('exit', (code) => reject(new Error(`oidc provider exited (${code}): ${err}`)));
    });
    child = proc;
  };
  const kill = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  await launch();
  process.once('exit', () => child?.kill('SIGKILL'));

  const fixture: OidcProviderFixture = {
    get issuer() {
      return `https://localhost:${port}`;
    },
    get port() {
      return port;
    },
    ca: pki.ca.cert,
    caFile,
    dir,
    get kids() {
      return keys.map((k) => k.kid as string);
    },
    token: (sub, claims = {}, o = {}) => {
      const client = o.client ?? clients[0]!;
      const form = new URLSearchParams({ grant_type: 'urn:svc:test:id-token', sub, claims: JSON.stringify(claims), ...(o.expiresIn !== undefined ? { expires_in: String(o.expiresIn) } : {}) }).toString();
      return new Promise<string>((resolve, reject) => {
        const req = request(`https://localhost:${port}/token`, {
          method: 'POST', ca: pki.ca.cert, agent: false,
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}` },
        }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`token endpoint answered ${res.statusCode}: ${text}`));
            resolve((JSON.parse(text) as { id_token: string }).id_token);
          });
        });
        req.on('error', reject);
        req.end(form);
      });
    },
    rotate: async (o = {}) => {
      keys = [await newKey(), ...(o.dropOld ? [] : keys)];
      await kill();
      await launch();
    },
    stop: kill,
  };
  return fixture;
}

let serial = 0;
async function newKey(): Promise<Record<string, unknown>> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: `key-${process.pid}-${++serial}`, alg: 'RS256', use: 'sig' };
}
