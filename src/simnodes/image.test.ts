import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerID, imageID, normalizeImage } from './image.js';

describe('container images as containerd reports them', () => {
  const table: [string, string][] = [
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.25', 'docker.io/library/nginx:1.25'],
    ['bitnami/redis', 'docker.io/bitnami/redis:latest'],
    ['registry.k8s.io/pause:3.9', 'registry.k8s.io/pause:3.9'],
    ['localhost/app', 'localhost/app:latest'],
    ['registry.example.com:5000/team/agent', 'registry.example.com:5000/team/agent:latest'],
    ['busybox@sha256:' + 'a'.repeat(64), 'docker.io/library/busybox@sha256:' + 'a'.repeat(64)],
  ];
  for (const [image, want] of table) it(`${image} → ${want}`, () => assert.equal(normalizeImage(image), want));

  it('gives imageIDs with a digest, stable per image', () => {
    assert.match(imageID('nginx'), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.equal(imageID('nginx'), imageID('docker.io/library/nginx:latest'));
    assert.notEqual(imageID('nginx:1.25'), imageID('nginx:1.24'));
    assert.match(imageID('registry.example.com:5000/agent:v1'), /^registry\.example\.com:5000\/agent@sha256:/);
    const pinned = 'busybox@sha256:' + 'b'.repeat(64);
    assert.equal(imageID(pinned), 'docker.io/library/' + pinned);
  });

  it('gives a containerID per pod, container and run', () => {
    assert.match(containerID('u1', 'c', 0), /^containerd:\/\/[0-9a-f]{64}$/);
    assert.equal(containerID('u1', 'c', 0), containerID('u1', 'c', 0));
    assert.notEqual(containerID('u1', 'c', 0), containerID('u1', 'c', 1));
    assert.notEqual(containerID('u1', 'c', 0), containerID('u2', 'c', 0));
  });
});
