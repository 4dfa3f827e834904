import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../testing/tempdir.js';
import { ExecPlugin, type ExecClusterInfo, type ExecConfig, type ExecOptions } from './exec.js';

const dir = tempDir('svc-exec-');
const script = join(dir, 'plugin.mjs');
// the plugin: records what it was given, answers PLUGIN_OUT ($N = this run's number), exits PLUGIN_EXIT
writeFileSync(script, `
import { appendFileSync, readFileSync } from 'node:fs';
const log = process.env.PLUGIN_LOG;
appendFileSync(log, JSON.stringify({ svc: process.env.SVC_EXEC_INFO, kube: process.env.KUBERNETES_EXEC_INFO, x: process.env.X ?? null }) + '\\n');
const n = readFileSync(log, 'utf8').trim().split('\\n').length;
process.stdout.write((process.env.PLUGIN_OUT ?? '').replaceAll('$N', String(n)));
process.exit(Number(process.env.PLUGIN_EXIT ?? 0));
`);

let runNo = 0;
function plugin(out: unknown, opts: { exit?: number; config?: Partial<ExecConfig>; cluster?: ExecClusterInfo; exec?: ExecOptions } = {}) {
  const log = join(dir, `run-${++runNo}.log`);
  const config: ExecConfig = {
    command: process.execPath, args: [script], apiVersion: 'client.authentication.svc.io/v1', interactiveMode: 'Never', provideClusterInfo: false,
    ...opts.config,
    env: [
      { name: 'PLUGIN_LOG', value: log }, { name: 'PLUGIN_OUT', value: typeof out === 'string' ? out : JSON.stringify(out) },
      { name: 'PLUGIN_EXIT', value: String(opts.exit ?? 0) }, ...(opts.config?.env ?? []),
    ],
  };
  const p = new ExecPlugin(config, opts.cluster, { isTerminal: () => false, ...opts.exec });
  const runs = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { svc: string; kube: string; x: string | null }) : []);
  return { p, runs };
}

const cred = (status: unknown, apiVersion = 'client.authentication.svc.io/v1') => ({ kind: 'ExecCredential', apiVersion, status });
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n';

