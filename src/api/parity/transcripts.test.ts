// transcripts.ts: the core group's apiVersion, and placeholders put back
// into values a schema accepts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REFERENCE_DIR } from './reference.js';
import { apiVersionOf, transcriptObjects } from './transcripts.js';

describe('transcripts', () => {
  it('core objects say "v1", others "<group>/<version>"', () => {
    assert.equal(apiVersionOf('', 'v1'), 'v1');
    assert.equal(apiVersionOf('apps', 'v1'), 'apps/v1');
  });
  it('an allocated node port becomes a number, a time a timestamp, and a null field unset', { skip: REFERENCE_DIR ? false : 'no reference' }, () => {
    const services = transcriptObjects('v1', ['Service']).filter((f) => f.where.startsWith('defaults-03-service.json'));
    const ports = services.flatMap((f) => ((f.object.spec as { ports?: { nodePort?: unknown }[] } | undefined)?.ports ?? []).map((p) => p.nodePort));
    assert.ok(ports.length > 0);
    for (const p of ports.filter((x) => x !== undefined)) assert.equal(typeof p, 'number');
    const stamps = services.map((f) => (f.object.metadata as { creationTimestamp?: unknown }).creationTimestamp).filter((t) => t !== undefined);
    for (const t of stamps) assert.match(String(t), /^\d{4}-\d\d-\d\dT/);
    const templates = transcriptObjects('apps/v1', ['DaemonSet']).map((f) => (f.object.spec as { template: { metadata: object } }).template.metadata);
    assert.ok(templates.length > 0);
    for (const m of templates) assert.ok(!('creationTimestamp' in m));
  });
});
