// CustomResourceSet: which updates change what is published, and which group-version documents they touch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../types.js';
import { widgetCRD, widgetVersion } from './fixtures.js';
import { CustomResourceSet } from './set.js';

const A = 'apis/crd01.example.com/v1';
const B = 'apis/other.example.com/v1';
const bigger = () => {
  const v = widgetVersion('v1');
  v.schema!.openAPIV3Schema!.properties!.spec!.properties!.size!.maximum = 99;
  return v;
};

describe('CustomResourceSet.update', () => {
  // Each row starts from [widgets.crd01.example.com at resourceVersion 10].
  const cases: [name: string, next: CustomResourceDefinition[], changed: boolean, touched: string[]][] = [
    ['the same CRD again', [widgetCRD()], false, []],
    ['a new resourceVersion, same published spec (a status write)', [widgetCRD({ resourceVersion: '11' })], false, []],
    ['a changed schema', [widgetCRD({ resourceVersion: '11', versions: [bigger()] })], true, [A]],
    ['a version added', [widgetCRD({ resourceVersion: '11', versions: [widgetVersion('v1'), widgetVersion('v2', { storage: false })] })], true, [A, 'apis/crd01.example.com/v2']],
    ['a version no longer served', [widgetCRD({ resourceVersion: '11', versions: [widgetVersion('v1', { served: false })] })], true, [A]],
    ['the scope changed', [widgetCRD({ resourceVersion: '11', scope: 'Cluster' })], true, [A]],
    ['another CRD added', [widgetCRD(), widgetCRD({ group: 'other.example.com' })], true, [B]],
    ['the CRD removed', [], true, [A]],
    ['no longer Established', [widgetCRD({ resourceVersion: '11', established: false })], true, [A]],
  ];
  for (const [name, next, changed, touched] of cases) {
    it(name, () => {
      const set = new CustomResourceSet();
      assert.deepEqual([...set.update([widgetCRD()]).groupVersions], [A]);
      const change = set.update(next);
      assert.equal(change.changed, changed);
      assert.deepEqual([...change.groupVersions].sort(), touched.sort());
    });
  }

  it('a CRD that is not Established is not published', () => {
    const set = new CustomResourceSet();
    assert.equal(set.update([widgetCRD({ established: false })]).changed, false);
    assert.deepEqual(set.all(), []);
  });

  it('versions are listed by CRD name, then spec order', () => {
    const set = new CustomResourceSet();
    set.update([widgetCRD({ group: 'zz.example.com' }), widgetCRD({ versions: [widgetVersion('v2'), widgetVersion('v1', { storage: false })] })]);
    assert.deepEqual(set.all().map((v) => v.key), ['apis/crd01.example.com/v2', 'apis/crd01.example.com/v1', 'apis/zz.example.com/v1']);
    assert.deepEqual(set.groupVersion('apis/zz.example.com/v1').map((v) => v.version), ['v1']);
  });
});
