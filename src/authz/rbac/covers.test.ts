import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { breakdownRule, covers, ruleCovers } from './covers.js';
import type { PolicyRule } from './rules.js';

describe('breakdownRule', () => {
  it('gives one rule per group, resource, verb (and name), then per URL and verb', () => {
    assert.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }), [
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
    ]);
    assert.deepEqual(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), [
      { verbs: ['get'], nonResourceURLs: ['/a'] },
      { verbs: ['get'], nonResourceURLs: ['/b'] },
    ]);
  });
});

describe('ruleCovers', () => {
  const cases: [string, PolicyRule, PolicyRule, boolean][] = [
    ['exact', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, true],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, { verbs: ['delete'], apiGroups: [''], resources: ['pods'] }, true],
    ['other verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }, false],
    ['group in the other spelling', { verbs: ['get'], apiGroups: ['storage.k8s.io'], resources: ['csinodes'] }, { verbs: ['get'], apiGroups: ['storage.svc.io'], resources: ['csinodes'] }, true],
    ['group *', { verbs: ['get'], apiGroups: ['*'], resources: ['pods'] }, { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, true],
    ['*/sub covers a subresource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }, true],
    ['a resource does not cover its subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, false],
    ['no names covers a name', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, true],
    ['names do not cover all names', { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, false],
    ['URL with a trailing *', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, { verbs: ['get'], nonResourceURLs: ['/healthz/etcd'] }, true],
    ['other URL', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, { verbs: ['get'], nonResourceURLs: ['/livez'] }, false],
  ];
  for (const [name, owner, sub, want] of cases) it(name, () => assert.equal(ruleCovers(owner, sub), want));
});

describe('covers', () => {
  it('lists the broken-down permissions the owner lacks', () => {
    const r = covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);
    assert.equal(r.covered, false);
    assert.deepEqual(r.uncovered, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
    assert.equal(covers([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['get'], apiGroups: ['x'], resources: ['y'] }]).covered, true);
  });
});
