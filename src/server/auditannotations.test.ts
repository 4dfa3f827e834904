import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addAuditAnnotation, auditAnnotationsOf } from './auditannotations.js';
import type { RequestContext } from './context.js';

describe('audit annotations of a request', () => {
  it('keeps the first value of a key, in order, per request', () => {
    const a = {} as RequestContext;
    const b = {} as RequestContext;
    addAuditAnnotation(a, 'w.example.com/decision', 'allowed');
    addAuditAnnotation(a, 'mutation.webhook.admission.k8s.io/round_0_index_0', '{"mutated":true}');
    addAuditAnnotation(a, 'w.example.com/decision', 'denied');
    assert.deepEqual([...auditAnnotationsOf(a)], [['w.example.com/decision', 'allowed'], ['mutation.webhook.admission.k8s.io/round_0_index_0', '{"mutated":true}']]);
    assert.equal(auditAnnotationsOf(b).size, 0);
  });
});
