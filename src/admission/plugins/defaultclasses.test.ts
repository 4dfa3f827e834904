// DefaultStorageClass and DefaultIngressClass: which class a new claim or ingress gets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import type { Lister } from './common.js';
import { defaultStorageClassPlugin } from './defaultstorageclass.js';
import { defaultIngressClassPlugin } from './defaultingressclass.js';
import { attrs } from './testutil.js';

function cls(name: string, created: string, annotations: Record<string, string> = {}): ApiObject {
  return { metadata: { name, creationTimestamp: created, annotations } };
}
const lister = (items: ApiObject[]): Lister => () => ({ list: async () => ({ items }) });

const SC = 'storageclass.kubernetes.io/is-default-class';
const SC_SVC = 'storageclass.svc.io/is-default-class';
const SC_BETA = 'storageclass.beta.kubernetes.io/is-default-class';

describe('DefaultStorageClass', () => {
  const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): ApiObject => ({ metadata: { name: 'c', ...(annotations ? { annotations } : {}) }, spec });
  const rows: [string, ApiObject[], ApiObject, string | null | undefined, Parameters<typeof attrs>[0]?][] = [
    ['the one default', [cls('a', '2024-01-01T00:00:00Z', { [SC]: 'true' }), cls('b', '2024-01-02T00:00:00Z')], claim(), 'a'],
    ['the svc.io spelling', [cls('a', '2024-01-01T00:00:00Z', { [SC_SVC]: 'true' })], claim(), 'a'],
    ['the beta spelling', [cls('a', '2024-01-01T00:00:00Z', { [SC_BETA]: 'true' })], claim(), 'a'],
    ['only "true" marks a default', [cls('a', '2024-01-01T00:00:00Z', { [SC]: 'True' })], claim(), undefined],
    ['several defaults: the newest', [cls('a', '2024-01-01T00:00:00Z', { [SC]: 'true' }), cls('b', '2024-03-01T00:00:00Z', { [SC]: 'true' }), cls('c', '2024-02-01T00:00:00Z', { [SC]: 'true' })], claim(), 'b'],
    ['several defaults of the same age: the first name', [cls('z', '2024-01-01T00:00:00Z', { [SC]: 'true' }), cls('m', '2024-01-01T00:00:00Z', { [SC]: 'true' })], claim(), 'm'],
    ['no default: nothing', [cls('a', '2024-01-01T00:00:00Z')], claim(), undefined],
    ['a claim naming a class keeps it', [cls('a', '2024-01-01T00:00:00Z', { [SC]: 'true' })], claim({ storageClassName: 'x' }), 'x'],
    ['an empty class name means no class', [cls('a', '2024-01-01T00:00:00Z', { [SC]: 'true' })], claim({ storageClassName: '' }), ''],
    ['the beta claim annotation counts as a class', [cls('a', '2024-01-01T00:00:00Z', { [SC]: 'true' })], claim({}, { 'volume.beta.kubernetes.io/storage-class': 'x' }), undefined],
    ['updates are left alone', [cls('a', '2024-01-01T00:00:00Z', { [SC]: 'true' })], claim(), undefined, { operation: 'UPDATE' }],
  ];
  for (const [what, classes, object, want, extra] of rows) {
    it(what, async () => {
      const a = attrs({ resource: 'persistentvolumeclaims', object, ...extra });
      await defaultStorageClassPlugin(lister(classes)).admit(a);
      assert.equal((a.object!.spec as Record<string, unknown>).storageClassName, want);
    });
  }
});

const IC = 'ingressclass.kubernetes.io/is-default-class';
describe('DefaultIngressClass', () => {
  const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): ApiObject => ({ metadata: { name: 'i', ...(annotations ? { annotations } : {}) }, spec });
  const rows: [string, ApiObject[], ApiObject, string | undefined, Parameters<typeof attrs>[0]?][] = [
    ['the one default', [cls('nginx', '2024-01-01T00:00:00Z', { [IC]: 'true' }), cls('other', '2024-01-02T00:00:00Z')], ingress(), 'nginx'],
    ['the svc.io spelling', [cls('nginx', '2024-01-01T00:00:00Z', { 'ingressclass.svc.io/is-default-class': 'true' })], ingress(), 'nginx'],
    ['several: the newest', [cls('old', '2024-01-01T00:00:00Z', { [IC]: 'true' }), cls('new', '2024-05-01T00:00:00Z', { [IC]: 'true' })], ingress(), 'new'],
    ['none: nothing', [], ingress(), undefined],
    ['a class named keeps it', [cls('nginx', '2024-01-01T00:00:00Z', { [IC]: 'true' })], ingress({ ingressClassName: 'x' }), 'x'],
    ['the class annotation counts', [cls('nginx', '2024-01-01T00:00:00Z', { [IC]: 'true' })], ingress({}, { 'kubernetes.io/ingress.class': 'x' }), undefined],
    ['updates are left alone', [cls('nginx', '2024-01-01T00:00:00Z', { [IC]: 'true' })], ingress(), undefined, { operation: 'UPDATE' }],
  ];
  for (const [what, classes, object, want, extra] of rows) {
    it(what, async () => {
      const a = attrs({ group: 'networking.svc.io', resource: 'ingresses', object, ...extra });
      await defaultIngressClassPlugin(lister(classes)).admit(a);
      assert.equal((a.object!.spec as Record<string, unknown>).ingressClassName, want);
    });
  }
});
