import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointError, parseEndpoint } from './endpoint.js';

const ok: readonly { endpoint: string; path: string; deprecated?: true }[] = [
  { endpoint: 'unix:///run/containerd/containerd.sock', path: '/run/containerd/containerd.sock' },
  { endpoint: 'unix:/run/containerd/containerd.sock', path: '/run/containerd/containerd.sock' },
  { endpoint: 'UNIX:///run/x.sock', path: '/run/x.sock' },
  { endpoint: 'unix:///tmp/a%20b.sock', path: '/tmp/a b.sock' },
  // Go's url.Path: a host part is not part of the socket path.
  { endpoint: 'unix://host/x.sock', path: '/x.sock' },
  { endpoint: '/run/containerd/containerd.sock', path: '/run/containerd/containerd.sock', deprecated: true },
];

for (const c of ok) {
  test(`endpoint ${c.endpoint} → ${c.path}`, () => {
    const e = parseEndpoint(c.endpoint);
    assert.equal(e.path, c.path);
    if (c.deprecated) {
      assert.equal(e.deprecation,
        `Using "${c.endpoint}" as endpoint is deprecated, please consider using full URL format "unix://${c.endpoint}"`);
    } else {
      assert.equal(e.deprecation, undefined);
    }
  });
}

const bad: readonly { endpoint: string; message: string }[] = [
  { endpoint: 'tcp://127.0.0.1:2375', message: 'only support unix socket endpoint' },
  { endpoint: 'npipe:////./pipe/containerd-containerd', message: 'protocol "npipe" not supported' },
  { endpoint: 'unix://', message: 'endpoint "unix://" names no absolute socket path' },
  { endpoint: 'unix:relative.sock', message: 'endpoint "unix:relative.sock" names no absolute socket path' },
  { endpoint: '', message: 'endpoint "" names no absolute socket path' },
];

for (const c of bad) {
  test(`endpoint ${JSON.stringify(c.endpoint)} is refused: ${c.message}`, () => {
    assert.throws(() => parseEndpoint(c.endpoint), (e: unknown) => e instanceof EndpointError && e.message === c.message);
  });
}
