// agentUsage: every flag is listed with its type, default and deprecation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT_FLAGS } from './flags.js';
import { agentUsage } from './usage.js';

describe('agent usage', () => {
  const text = agentUsage();
  it('lists every flag and alias', () => {
    for (const f of AGENT_FLAGS) for (const n of [f.name, ...(f.aliases ?? [])]) assert.ok(text.includes(`--${n}`), n);
  });
  const rows: [string, string][] = [
    ['--max-pods int32', '(default 110)'],
    ['--sync-frequency duration', '(default 1m0s)'],
    ['--eviction-hard mapStringString', '(default imagefs.available<15%,memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%)'],
    ['--enforce-node-allocatable strings', '(default [pods])'],
    ['--cert-dir string', '(default "/var/lib/kubelet/pki")'],
    ['--anonymous-auth', '(default true)'],
    ['--container-runtime-endpoint string', '(default "unix:///run/containerd/containerd.sock")'],
    ['--oom-score-adj int32', '(default -999)'],
  ];
  for (const [head, def] of rows) {
    it(`${head} ${def}`, () => {
      const line = text.split('\n').findIndex((l) => l.includes(head));
      assert.ok(line >= 0, head);
      assert.ok(text.split('\n')[line + 1]!.includes(def), text.split('\n')[line + 1]);
    });
  }
  it('marks deprecated flags', () => {
    const i = text.split('\n').findIndex((l) => l.includes('--max-pods'));
    assert.match(text.split('\n')[i + 1]!, /\(DEPRECATED: This parameter should be set via the config file/);
  });
  it('-v and -h have shorthands', () => {
    assert.match(text, /-v, --v int32/);
    assert.match(text, /-h, --help/);
  });
});
