import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { matchPodFailurePolicy } from './failurepolicy.js';

const pod = (containers: [string, number | undefined][], conditions: [string, string][] = [], init: [string, number][] = []): ApiObject => ({
  metadata: { name: 'p', namespace: 'ns' },
  status: {
    phase: 'Failed',
    containerStatuses: containers.map(([name, code]) => ({ name, state: code === undefined ? { running: {} } : { terminated: { exitCode: code } } })),
    initContainerStatuses: init.map(([name, code]) => ({ name, state: { terminated: { exitCode: code } } })),
    conditions: conditions.map(([type, status]) => ({ type, status })),
  },
});

const rules = {
  rules: [
    { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42, 43] } },
    { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1] } },
    { action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: 'True' }] },
  ],
};

describe('matchPodFailurePolicy', () => {
  const cases: { name: string; policy: unknown; pod: ApiObject; want: { countFailed: boolean; action?: string; message?: string } }[] = [
    { name: 'no policy: counted', policy: undefined, pod: pod([['main', 1]]), want: { countFailed: true } },
    { name: 'Ignore on a pod condition', policy: rules, pod: pod([['main', 42]], [['DisruptionTarget', 'True']]), want: { countFailed: false, action: 'Ignore' } },
    { name: 'condition with another status does not match', policy: rules, pod: pod([['main', 1]], [['DisruptionTarget', 'False']]), want: { countFailed: true } },
    {
      name: 'FailJob on the named container\'s exit code', policy: rules, pod: pod([['main', 43]]),
      want: { countFailed: true, action: 'FailJob', message: 'Container main for pod ns/p failed with exit code 43 matching FailJob rule at index 1' },
    },
    { name: 'the rule names another container: Count rule (NotIn 1) matches', policy: rules, pod: pod([['side', 42]]), want: { countFailed: true, action: 'Count' } },
    { name: 'exit code 0 never matches; no rule: counted', policy: rules, pod: pod([['main', 0], ['side', 1]]), want: { countFailed: true } },
    { name: 'a running container has no exit code', policy: rules, pod: pod([['main', undefined]]), want: { countFailed: true } },
    {
      name: 'init containers are checked after the containers', policy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [5] } }] }, pod: pod([['main', 1]], [], [['init', 5]]),
      want: { countFailed: true, action: 'FailJob', message: 'Container init for pod ns/p failed with exit code 5 matching FailJob rule at index 0' },
    },
    {
      name: 'FailJob on a pod condition', policy: rules, pod: pod([['main', 1]], [['ConfigIssue', 'True']]),
      want: { countFailed: true, action: 'FailJob', message: 'Pod ns/p has condition ConfigIssue matching FailJob rule at index 3' },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(matchPodFailurePolicy(c.policy, c.pod), c.want));
});
