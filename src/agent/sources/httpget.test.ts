import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getText } from './httpget.js';

test('the manifest URL\'s GET: answers, redirects, headers, failures', async () => {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((req, res) => {
    seen = req.headers;
    const path = req.url ?? '';
    if (path === '/ok') return res.writeHead(200).end('kind: Pod');
    if (path === '/missing') return res.writeHead(404).end('no');
    if (path === '/moved') return res.writeHead(302, { location: '/ok' }).end();
    if (path.startsWith('/loop')) return res.writeHead(307, { location: `/loop${path.length}` }).end();
    if (path === '/silent') return; // never answers
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const cases: [string, string, { status: number; statusText: string; text: string } | RegExp][] = [
      ['a 200 with its body', '/ok', { status: 200, statusText: 'OK', text: 'kind: Pod' }],
      ['another status, as it is', '/missing', { status: 404, statusText: 'Not Found', text: 'no' }],
      ['a redirect followed', '/moved', { status: 200, statusText: 'OK', text: 'kind: Pod' }],
      ['at most 10 redirects', '/loop', /stopped after 10 redirects/],
      ['a timeout', '/silent', /timed out after 200 ms/],
    ];
    for (const [name, path, want] of cases) {
      const got = getText(`${base}${path}`, { 'X-Token': ['abc'], 'X-Multi': ['1', '2'] }, 200);
      if (want instanceof RegExp) await assert.rejects(got, want, name);
      else assert.deepEqual(await got, want, name);
    }
    assert.equal(seen['x-token'], 'abc');
    assert.equal(seen['x-multi'], '1, 2');
    await assert.rejects(getText('ftp://127.0.0.1/x', {}, 200), /unsupported protocol scheme "ftp"/);
    await assert.rejects(getText('not a url', {}, 200), /Invalid URL/);
    await assert.rejects(getText('http://127.0.0.1:1/x', {}, 1000), /ECONNREFUSED/);
  } finally {
    server.close();
  }
});

test('works in V8 without a JIT (--lite-mode, as bin/svc starts the agent), where fetch() fails', async () => {
  const server = createServer((_req, res) => res.writeHead(200).end('up'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const run = (script: string) => new Promise<string>((resolve) => {
    execFile(process.execPath, ['--lite-mode', '--no-expose-wasm', '--input-type=module', '-e', script], (err, stdout, stderr) => resolve(err ? `failed: ${stderr}` : stdout.trim()));
  });
  try {
    const module = fileURLToPath(new URL('./httpget.js', import.meta.url));
    assert.equal(await run(`import { getText } from ${JSON.stringify(module)}; console.log((await getText(${JSON.stringify(url)}, {}, 5000)).text);`), 'up');
    assert.match(await run(`await fetch(${JSON.stringify(url)});`), /^failed: .*WebAssembly is not defined/s);
  } finally {
    server.close();
  }
});
