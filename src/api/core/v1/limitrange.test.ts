// ValidateLimitRange: the causes of bad LimitRanges.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import { goQuantity, validateLimitRange } from './limitrange.js';

const lr = (...limits: unknown[]) => ({ metadata: { name: 'x' }, spec: { limits } });

describe('validateLimitRange', () => {
  const rows: [string, ReturnType<typeof lr>, string[]][] = [
    ['the golden one', lr({ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' }, min: { cpu: '50m' }, max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '10' } }), []],
    ['Pod and PVC items', lr({ type: 'Pod', max: { cpu: '4' } }, { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } }), []],
    ['min > max', lr({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }), [
      'spec.limits[0].min[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}: min value 2 is greater than max value 1',
    ]],
    ['default > max, defaultRequest > default', lr({ type: 'Container', default: { memory: '2Gi' }, defaultRequest: { memory: '3Gi' }, max: { memory: '1Gi' } }), [
      'spec.limits[0].defaultRequest[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:3221225472, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"3Gi", Format:"BinarySI"}: default request value 3Gi is greater than max value 1Gi',
      'spec.limits[0].defaultRequest[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:3221225472, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"3Gi", Format:"BinarySI"}: default request value 3Gi is greater than default limit value 2Gi',
      'spec.limits[0].default[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1Gi", Format:"BinarySI"}: default value 2Gi is greater than max value 1Gi',
    ]],
    ['min > defaultRequest and default', lr({ type: 'Container', min: { cpu: '500m' }, default: { cpu: '200m' }, defaultRequest: { cpu: '100m' } }), [
      'spec.limits[0].defaultRequest[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:100, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"100m", Format:"DecimalSI"}: min value 500m is greater than default request value 100m',
      'spec.limits[0].default[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: min value 500m is greater than default value 200m',
    ]],
    ['ratio < 1 and > max/min', lr({ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }, { type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: ratio 500m is less than 1',
      'spec.limits[1].maxLimitRequestRatio[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:3, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"3", Format:"DecimalSI"}: ratio 3 is greater than max/min = 2.000000',
    ]],
    ['Pod with defaults', lr({ type: 'Pod', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }), [
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'",
    ]],
    ['PVC without storage', lr({ type: 'PersistentVolumeClaim', max: { 'requests.storage': '1Gi' } }), [
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]],
    ['duplicate and unknown types', lr({ type: 'Container' }, { type: 'Container' }, { type: 'Node' }), [
      'spec.limits[1].type: Duplicate value: "Container"',
      'spec.limits[2].type: Invalid value: "Node": must be a standard limit type or fully qualified',
    ]],
    ['resource names', lr({ type: 'Container', max: { 'requests.cpu': '1', foo: '1', 'example.com/gpu': '1', 'hugepages-2Mi': '2Mi' } }), [
      'spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource for containers',
      'spec.limits[0].max[requests.cpu]: Invalid value: "requests.cpu": must be a standard resource for containers',
    ]],
    ['hugepages cannot overcommit', lr({ type: 'Container', default: { 'hugepages-2Mi': '4Mi' }, defaultRequest: { 'hugepages-2Mi': '2Mi' } }), [
      'spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2097152, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2Mi", Format:"BinarySI"}: default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi',
    ]],
  ];
  for (const [what, obj, want] of rows) {
    it(what, () => assert.deepEqual(validateLimitRange(obj).map(renderCause), want));
  }
  it('goQuantity of texts that are not canonical', () => {
    assert.equal(goQuantity('1000m').goText, 'resource.Quantity{i:resource.int64Amount{value:1000, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}');
    assert.equal(goQuantity('0.5').goText, 'resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}');
  });
});
