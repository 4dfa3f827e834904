import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const lingering = fileURLToPath(new URL('./lingering.js', import.meta.url));

test('failIfLingering: a process still held after the clean-up names what holds it and exits 1; one that ends exits 0', () => {
  const rows: { hold: string; code: number; err: RegExp }[] = [
    { hold: '', code: 0, err: /^$/ },
    { hold: "require('node:net').createServer().listen(0, '127.0.0.1');", code: 1, err: /^demo: the process is still running 0\.3 s after its clean-up\. Active resources: .*TCPServerWrap.*; handles: .*Server listening on \{"address":"127\.0\.0\.1"/ },
    { hold: 'setInterval(() => {}, 1000);', code: 1, err: /Active resources: .*Timeout/ },
  ];
  for (const r of rows) {
    const out = spawnSync(process.execPath, ['-e', `${r.hold} import(${JSON.stringify(lingering)}).then((m) => m.failIfLingering('demo', 300));`], { encoding: 'utf8' });
    assert.equal(out.status, r.code, out.stderr);
    assert.match(out.stderr, r.err);
  }
});
