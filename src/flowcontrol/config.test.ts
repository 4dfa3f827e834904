// FlowControlConfig.classify's per-user cache: the answer is the same whether
// the user object, an equal user (name and groups) or a fresh configuration is
// seen, and a new configuration or different groups are never answered from a
// stale entry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../authn/user.js';
import type { RequestInfo } from '../endpoints/requestinfo.js';
import type { ApiObject } from '../registry/object.js';
import { FlowControlConfig } from './config.js';
import { FakeClock } from './clock.js';
import { MANDATORY_PRIORITY_LEVELS } from './bootstrap.js';

const get = (namespace: string): RequestInfo => ({
  isResourceRequest: true, verb: 'get', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace, resource: 'configmaps', subresource: '', name: 'x', parts: ['configmaps'], path: '/x',
});
const level = (name: string): ApiObject =>
  ({ metadata: { name, uid: `uid-${name}` }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Reject' } } } }) as unknown as ApiObject;
const schema = (name: string, precedence: number, subject: Record<string, unknown>, namespaces: string[]): ApiObject =>
  ({
    metadata: { name, uid: `uid-${name}` },
    spec: { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: precedence, rules: [{ subjects: [subject], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces }] }] },
  }) as unknown as ApiObject;
const devs = schema('devs', 100, { kind: 'Group', group: { name: 'dev' } }, ['team']);
const alice = schema('alice', 200, { kind: 'User', user: { name: 'alice' } }, ['*']);

function config(schemas: ApiObject[]): FlowControlConfig {
  const c = new FlowControlConfig(new FakeClock(), 100);
  c.apply(schemas, [...MANDATORY_PRIORITY_LEVELS, level('pl')]);
  return c;
}

describe('classification cache', () => {
  const rows: [string, UserInfo, RequestInfo, string][] = [
    ['group rule, its namespace', { name: 'alice', groups: ['dev', 'system:authenticated'] }, get('team'), 'devs'],
    ['group rule, another namespace: the next schema', { name: 'alice', groups: ['dev', 'system:authenticated'] }, get('other'), 'alice'],
    ['same name, without the group', { name: 'alice', groups: ['system:authenticated'] }, get('team'), 'alice'],
    ['nobody matching: the catch-all', { name: 'bob', groups: ['system:authenticated'] }, get('team'), 'catch-all'],
    ['masters: exempt', { name: 'root', groups: ['system:masters'] }, get('team'), 'exempt'],
  ];
  const c = config([devs, alice]);
  for (const [name, user, info, want] of rows) {
    it(name, () => {
      assert.equal(c.classify(user, info).schema.name, want);
      assert.equal(c.classify(user, info).schema.name, want, 'the same object again');
      assert.equal(c.classify({ name: user.name, groups: [...user.groups] }, info).schema.name, want, 'an equal user');
    });
  }
  it('a new configuration is not answered from the old one', () => {
    const cc = config([devs, alice]);
    const u: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
    assert.equal(cc.classify(u, get('team')).schema.name, 'devs');
    cc.apply([alice], [...MANDATORY_PRIORITY_LEVELS, level('pl')]);
    assert.equal(cc.classify(u, get('team')).schema.name, 'alice');
    assert.equal(cc.classify({ name: 'alice', groups: ['dev', 'system:authenticated'] }, get('team')).schema.name, 'alice');
  });
});