describe('exec credential plugins', () => {
  it('a token; SVC_EXEC_INFO and KUBERNETES_EXEC_INFO carry the ExecCredential; the config\'s env reaches the plugin', async () => {
    const { p, runs } = plugin(cred({ token: 'tok-$N' }), { config: { env: [{ name: 'X', value: 'from-config' }] } });
    assert.deepEqual(await p.get(), { token: 'tok-1' });
    const [run] = runs();
    assert.deepEqual(JSON.parse(run!.svc), { kind: 'ExecCredential', apiVersion: 'client.authentication.svc.io/v1', spec: { interactive: false } });
    assert.deepEqual(JSON.parse(run!.kube), { kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', spec: { interactive: false } });
    assert.equal(run!.x, 'from-config');
  });

  it('provideClusterInfo: spec.cluster with the server, CA and the exec extension\'s config', async () => {
    const cluster: ExecClusterInfo = { server: 'https://api:6443', 'certificate-authority-data': Buffer.from('CA').toString('base64'), config: { audience: 'x' } };
    const { p, runs } = plugin(cred({ token: 't' }, 'client.authentication.svc.io/v1beta1'), { config: { apiVersion: 'client.authentication.svc.io/v1beta1', provideClusterInfo: true }, cluster });
    await p.get();
    assert.deepEqual(JSON.parse(runs()[0]!.svc).spec, { cluster, interactive: false });
  });

  it('without provideClusterInfo the cluster is not given', async () => {
    const { p, runs } = plugin(cred({ token: 't' }), { cluster: { server: 'https://api:6443' } });
    await p.get();
    assert.deepEqual(JSON.parse(runs()[0]!.svc).spec, { interactive: false });
  });

  it('a client certificate and key', async () => {
    const { p } = plugin(cred({ clientCertificateData: CERT, clientKeyData: KEY }));
    assert.deepEqual(await p.get(), { clientCert: CERT, clientKey: KEY });
  });

  it('the k8s.io spelling is the same version', async () => {
    const { p } = plugin(cred({ token: 'k' }, 'client.authentication.k8s.io/v1'));
    assert.deepEqual(await p.get(), { token: 'k' });
  });

  it('cached without expirationTimestamp: one run for many requests; a 401 runs it again, once', async () => {
    const { p, runs } = plugin(cred({ token: 'tok-$N' }));
    const first = await p.get();
    assert.deepEqual(await p.get(), { token: 'tok-1' });
    assert.equal(runs().length, 1);
    const [a, b] = await Promise.all([p.refresh(first), p.refresh(first)]);
    assert.deepEqual([a, b], [{ token: 'tok-2' }, { token: 'tok-2' }]);
    assert.equal(runs().length, 2);
    // a 401 with credentials already replaced does not run it again
    assert.deepEqual(await p.refresh(first), { token: 'tok-2' });
    assert.equal(runs().length, 2);
  });

  it('cached until expirationTimestamp, then run again', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const { p, runs } = plugin(cred({ token: 'tok-$N', expirationTimestamp: '2030-01-01T00:10:00Z' }), { exec: { now: () => now } });
    assert.deepEqual(await p.get(), { token: 'tok-1' });
    now += 9 * 60_000;
    assert.deepEqual(await p.get(), { token: 'tok-1' });
    now += 2 * 60_000;
    assert.deepEqual(await p.get(), { token: 'tok-2' });
    assert.equal(runs().length, 2);
  });

  it('interactiveMode: IfAvailable with a terminal tells the plugin it is interactive', async () => {
    const { p, runs } = plugin(cred({ token: 't' }), { config: { interactiveMode: 'IfAvailable' }, exec: { isTerminal: () => true } });
    await p.get();
    assert.equal(JSON.parse(runs()[0]!.svc).spec.interactive, true);
  });

  const failures: [string, unknown, { exit?: number; config?: Partial<ExecConfig> }, string][] = [
    ['Always without a terminal', cred({ token: 't' }), { config: { interactiveMode: 'Always' } }, 'exec plugin cannot support interactive mode: standard input is not a terminal'],
    ['another version answered', cred({ token: 't' }, 'client.authentication.svc.io/v1beta1'), {}, 'exec plugin is configured to use API version client.authentication.svc.io/v1, plugin returned version client.authentication.svc.io/v1beta1'],
    ['no status', { kind: 'ExecCredential', apiVersion: 'client.authentication.svc.io/v1' }, {}, "exec plugin didn't return a status field"],
    ['an empty status', cred({}), {}, "exec plugin didn't return a token or cert/key pair"],
    ['a certificate without its key', cred({ clientCertificateData: CERT }), {}, 'exec plugin returned only certificate or key, not both'],
    ['a key that is no PEM', cred({ clientCertificateData: CERT, clientKeyData: 'nope' }), {}, 'failed parsing client key/certificate: tls: failed to find any PEM data in key input'],
    ['another kind', { kind: 'Pod', apiVersion: 'v1' }, {}, 'decoding stdout: no kind "Pod" is registered for version "v1"'],
    ['no kind', '{}', {}, "decoding stdout: Object 'Kind' is missing in '{}'"],
    ['a failing plugin', cred({ token: 't' }, 'x'), { exit: 3 }, `exec: executable ${process.execPath} failed with exit code 3`],
    ['a missing command, with the install hint', '', { config: { command: join(dir, 'missing-plugin'), installHint: 'apt-get install my-plugin' } }, `exec: executable ${join(dir, 'missing-plugin')} not found

It looks like you are trying to use a client credential plugin that is not installed.

To learn more about this feature, consult the documentation of client credential plugins (exec) in svcconfig files.

apt-get install my-plugin`],
  ];
  for (const [name, out, opts, message] of failures) {
    it(`fails: ${name}`, async () => {
      const { p } = plugin(out, opts);
      await assert.rejects(p.get(), (e: Error) => (e.name === 'ExecPluginError' && e.message === message ? true : assert.fail(e.message)));
    });
  }
});
