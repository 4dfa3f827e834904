import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Admission, type AdmissionAttributes, type AdmissionPlugin } from './admission.js';
import { isStatusError } from '../api/meta/index.js';

const attrs = (dryRun: boolean): AdmissionAttributes => ({
  operation: 'CREATE', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, oldObject: undefined,
  resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, namespace: 'default', name: 'x', namespaced: true, dryRun, user: undefined,
});

describe('admission: dry run and side effects', () => {
  const cases: [AdmissionPlugin['sideEffects'], boolean, 'runs' | 'rejected'][] = [
    [undefined, true, 'runs'],
    ['None', true, 'runs'],
    ['NoneOnDryRun', true, 'runs'],
    ['Some', true, 'rejected'],
    ['Some', false, 'runs'],
  ];
  for (const [sideEffects, dryRun, want] of cases) {
    for (const phase of ['mutating', 'validating'] as const) {
      it(`${phase} plugin with sideEffects=${sideEffects ?? '(unset)'} on ${dryRun ? 'a dry run' : 'a real write'}: ${want}`, async () => {
        let ran = 0;
        const a = new Admission();
        a.register({ name: 'p', phase, ...(sideEffects ? { sideEffects } : {}), admit: () => void ran++ });
        const call = () => (phase === 'mutating' ? a.mutate(attrs(dryRun)) : a.admit(attrs(dryRun)));
        if (want === 'runs') {
          await call();
          assert.equal(ran, 1);
        } else {
          await assert.rejects(call, (e: unknown) => isStatusError(e) && e.status.code === 400 && e.status.message === 'admission webhook "p" does not support dry run');
          assert.equal(ran, 0);
        }
      });
    }
  }
});
