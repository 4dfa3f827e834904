import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../testing/tempdir.js';
import { parseSvcconfig } from './svcconfig.js';
import { ExecPlugin } from './exec.js';

const dir = tempDir('svc-svcconfig-');
writeFileSync(join(dir, 'ca.crt'), 'CA PEM');
writeFileSync(join(dir, 'token'), 'file-token\n');
writeFileSync(join(dir, 'client.pem'), '-----BEGIN CERTIFICATE-----\nC\n-----END CERTIFICATE-----\n-----BEGIN EC PRIVATE KEY-----\nK\n-----END EC PRIVATE KEY-----\n');

const cfg = (user: Record<string, unknown>, cluster: Record<string, unknown> = { server: 'https://api.example:6443', 'certificate-authority': 'ca.crt' }) => JSON.stringify({
  apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
  contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
  clusters: [{ name: 'k', cluster }],
  users: [{ name: 'u', user }],
});
const parse = (text: string) => parseSvcconfig(text, { path: 'my.svcconfig', baseDir: dir });

describe('svcconfig: the current context\'s cluster and user', () => {
  const ok: [string, string, (c: ReturnType<typeof parse>) => Promise<void>][] = [
    ['a token, the CA from a file', cfg({ token: 'abc' }), async (c) => {
      assert.equal(c.connection.server.href, 'https://api.example:6443/');
      assert.equal(c.connection.ca, 'CA PEM');
      assert.deepEqual(await c.credentials.get(), { token: 'abc' });
    }],
    ['a token file, read against the file\'s folder', cfg({ tokenFile: 'token' }), async (c) => assert.deepEqual(await c.credentials.get(), { token: 'file-token' })],
    ['basic credentials', cfg({ username: 'jane', password: 'pw' }), async (c) => assert.deepEqual(await c.credentials.get(), { username: 'jane', password: 'pw' })],
    ['inline certificate and key', cfg({ 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') }), async (c) => {
      assert.deepEqual(await c.credentials.get(), { clientCert: 'CERT', clientKey: 'KEY' });
    }],
    ['certificate and key in one file (kubelet-client-current.pem)', cfg({ 'client-certificate': 'client.pem', 'client-key': 'client.pem' }), async (c) => {
      const got = await c.credentials.get();
      assert.match(got.clientCert!, /BEGIN CERTIFICATE/);
      assert.equal(got.clientCert, got.clientKey);
    }],
    ['exec v1beta1: interactiveMode defaults to IfAvailable; a relative command is resolved against the folder', cfg({ exec: { apiVersion: 'client.authentication.svc.io/v1beta1', command: './plugin', args: ['a'], env: [{ name: 'X', value: '1' }] } }), async (c) => {
      assert.ok(c.credentials instanceof ExecPlugin);
      assert.deepEqual(c.exec, { command: join(dir, 'plugin'), apiVersion: 'client.authentication.svc.io/v1beta1', args: ['a'], env: [{ name: 'X', value: '1' }], provideClusterInfo: false, interactiveMode: 'IfAvailable' });
    }],
    ['exec with a bare command name (looked up in PATH) and the k8s.io spelling', cfg({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'gke-auth', interactiveMode: 'Never', installHint: 'install it', provideClusterInfo: true } }), async (c) => {
      assert.equal(c.exec?.command, 'gke-auth');
      assert.equal(c.exec?.installHint, 'install it');
      assert.equal(c.exec?.provideClusterInfo, true);
    }],
  ];
  for (const [name, text, check] of ok) it(name, async () => check(parse(text)));

  const bad: [string, string, string][] = [
    ['exec v1 without interactiveMode', cfg({ exec: { apiVersion: 'client.authentication.svc.io/v1', command: 'p' } }), 'my.svcconfig: interactiveMode must be specified for u to use exec authentication plugin'],
    ['exec with an unknown interactiveMode', cfg({ exec: { apiVersion: 'client.authentication.svc.io/v1', command: 'p', interactiveMode: 'Sometimes' } }), 'my.svcconfig: invalid interactiveMode for u: "Sometimes"'],
    ['exec without a command', cfg({ exec: { apiVersion: 'client.authentication.svc.io/v1', interactiveMode: 'Never' } }), 'my.svcconfig: command must be specified for u to use exec authentication plugin'],
    ['exec without apiVersion or command', cfg({ exec: { interactiveMode: 'Never' } }), 'my.svcconfig: [command must be specified for u to use exec authentication plugin, apiVersion must be specified for u to use exec authentication plugin]'],
    ['exec with an env entry without a name', cfg({ exec: { apiVersion: 'client.authentication.svc.io/v1', command: 'p', interactiveMode: 'Never', env: [{ value: 'x' }] } }), 'my.svcconfig: env variable name must be specified for u to use exec authentication plugin'],
    ['exec of an unknown version', cfg({ exec: { apiVersion: 'client.authentication.svc.io/v2', command: 'p', interactiveMode: 'Never' } }), 'my.svcconfig: exec plugin: invalid apiVersion "client.authentication.svc.io/v2"'],
    ['exec beside an auth-provider', cfg({ exec: { apiVersion: 'client.authentication.svc.io/v1', command: 'p', interactiveMode: 'Never' }, 'auth-provider': { name: 'oidc' } }), 'my.svcconfig: authProvider cannot be provided in combination with an exec plugin for u'],
    ['no current context', JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [] }), 'my.svcconfig: current-context is required'],
    ['a missing CA file', cfg({ token: 't' }, { server: 'https://x', 'certificate-authority': 'nope.crt' }), `my.svcconfig: cannot read certificate authority ${join(dir, 'nope.crt')}: ENOENT: no such file or directory, open '${join(dir, 'nope.crt')}'`],
  ];
  for (const [name, text, message] of bad) {
    it(`refused: ${name}`, () => assert.throws(() => parse(text), (e: Error) => e.name === 'ConnectionFileError' && e.message === message ? true : assert.fail(e.message)));
  }
});

describe('certificate files are read again when they change', () => {
  it('a new file behind the link is the next request\'s certificate', async () => {
    const { symlinkSync, renameSync } = await import('node:fs');
    writeFileSync(join(dir, 'a.pem'), '-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----\n-----BEGIN EC PRIVATE KEY-----\nKA\n-----END EC PRIVATE KEY-----\n');
    writeFileSync(join(dir, 'b.pem'), '-----BEGIN CERTIFICATE-----\nB\n-----END CERTIFICATE-----\n-----BEGIN EC PRIVATE KEY-----\nKB\n-----END EC PRIVATE KEY-----\n');
    symlinkSync(join(dir, 'a.pem'), join(dir, 'current.pem'));
    const c = parse(cfg({ 'client-certificate': 'current.pem', 'client-key': 'current.pem' }));
    const first = await c.credentials.get();
    assert.match(first.clientCert!, /\nA\n/);
    assert.equal(await c.credentials.get(), first, 'unchanged: the same');
    symlinkSync(join(dir, 'b.pem'), join(dir, 'next.pem'));
    renameSync(join(dir, 'next.pem'), join(dir, 'current.pem'));
    assert.match((await c.credentials.get()).clientCert!, /\nB\n/);
  });
});
