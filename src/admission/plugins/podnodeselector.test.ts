// PodNodeSelector: namespace selectors merged into pods (texts from golden transcript admission-09).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNotFound } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import type { Getter } from './common.js';
import { parsePodNodeSelectorConfig, podNodeSelector, selectorToLabels } from './podnodeselector.js';
import { attrs, outcome } from './testutil.js';

const KEY = 'scheduler.alpha.kubernetes.io/node-selector';
const nsList: Record<string, Record<string, string> | undefined> = {
  prod: { [KEY]: 'env=prod' },
  plain: undefined,
  bad: { [KEY]: 'env in (a' },
  both: { [KEY]: 'env=prod', 'scheduler.alpha.svc.io/node-selector': 'tier=web' },
  clash: { [KEY]: 'env=prod', 'scheduler.alpha.svc.io/node-selector': 'env=dev' },
  empty: { [KEY]: '' },
};
const namespaces: Getter = () => ({ get: async (_ns, name) => {
  if (!(name in nsList)) throw newNotFound({ group: '', resource: 'namespaces' }, name);
  const annotations = nsList[name];
  return { metadata: { name, ...(annotations ? { annotations } : {}) } };
} });
const pod = (name: string, nodeSelector?: Record<string, string>): ApiObject => ({ metadata: { name }, spec: { containers: [], ...(nodeSelector ? { nodeSelector } : {}) } });

describe('PodNodeSelector', () => {
  const config = { clusterDefaultNodeSelector: 'zone=a', plain: 'zone=a,disk=ssd' };
  const rows: [string, string, ApiObject, Record<string, string> | undefined | { code: number; message: string }][] = [
    ['namespace selector added', 'prod', pod('p'), { env: 'prod' }],
    ['pod selector kept beside it', 'prod', pod('p', { disk: 'ssd' }), { disk: 'ssd', env: 'prod' }],
    ['same value', 'prod', pod('p', { env: 'prod' }), { env: 'prod' }],
    ['conflict', 'prod', pod('dev', { env: 'dev' }), { code: 403, message: 'pods "dev" is forbidden: pod node label selector conflicts with its namespace node label selector' }],
    ['unparsable annotation', 'bad', pod('p'), { code: 500, message: 'invalid selector: [env in (a]' }],
    ['both spellings merge', 'both', pod('p'), { env: 'prod', tier: 'web' }],
    ['spellings that disagree', 'clash', pod('p'), { code: 500, message: "clash annotations' node label selectors conflict" }],
    ['an empty annotation means no selector (not the cluster default)', 'empty', pod('p'), undefined],
    ['no annotation: the cluster default', 'plain', pod('p'), { zone: 'a' }],
    ['within the namespace whitelist', 'plain', pod('p', { disk: 'ssd' }), { disk: 'ssd', zone: 'a' }],
    ['outside the namespace whitelist', 'plain', pod('p', { disk: 'hdd' }), { code: 403, message: 'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist' }],
    ['missing namespace', 'gone', pod('p'), { code: 500, message: 'Internal error occurred: namespace gone does not exist' }],
  ];
  for (const [what, ns, object, want] of rows) {
    it(what, async () => {
      const a = attrs({ namespace: ns, object });
      const st = await outcome(() => podNodeSelector(namespaces, config).admit(a));
      if (want && 'code' in want) assert.deepEqual({ code: st?.code, message: st?.message }, want);
      else {
        assert.equal(st, undefined);
        assert.deepEqual((a.object!.spec as Record<string, unknown>).nodeSelector, want);
      }
    });
  }
  it('the validating step refuses a selector changed into a conflict', async () => {
    const st = await outcome(() => podNodeSelector(namespaces).validate(attrs({ namespace: 'prod', object: pod('p', { env: 'dev' }) })));
    assert.equal(st?.code, 403);
  });
  it('updates are not looked at', async () => {
    const a = attrs({ operation: 'UPDATE', namespace: 'prod', object: pod('p') });
    await podNodeSelector(namespaces).admit(a);
    assert.equal((a.object!.spec as Record<string, unknown>).nodeSelector, undefined);
  });
  it('selector texts', () => {
    assert.deepEqual(selectorToLabels(' a = b ,c=d'), { a: 'b', c: 'd' });
    assert.throws(() => selectorToLabels('a=b=c'), /invalid selector: \[a b c\]/);
    assert.throws(() => selectorToLabels('a=b c'), /\[a\]: Invalid value: "b c": a valid label must be/);
  });
  it('configuration file', () => {
    assert.deepEqual(parsePodNodeSelectorConfig('podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: env=dev\n  ns1: env=prod\n'), { clusterDefaultNodeSelector: 'env=dev', ns1: 'env=prod' });
    assert.deepEqual(parsePodNodeSelectorConfig('{"podNodeSelectorPluginConfig": {"ns1": "a=b"}}'), { ns1: 'a=b' });
    assert.deepEqual(parsePodNodeSelectorConfig(undefined), {});
    assert.deepEqual(parsePodNodeSelectorConfig(': : bad'), {});
  });
});
