import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listPredicate } from './selectors.js';
import type { ApiObject } from '../registry/object.js';
import type { ServedResource } from '../registry/registry.js';
import { isStatusError } from '../api/meta/index.js';

const cm: ServedResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: [], subresources: [], storageVersion: 'v1' };
const pods: ServedResource = { ...cm, resource: 'pods', kind: 'Pod' };
const objs: ApiObject[] = [
  { metadata: { name: 'db-prod', namespace: 'n', labels: { env: 'prod', tier: 'db' } } },
  { metadata: { name: 'web-prod', namespace: 'n', labels: { env: 'prod', tier: 'web' } } },
  { metadata: { name: 'web-dev', namespace: 'n', labels: { env: 'dev', tier: 'web' } } },
  { metadata: { name: 'test', namespace: 'n', labels: { env: 'test' } } },
  { metadata: { name: 'plain', namespace: 'n' } },
];
const select = (r: ServedResource, q: string) => {
  const p = listPredicate(r, new URLSearchParams(q));
  return objs.filter((o) => !p || p(o)).map((o) => o.metadata.name).sort();
};

describe('label and field selectors (golden list-03/list-04 cases)', () => {
  const rows: [string, string[]][] = [
    ['labelSelector=env=prod', ['db-prod', 'web-prod']],
    ['labelSelector=env==prod', ['db-prod', 'web-prod']],
    ['labelSelector=env!=prod', ['plain', 'test', 'web-dev']],
    ['labelSelector=env in (prod,dev)', ['db-prod', 'web-dev', 'web-prod']],
    ['labelSelector=env notin (prod,dev)', ['plain', 'test']],
    ['labelSelector=tier', ['db-prod', 'web-dev', 'web-prod']],
    ['labelSelector=!tier', ['plain', 'test']],
    ['labelSelector=env=prod,tier=web', ['web-prod']],
    ['labelSelector=tier,env notin (dev)', ['db-prod', 'web-prod']],
    ['labelSelector= env = prod , tier', ['db-prod', 'web-prod']],
    ['fieldSelector=metadata.name=test', ['test']],
    ['fieldSelector=metadata.name==test', ['test']],
    ['fieldSelector=metadata.name!=test', ['db-prod', 'plain', 'web-dev', 'web-prod']],
    ['fieldSelector=metadata.namespace=n&labelSelector=env=dev', ['web-dev']],
    ['fieldSelector=metadata.name=a\\,b', []],
  ];
  for (const [q, want] of rows) it(q, () => assert.deepEqual(select(cm, q), want));

  const errors: [ServedResource, string, string][] = [
    [cm, 'labelSelector=env in prod', "unable to parse requirement: found 'prod' expected: '('"],
    [cm, 'labelSelector==prod', "found '=', expected: !, identifier, or 'end of string'"],
    [cm, 'labelSelector=env=has space', "found 'space', expected: ',' or 'end of string'"],
    [cm, 'fieldSelector=data.k=v', '"data.k" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    [cm, 'fieldSelector=metadata.name in (a)', "invalid selector: 'metadata.name in (a)'; can't understand 'metadata.name in (a)'"],
    [pods, 'fieldSelector=spec.containers.image=x', 'field label not supported: spec.containers.image'],
  ];
  for (const [r, q, msg] of errors) {
    it(`400: ${q}`, () => assert.throws(() => listPredicate(r, new URLSearchParams(q)), (e: unknown) => isStatusError(e) && e.status.code === 400 && e.status.message === msg));
  }

  it('pod fields', () => {
    const p = listPredicate(pods, new URLSearchParams('fieldSelector=status.phase=Pending,spec.nodeName='))!;
    assert.equal(p({ metadata: { name: 'p' }, status: { phase: 'Pending' }, spec: {} }), true);
    assert.equal(p({ metadata: { name: 'p' }, status: { phase: 'Running' }, spec: {} }), false);
  });
});
