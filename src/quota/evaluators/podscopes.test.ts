// Scope predicates of pods: the PriorityClass selector operators, terminating, cross-namespace affinity.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScopedResourceSelectorRequirement } from '../evaluator.js';
import { isTerminatingPod, priorityClassMatches, usesCrossNamespacePodAffinity } from './podscopes.js';
import { obj } from './testutil.js';

describe('priorityClassMatches', () => {
  const rows: [ScopedResourceSelectorRequirement['operator'], string[] | undefined, string, boolean][] = [
    ['In', ['a', 'b'], 'a', true], ['In', ['a'], 'b', false], ['In', ['a'], '', false], ['In', [], 'a', false],
    ['NotIn', ['a'], 'b', true], ['NotIn', ['a'], 'a', false], ['NotIn', ['a'], '', true], ['NotIn', undefined, 'a', false],
    ['Exists', undefined, 'a', true], ['Exists', undefined, '', false],
    ['DoesNotExist', undefined, '', true], ['DoesNotExist', undefined, 'a', false], ['DoesNotExist', ['x'], '', false],
  ];
  for (const [operator, values, name, want] of rows) {
    it(`${operator} ${JSON.stringify(values ?? [])} on "${name}"`, () =>
      assert.equal(priorityClassMatches({ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) }, name), want));
  }
});

describe('pod scope predicates', () => {
  it('terminating: activeDeadlineSeconds ≥ 0', () => {
    assert.deepEqual([undefined, 0, 10, -1].map((d) => isTerminatingPod(obj(d === undefined ? {} : { activeDeadlineSeconds: d }))), [false, true, true, false]);
  });
  it('cross-namespace affinity: namespaces or a namespaceSelector in any term', () => {
    const term = (t: Record<string, unknown>) => ({ topologyKey: 'k', ...t });
    const rows: [unknown, boolean][] = [
      [undefined, false],
      [{ podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({})] } }, false],
      [{ podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaceSelector: { matchLabels: { a: 'b' } } })] } }, true],
      [{ podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term({ namespaces: ['x'] }) }] } }, true],
      [{ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: ['x'] })] } }, true],
      [{ nodeAffinity: {} }, false],
    ];
    for (const [affinity, want] of rows) assert.equal(usesCrossNamespacePodAffinity(obj(affinity ? { affinity } : {})), want, JSON.stringify(affinity));
  });
});
