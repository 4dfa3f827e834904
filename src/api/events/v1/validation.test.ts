// events.svc.io/v1 Event validation causes (internal field names, as Kubernetes reports them).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import { validateEventV1, validateEventV1Update } from './validation.js';

type O = { [k: string]: unknown };
const ev = (o: O = {}): O => ({
  metadata: { name: 'e', namespace: 'ns' },
  eventTime: '2023-01-01T00:00:00.000000Z',
  regarding: { kind: 'Pod', namespace: 'ns', name: 'p' },
  reason: 'Started',
  action: 'Start',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  type: 'Normal',
  ...o,
});
describe('events/v1 Event', () => {
  const rows: [string, O, string[]][] = [
    ['valid', ev(), []],
    ['type Normal|Warning', ev({ type: 'Info' }), ['type: Invalid value: "": has invalid value: Info']],
    ['eventTime required (then legacy rules apply)', ev({ eventTime: undefined }), ['eventTime: Required value']],
    ['regarding namespace', ev({ regarding: { namespace: 'other' } }), []],
    ['reporting fields and action required', ev({ reportingController: '', reportingInstance: '', action: '' }), [
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'reportingInstance: Required value',
      'action: Required value',
    ]],
    ['deprecated fields unset', ev({ deprecatedCount: 3, deprecatedSource: { component: 'x' } }), ['deprecatedCount: Invalid value: "": needs to be unset', 'deprecatedSource: Invalid value: "": needs to be unset']],
    ['series', ev({ series: { count: 1 } }), ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value']],
    ['regarding without namespace outside default', ev({ regarding: { kind: 'Node', name: 'n' } }), ['involvedObject.namespace: Invalid value: "": does not match event.namespace']],
  ];
  for (const [name, o, want] of rows) it(name, () => assert.deepEqual(validateEventV1(o).map(renderCause), want));
  it('update: fields immutable', () => {
    assert.deepEqual(validateEventV1Update(ev({ reason: 'Other' }), ev()).map(renderCause), ['reason: Invalid value: "Other": field is immutable', 'reason: Invalid value: "Other": field is immutable']);
  });
});
