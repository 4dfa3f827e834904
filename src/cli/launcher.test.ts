// bin/svc, the `svc` command's launcher: which node options and environment
// each command is started with, that it replaces itself with node (one
// process), that it finds the code through npm's relative bin link, and that
// the real node accepts the agent's options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../testing/tempdir.js';

const root = realpathSync(fileURLToPath(new URL('../../../', import.meta.url)));
const launcher = join(root, 'bin', 'svc');
const main = join(root, 'dist', 'src', 'cli', 'main.js');

// a `node` first on PATH that reports what it was started with
const fakeBin = tempDir('svc-launcher-');
writeFileSync(join(fakeBin, 'node'), '#!/bin/sh\necho "pid=$$"\necho "arena=${MALLOC_ARENA_MAX-unset}"\nfor a in "$@"; do echo "arg=$a"; done\n');
chmodSync(join(fakeBin, 'node'), 0o755);

function env(extra: Record<string, string>, path = `${fakeBin}:${process.env.PATH}`): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, PATH: path, ...extra };
  for (const k of ['NODE_OPTIONS', 'MALLOC_ARENA_MAX']) if (!(k in extra)) delete e[k];
  return e;
}

function run(cmd: string, args: string[], extra: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { env: env(extra), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  const value = (k: string) => lines.filter((l) => l.startsWith(`${k}=`)).map((l) => l.slice(k.length + 1));
  return { pid: r.pid, nodePid: Number(value('pid')[0]), arena: value('arena')[0], args: value('arg') };
}

test('each command is started with its node options and environment', () => {
  const AGENT = ['--lite-mode', '--no-expose-wasm', '--v8-pool-size=1', '--max-semi-space-size=1'];
  const cases: [string, string[], Record<string, string>, string[], string][] = [
    ['no command', [], {}, [main], 'unset'],
    ['server: unchanged', ['server', '--secure-port=7000'], {}, [main, 'server', '--secure-port=7000'], 'unset'],
    ['a word with spaces stays one argument', ['certs', 'user', 'a b'], {}, [main, 'certs', 'user', 'a b'], 'unset'],
    ['agent', ['agent', '--node-labels=a=b c'], {}, [...AGENT, main, 'agent', '--node-labels=a=b c'], '2'],
    ['agent: a semi-space size in NODE_OPTIONS wins', ['agent'], { NODE_OPTIONS: '--max-semi-space-size=8' }, ['--lite-mode', '--no-expose-wasm', '--v8-pool-size=1', main, 'agent'], '2'],
    ['agent: underscores count too; MALLOC_ARENA_MAX set wins', ['agent'], { NODE_OPTIONS: '--enable-source-maps --v8_pool_size=2', MALLOC_ARENA_MAX: '4' }, ['--lite-mode', '--no-expose-wasm', '--max-semi-space-size=1', main, 'agent'], '4'],
    ['server --agent: the server\'s process, unchanged', ['server', '--agent'], {}, [main, 'server', '--agent'], 'unset'],
  ];
  for (const [name, args, extra, wantArgs, wantArena] of cases) {
    const got = run(launcher, args, extra);
    assert.deepEqual(got.args, wantArgs, name);
    assert.equal(got.arena, wantArena, name);
    assert.equal(got.nodePid, got.pid, `${name}: node replaced the launcher (exec), no second process`);
  }
});

test('found through npm\'s relative bin link', () => {
  const bin = join(tempDir('svc-launcher-link-'), 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(relative(bin, launcher), join(bin, 'svc'));
  assert.deepEqual(run(join(bin, 'svc'), ['apiserver']).args, [main, 'apiserver']);
});

test('the real node accepts the agent\'s options', () => {
  const r = spawnSync(launcher, ['agent', '--version'], { env: env({}, `${dirname(process.execPath)}:${process.env.PATH}`), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Kubernetes v1\.27\.\d+ \(svc agent\)$/m);
  assert.equal(r.stderr, '');
});
