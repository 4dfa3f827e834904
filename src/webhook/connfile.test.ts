import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConnectionFileError, credentialsFor, loadConnectionFile, parseConnectionFile, parseCredentialsFile } from './connfile.js';
import { tempDir } from '../testing/tempdir.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const config = (cluster: Record<string, unknown>, user: Record<string, unknown> = {}, current = 'ctx') => JSON.stringify({
  apiVersion: 'v1', kind: 'Config',
  clusters: [{ name: 'hook', cluster: { server: 'https://hook.example:8443/authenticate', ...cluster } }],
  users: [{ name: 'apiserver', user }],
  contexts: [{ name: 'ctx', context: { cluster: 'hook', user: 'apiserver' } }],
  'current-context': current,
});

describe('connection-credentials file', () => {
  it('reads files relative to its own folder, and inline data', () => {
    const dir = tempDir('svc-connfile-');
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'certs', 'ca.crt'), 'CA PEM');
    writeFileSync(join(dir, 'certs', 'client.crt'), 'CERT PEM');
    writeFileSync(join(dir, 'client.key'), 'KEY PEM');
    const file = join(dir, 'hook.yaml');
    writeFileSync(file, config({ 'certificate-authority': 'certs/ca.crt' }, { 'client-certificate': 'certs/client.crt', 'client-key': join(dir, 'client.key') }));
    const c = loadConnectionFile(file);
    assert.equal(c.server.href, 'https://hook.example:8443/authenticate');
    assert.equal(c.ca, 'CA PEM');
    assert.equal(c.clientCert, 'CERT PEM');
    assert.equal(c.clientKey, 'KEY PEM');
    const inline = parseConnectionFile(config({ 'certificate-authority-data': b64('CA2'), 'tls-server-name': 'hook.svc' }, { token: 'tok' }), { path: 'x', baseDir: '/' });
    assert.equal(inline.ca, 'CA2');
    assert.equal(inline.tlsServerName, 'hook.svc');
    assert.equal(inline.token, 'tok');
    const yaml = 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://h\ncontexts:\n- name: x\n  context:\n    cluster: c\ncurrent-context: x\n';
    assert.equal(parseConnectionFile(yaml, { path: 'y', baseDir: '/' }).server.host, 'h');
  });

  const bad: [string, string, RegExp][] = [
    ['no current-context', config({}, {}, ''), /current-context is required/],
    ['unknown context', config({}, {}, 'other'), /context "other" not found/],
    ['no server', config({ server: '' }), /has no server/],
    ['server not a URL', config({ server: 'not a url' }), /is not a URL/],
    ['both CA forms', config({ 'certificate-authority': 'x', 'certificate-authority-data': b64('y') }), /either certificate-authority or certificate-authority-data/],
    ['a certificate without its key', config({}, { 'client-certificate-data': b64('c') }), /needs its key/],
    ['missing CA file', config({ 'certificate-authority': 'nope.crt' }), /cannot read certificate authority .*nope\.crt/],
    ['bad base64', config({ 'certificate-authority-data': '%%%' }), /not base64/],
    ['not YAML', '{', /not YAML or JSON/],
    ['wrong kind', JSON.stringify({ kind: 'Pod' }), /kind "Pod" is not Config/],
  ];
  for (const [name, text, want] of bad) {
    it(`refuses: ${name}`, () => {
      assert.throws(() => parseConnectionFile(text, { path: 'hook.yaml', baseDir: '/nonexistent' }), (e: unknown) => e instanceof ConnectionFileError && want.test(e.message) && e.message.startsWith('hook.yaml: '));
    });
  }

  it('picks admission callback credentials by host as kube does', () => {
    const file = parseCredentialsFile(JSON.stringify({
      apiVersion: 'v1', kind: 'Config',
      users: [
        { name: 'hook.ns.svc', user: { token: 'exact' } },
        { name: 'hook.ns.svc:8443', user: { token: 'with-port' } },
        { name: '*.ns.svc', user: { token: 'wild-ns' } },
        { name: '*.svc', user: { token: 'wild-svc' } },
        { name: 'fd00::1', user: { token: 'ipv6' } },
        { name: '*', user: { username: 'default', password: 'pw' } },
        { name: 'ctx-user', user: { token: 'current' } },
      ],
      contexts: [{ name: 'c', context: { user: 'ctx-user' } }], 'current-context': 'c',
    }), { path: 'x', baseDir: '/' });
    const token = (t: string) => credentialsFor(file, t)?.token ?? credentialsFor(file, t)?.username;
    assert.equal(token('hook.ns.svc'), 'exact');
    assert.equal(token('hook.ns.svc:8443'), 'with-port');
    assert.equal(token('hook.ns.svc:443'), 'exact', 'port 443: looked up again without it');
    assert.equal(token('other.ns.svc'), 'wild-ns');
    assert.equal(token('a.b.other.svc'), 'wild-svc');
    assert.equal(token('example.com:9443'), 'default');
    assert.equal(token('[fd00::1]:443'), 'ipv6', 'an IPv6 host without the port, as Go splits it: no brackets');
    const noStar = parseCredentialsFile(JSON.stringify({ users: [{ name: 'u', user: { token: 'cur' } }], contexts: [{ name: 'c', context: { user: 'u' } }], 'current-context': 'c' }), { path: 'x', baseDir: '/' });
    assert.equal(credentialsFor(noStar, 'example.com')?.token, 'cur', 'the current context\'s user');
    assert.equal(credentialsFor(parseCredentialsFile('{}', { path: 'x', baseDir: '/' }), 'example.com'), undefined, 'anonymous');
  });
});
