// convert() and needsConversion(): which pairs exist, what changes, errors,
// spellings; and the table of multi-version kinds against the catalogue.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allResources } from '../api/catalog/index.js';
import { convert, ConversionError, kindConversions, needsConversion } from './index.js';

type O = Record<string, unknown>;

describe('needsConversion', () => {
  const rows: [string, [string, string, string, string, string], boolean][] = [
    ['HPA v2 → v1', ['autoscaling', 'v2', 'autoscaling', 'v1', 'HorizontalPodAutoscaler'], true],
    ['HPA v1 → v2', ['autoscaling', 'v1', 'autoscaling', 'v2', 'HorizontalPodAutoscaler'], true],
    ['HPA v2 → v2 (drops round-trip annotations)', ['autoscaling', 'v2', 'autoscaling', 'v2', 'HorizontalPodAutoscaler'], true],
    ['PriorityLevelConfiguration v1beta3 → v1beta2', ['flowcontrol.apiserver.svc.io', 'v1beta3', 'flowcontrol.apiserver.svc.io', 'v1beta2', 'PriorityLevelConfiguration'], true],
    ['k8s.io spelling accepted', ['flowcontrol.apiserver.k8s.io', 'v1beta2', 'flowcontrol.apiserver.svc.io', 'v1beta3', 'PriorityLevelConfiguration'], true],
    ['FlowSchema v1beta3 → v1beta2 (same fields)', ['flowcontrol.apiserver.svc.io', 'v1beta3', 'flowcontrol.apiserver.svc.io', 'v1beta2', 'FlowSchema'], false],
    ['Event core → events.svc.io/v1', ['', 'v1', 'events.svc.io', 'v1', 'Event'], true],
    ['Event events.k8s.io/v1 → core', ['events.k8s.io', 'v1', '', 'v1', 'Event'], true],
    ['Event core → core', ['', 'v1', '', 'v1', 'Event'], false],
    ['SelfSubjectReview v1alpha1 → v1beta1 (same fields)', ['authentication.svc.io', 'v1alpha1', 'authentication.svc.io', 'v1beta1', 'SelfSubjectReview'], false],
    ['a single-version kind to itself', ['apps', 'v1', 'apps', 'v1', 'Deployment'], false],
  ];
  for (const [name, args, want] of rows) it(name, () => assert.equal(needsConversion(...args), want));
  const unsupported: [string, [string, string, string, string, string]][] = [
    ['a version not served in 1.27', ['autoscaling', 'v2', 'autoscaling', 'v2beta2', 'HorizontalPodAutoscaler']],
    ['a single-version kind to another version', ['apps', 'v1', 'apps', 'v1beta1', 'Deployment']],
    ['a kind to another group', ['', 'v1', 'apps', 'v1', 'Pod']],
  ];
  for (const [name, args] of unsupported) it(`throws for ${name}`, () => assert.throws(() => needsConversion(...args), ConversionError));
});

describe('convert', () => {
  const cm: O = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
  it('is the identity (a copy) for a kind to its own version', () => {
    const out = convert(cm, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(out, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c' }, data: { a: 'b' } });
    assert.notEqual(out.metadata, cm.metadata);
  });
  it('answers the svc.io spelling whatever the spelling asked for or carried', () => {
    const fs: O = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name: 'f' }, spec: {} };
    assert.equal(convert(fs, { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta2', kind: 'FlowSchema' }).apiVersion, 'flowcontrol.apiserver.svc.io/v1beta2');
  });
  const errors: [string, O, { group: string; version: string; kind: string }, RegExp][] = [
    ['no apiVersion', { kind: 'ConfigMap', metadata: {} }, { group: '', version: 'v1', kind: 'ConfigMap' }, /without apiVersion/],
    ['no kind', { apiVersion: 'v1', metadata: {} }, { group: '', version: 'v1', kind: 'ConfigMap' }, /without kind/],
    ['another kind', cm, { group: '', version: 'v1', kind: 'Secret' }, /no conversion of ConfigMap \(v1\) to Secret \(v1\)/],
    ['a pair not served together', { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: {} }, { group: 'autoscaling', version: 'v2beta1', kind: 'HorizontalPodAutoscaler' }, /no conversion of HorizontalPodAutoscaler from autoscaling\/v2 to autoscaling\/v2beta1/],
  ];
  for (const [name, obj, to, message] of errors) it(`throws for ${name}`, () => assert.throws(() => convert(obj, to), (e: unknown) => e instanceof ConversionError && message.test(e.message)));
});

describe('the multi-version kinds against the catalogue', () => {
  /** Stored kinds (by storage group/resource) served in more than one group-version. */
  const served = new Map<string, { kind: string; storage: string; versions: Set<string> }>();
  for (const r of allResources()) {
    const home = r.sharesStorageWith ? `${r.sharesStorageWith.group}/${r.sharesStorageWith.resource}` : `${r.group}/${r.resource}`;
    const storageGroup = r.sharesStorageWith ? r.sharesStorageWith.group : r.group;
    const entry = served.get(home) ?? { kind: r.kind, storage: `${storageGroup}/${r.storageVersion}`, versions: new Set<string>() };
    entry.versions.add(`${r.group}/${r.version}`);
    served.set(home, entry);
  }
  const multi = [...served.values()].filter((e) => e.versions.size > 1);
  it('every kind the catalogue serves in several versions has a conversion, through its storage version', () => {
    const table = kindConversions().map((c) => ({
      kind: c.kind,
      storage: `${c.storage.group}/${c.storage.version}`,
      versions: new Set([c.storage, ...c.others].map((v) => `${v.group}/${v.version}`)),
    }));
    assert.deepEqual(
      multi.map((e) => e.kind).sort(),
      table.map((c) => c.kind).sort(),
    );
    for (const e of multi) {
      const c = table.find((t) => t.kind === e.kind)!;
      assert.deepEqual([...c.versions].sort(), [...e.versions].sort(), e.kind);
      assert.equal(c.storage, e.storage, e.kind);
    }
  });
});
