import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { after, describe, it } from 'node:test';
import { isStatusError } from '../api/meta/index.js';
import { ensurePki, issueClientCertificate } from '../server/pki.js';
import { tempDir } from '../testing/tempdir.js';
import type { CredentialProvider, Credentials } from './credentials.js';
import { ApiHttp } from './http.js';

/** A provider whose credentials change at each refresh (as an exec plugin run again). */
function rotating(list: Credentials[]): CredentialProvider & { refreshes: number } {
  let i = 0;
  const p = {
    refreshes: 0,
    get: async () => list[i]!,
    refresh: async (used: Credentials) => {
      p.refreshes++;
      if (used !== list[i]) return list[i];
      return i + 1 < list.length ? list[++i] : undefined;
    },
  };
  return p;
}

const servers: { close(): void }[] = [];
after(() => servers.forEach((s) => s.close()));

function listen(server: http.Server): Promise<number> {
  servers.push(server);
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
}

describe('ApiHttp credentials', () => {
  it('a 401 asks for fresh credentials and sends the request once more; without fresh ones the 401 stands', async () => {
    const seen: string[] = [];
    const port = await listen(http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      const ok = req.headers.authorization === 'Bearer good';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { kind: 'Pod' } : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
    }));
    const conn = { server: new URL(`http://127.0.0.1:${port}`) };
    const provider = rotating([{ token: 'stale' }, { token: 'good' }]);
    const client = new ApiHttp(conn, { credentials: provider });
    assert.deepEqual(await client.json('GET', '/api/v1/pods/x'), { kind: 'Pod' });
    assert.deepEqual(await client.json('GET', '/api/v1/pods/x'), { kind: 'Pod' });
    assert.deepEqual(seen, ['Bearer stale', 'Bearer good', 'Bearer good']);
    client.close();

    const fixed = new ApiHttp({ ...conn, token: 'stale' });
    await assert.rejects(fixed.json('GET', '/api/v1/pods/x'), (e) => isStatusError(e) && e.status.code === 401 && e.status.reason === 'Unauthorized');
    fixed.close();
  });

  it('a provider that fails: the request fails with "getting credentials: …"', async () => {
    const client = new ApiHttp({ server: new URL('http://127.0.0.1:1') }, { credentials: { get: async () => { throw new Error('exec: executable p failed with exit code 1'); }, refresh: async () => undefined } });
    await assert.rejects(client.json('GET', '/api'), { name: 'CredentialsError', message: 'getting credentials: exec: executable p failed with exit code 1' });
  });

  it('a new client certificate is presented on a new TLS connection', async () => {
    const pki = await ensurePki({ dataDir: tempDir('svc-http-'), bindAddress: '127.0.0.1' });
    const a = await issueClientCertificate(pki.ca, 'old');
    const b = await issueClientCertificate(pki.ca, 'new');
    const names: string[] = [];
    const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true }, (req, res) => {
      const raw = (req.socket as TLSSocket).getPeerCertificate(false).raw;
      const cn = raw ? /CN=([^\n,]+)/.exec(new X509Certificate(raw).subject)?.[1] ?? '' : '';
      names.push(cn);
      res.writeHead(cn === 'new' ? 200 : 401, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const port = await listen(server as unknown as http.Server);
    const client = new ApiHttp({ server: new URL(`https://127.0.0.1:${port}`), ca: pki.ca.cert }, { credentials: rotating([{ clientCert: a.cert, clientKey: a.key }, { clientCert: b.cert, clientKey: b.key }]) });
    assert.deepEqual(await client.json('GET', '/api'), {});
    assert.deepEqual(names, ['old', 'new']);
    client.close();
  });

  it('certificate files: after the link moves to a new pair, the next request presents it', async () => {
    const { writeFileSync, symlinkSync, renameSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { fileCredentials } = await import('./credentials.js');
    const pki = await ensurePki({ dataDir: tempDir('svc-http-'), bindAddress: '127.0.0.1' });
    const dir = tempDir('svc-http-files-');
    const a = await issueClientCertificate(pki.ca, 'first');
    const b = await issueClientCertificate(pki.ca, 'second');
    writeFileSync(join(dir, 'a.pem'), a.cert + a.key);
    writeFileSync(join(dir, 'b.pem'), b.cert + b.key);
    symlinkSync(join(dir, 'a.pem'), join(dir, 'current.pem'));
    const names: string[] = [];
    const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true }, (req, res) => {
      const raw = (req.socket as TLSSocket).getPeerCertificate(false).raw;
      names.push(raw ? /CN=([^\n,]+)/.exec(new X509Certificate(raw).subject)?.[1] ?? '' : '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const port = await listen(server as unknown as http.Server);
    const current = join(dir, 'current.pem');
    const client = new ApiHttp({ server: new URL(`https://127.0.0.1:${port}`), ca: pki.ca.cert }, { credentials: fileCredentials({ certFile: current, keyFile: current }) });
    await client.json('GET', '/api');
    await client.json('GET', '/api');
    symlinkSync(join(dir, 'b.pem'), join(dir, 'next.pem'));
    renameSync(join(dir, 'next.pem'), current);
    await client.json('GET', '/api');
    assert.deepEqual(names, ['first', 'first', 'second']);
    client.close();
  });

  it('a watch answered 401 ends with the error and refreshes the credentials for the next one', async () => {
    const port = await listen(http.createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer good') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"type":"ADDED","object":{"metadata":{"name":"p"}}}\n');
    }));
    const provider = rotating([{ token: 'stale' }, { token: 'good' }]);
    const client = new ApiHttp({ server: new URL(`http://127.0.0.1:${port}`) }, { credentials: provider });
    const watch = (): Promise<{ lines: string[]; err?: Error }> => new Promise((resolve) => {
      const lines: string[] = [];
      client.stream('/api/v1/pods?watch=true', (l) => lines.push(l), (err) => resolve({ lines, ...(err ? { err } : {}) }));
    });
    const first = await watch();
    assert.ok(first.err && isStatusError(first.err) && first.err.status.code === 401);
    const second = await watch();
    assert.deepEqual(second, { lines: ['{"type":"ADDED","object":{"metadata":{"name":"p"}}}'] });
    client.close();
  });
});
