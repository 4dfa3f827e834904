import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulateNodesOptions } from './command.js';

describe('svc simulate-nodes flags', () => {
  it('reads the options, with defaults', () => {
    assert.deepEqual(simulateNodesOptions(['--kubeconfig', 'k.yaml', '--count=3']), {
      kubeconfig: 'k.yaml',
      options: { count: 3, prefix: 'sim-node-', firstIndex: 0, leaseNamespace: 'svc-node-lease', kubeletVersion: 'v1.27.3' },
    });
    assert.deepEqual(simulateNodesOptions(['--kubeconfig=k', '--count=1', '--prefix=kw-', '--first-index=5', '--node-lease-namespace=kube-node-lease']), {
      kubeconfig: 'k',
      options: { count: 1, prefix: 'kw-', firstIndex: 5, leaseNamespace: 'kube-node-lease', kubeletVersion: 'v1.27.3' },
    });
    assert.equal(simulateNodesOptions(['--help']), 'help');
  });

  const refused: [string[], RegExp][] = [
    [['--count=1'], /--kubeconfig is required/],
    [['--kubeconfig=k'], /--count is required/],
    [['--kubeconfig=k', '--count=-1'], /--count must not be negative/],
    [['--kubeconfig=k', '--count=1', '--first-index=-2'], /--first-index must not be negative/],
    [['--kubeconfig=k', '--count=1', '--prefix=Bad_'], /does not start a DNS subdomain name/],
    [['--kubeconfig=k', '--count=1', 'extra'], /unexpected argument "extra"/],
  ];
  for (const [argv, message] of refused) it(`refuses ${argv.join(' ')}`, () => assert.throws(() => simulateNodesOptions(argv), message));
});
