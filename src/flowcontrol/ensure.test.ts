// The ensurer's rules: the autoupdate annotation (either key; false wins),
// generation 1 standing for "not changed by the operator", mandatory objects
// always restored, nothing written when an object already matches.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { autoUpdateOf, ensureAction } from './ensure.js';
import { SUGGESTED_PRIORITY_LEVELS } from './bootstrap.js';

const boot = SUGGESTED_PRIORITY_LEVELS.find((o) => o.metadata.name === 'workload-low')!;
const changed = (annotations: Record<string, string> | undefined, generation: number): ApiObject => ({
  ...structuredClone(boot), metadata: { name: 'workload-low', generation, ...(annotations ? { annotations } : {}) },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 7, lendablePercent: 0, limitResponse: { type: 'Reject' } } },
} as ApiObject);
const K = 'apf.kubernetes.io/autoupdate-spec';
const S = 'apf.svc.io/autoupdate-spec';

describe('APF ensurer rules', () => {
  const reads: [string, Record<string, string>, boolean | undefined][] = [
    ['kube key true', { [K]: 'true' }, true],
    ['our key false', { [S]: 'false' }, false],
    ['false in either wins', { [K]: 'true', [S]: 'false' }, false],
    ['not a boolean', { [K]: 'maybe' }, undefined],
    ['absent', {}, undefined],
  ];
  for (const [name, annotations, want] of reads) it(`autoupdate: ${name}`, () => assert.equal(autoUpdateOf({ metadata: { annotations } } as ApiObject), want));

  const rows: [string, ApiObject, boolean, 'none' | 'update'][] = [
    ['suggested, autoupdate true: the spec is restored', changed({ [K]: 'true', [S]: 'true' }, 3), false, 'update'],
    ['suggested, autoupdate false: left as the operator made it', changed({ [K]: 'false' }, 3), false, 'none'],
    ['suggested, no annotation, generation 1: updated', changed(undefined, 1), false, 'update'],
    ['suggested, no annotation, changed since (generation 2): left', changed(undefined, 2), false, 'none'],
    ['mandatory, autoupdate false: restored all the same', changed({ [K]: 'false' }, 3), true, 'update'],
    ['already the bootstrap object: nothing written', { ...structuredClone(boot), metadata: { ...boot.metadata, generation: 4 } } as ApiObject, false, 'none'],
  ];
  for (const [name, existing, mandatory, want] of rows) {
    it(name, () => {
      const r = ensureAction(existing, boot, mandatory);
      assert.equal(r.action, want);
      if (want === 'update') {
        assert.deepEqual((r.object as unknown as { spec: unknown }).spec, (boot as unknown as { spec: unknown }).spec);
        assert.equal(r.object.metadata.annotations?.[K], 'true');
        assert.equal(r.object.metadata.annotations?.[S], 'true');
      }
    });
  }
});
