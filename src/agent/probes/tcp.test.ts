import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { tcpProbe } from './tcp.js';
import { closedPort as freePort } from './testing.js';

let server: Server;
let open = 0;
let closed = 0;
let accepted = 0;

before(async () => {
  server = createServer((s) => {
    accepted++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open = (server.address() as AddressInfo).port;
  closed = await freePort();
});
after(() => server.close());

describe('tcpSocket probe', () => {
  it('a listening port is success, and the connection was made', async () => {
    const before = accepted;
    assert.deepEqual(await tcpProbe('127.0.0.1', open, 1), { result: 'Success', output: '' });
    for (let i = 0; i < 50 && accepted === before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(accepted, before + 1);
  });
  it('a closed port fails with Go\'s dial error', async () => {
    assert.deepEqual(await tcpProbe('127.0.0.1', closed, 1), {
      result: 'Failure', output: `dial tcp 127.0.0.1:${closed}: connect: connection refused`,
    });
  });
  it('an unknown host fails with Go\'s lookup error', async () => {
    assert.deepEqual(await tcpProbe('no-such-host.invalid', 80, 10), { result: 'Failure', output: 'dial tcp: lookup no-such-host.invalid: no such host' });
  });
});
