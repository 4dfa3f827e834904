import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClientCertificateRotation } from './rotation.js';
import type { CertPair, CertStore } from './store.js';

/** A store whose current pair the test sets; rotate() replaced by a script of outcomes. */
function harness(outcomes: ('fail' | 'ok')[], lifetime: { notBefore: number; notAfter: number }) {
  let current = lifetime as unknown as CertPair;
  const store = { currentPath: '/nonexistent/current.pem', current: () => current } as unknown as CertStore;
  const calls: number[] = [];
  const logs: string[] = [];
  let now = 0;
  const rotation = new ClientCertificateRotation({
    store, cluster: { server: new URL('https://127.0.0.1:1') }, nodeName: 'n1', now: () => now, random: () => 0.5, backoffMs: [5, 10], log: (m) => logs.push(m),
  });
  rotation.rotate = async () => {
    calls.push(calls.length);
    if (outcomes[calls.length - 1] === 'fail') throw new Error(`attempt ${calls.length} refused`);
    // the new certificate lives far in the future: no further deadline soon
    current = { notBefore: now, notAfter: now + 10 * 365 * 86_400_000 } as unknown as CertPair;
    return current;
  };
  return { rotation, calls, logs, setNow: (n: number) => { now = n; } };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), 'condition not met');
};

describe('client certificate rotation schedule', () => {
  it('a passed deadline renews at once; failures are tried again with backoff until one succeeds, then it sleeps', async () => {
    const { rotation, calls, logs, setNow } = harness(['fail', 'fail', 'fail', 'ok'], { notBefore: 0, notAfter: 1000 });
    setNow(900); // past 80 %
    rotation.start();
    await until(() => calls.length === 4);
    await new Promise((r) => setTimeout(r, 50));
    rotation.stop();
    assert.equal(calls.length, 4, 'no renewal after the new certificate');
    assert.deepEqual(logs, ['certificate rotation failed: attempt 1 refused', 'certificate rotation failed: attempt 2 refused', 'certificate rotation failed: attempt 3 refused']);
  });

  it('before the deadline nothing is asked; stop cancels the wait', async () => {
    const { rotation, calls, setNow } = harness(['ok'], { notBefore: 0, notAfter: 1000 });
    setNow(100);
    assert.equal(rotation.nextDeadline(), 800);
    rotation.start();
    await new Promise((r) => setTimeout(r, 50));
    rotation.stop();
    assert.equal(calls.length, 0);
  });
});
