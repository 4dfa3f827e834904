// DenyServiceExternalIPs: which Services pass (texts from the golden transcript admission-10).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { denyServiceExternalIPs } from './denyserviceexternalips.js';
import { attrs, outcome } from './testutil.js';

const svc = (name: string, externalIPs?: string[]): ApiObject => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) } });
const DENIED = (name: string) => `services "${name}" is forbidden: Use of external IPs is denied by admission control`;

describe('DenyServiceExternalIPs', () => {
  const plugin = denyServiceExternalIPs();
  const rows: [string, Parameters<typeof attrs>[0], string | undefined][] = [
    ['create without externalIPs', { object: svc('plain') }, undefined],
    ['create with an empty list', { object: svc('plain', []) }, undefined],
    ['create with externalIPs', { object: svc('external', ['1.2.3.4']) }, DENIED('external')],
    ['dry-run create with externalIPs', { object: svc('external', ['1.2.3.4']), dryRun: true }, DENIED('external')],
    ['update adding one', { operation: 'UPDATE', object: svc('plain', ['1.2.3.4']), oldObject: svc('plain') }, DENIED('plain')],
    ['update keeping them', { operation: 'UPDATE', object: svc('s', ['1.2.3.4']), oldObject: svc('s', ['5.6.7.8', '1.2.3.4']) }, undefined],
    ['update emptying them', { operation: 'UPDATE', object: svc('s', []), oldObject: svc('s', ['1.2.3.4']) }, undefined],
    ['update swapping one', { operation: 'UPDATE', object: svc('s', ['1.2.3.5']), oldObject: svc('s', ['1.2.3.4']) }, DENIED('s')],
    ['the status subresource is not checked', { operation: 'UPDATE', subresource: 'status', object: svc('s', ['1.2.3.5']), oldObject: svc('s') }, undefined],
  ];
  for (const [what, init, want] of rows) {
    it(what, async () => {
      const st = await outcome(() => plugin.admit(attrs({ resource: 'services', ...init })));
      assert.equal(st?.message, want);
      if (want) assert.deepEqual([st?.code, st?.reason, st?.details], [403, 'Forbidden', { name: init.object!.metadata.name, kind: 'services' }]);
    });
  }
});
