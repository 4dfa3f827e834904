import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { BUSYBOX_IMAGE, containerdMissing, PAUSE_IMAGE, startContainerd } from './containerd.js';

const skip = containerdMissing();

test('a private containerd starts with the local images and stops without leftovers', { skip }, async () => {
  const c = await startContainerd({ cni: true });
  try {
    assert.ok(existsSync(c.socket));
    const images = await c.ctr('images', 'ls', '-q');
    assert.ok(images.includes(BUSYBOX_IMAGE), images);
    assert.ok(images.includes(PAUSE_IMAGE), images);
    assert.match(c.bridge ?? '', /^svcb\d+$/);
  } finally {
    await c.stop();
  }
  assert.equal(existsSync(c.root), false);
});
