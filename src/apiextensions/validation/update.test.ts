// ValidateCustomResourceDefinitionUpdate: immutable fields, the options an
// update gets from the stored CRD (ratchets), and the status update.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition, JSONSchemaProps } from '../types.js';
import { validateCrdStatusUpdate, validateCrdUpdate } from './crd.js';
import { crdNameErrors } from './names.js';
import { createOptions, updateOptions, type ValidationOptions } from './options.js';
import { baseCrd, fakeDeps, render } from './testfixtures.js';

const established = (c: CustomResourceDefinition) => {
  c.status!.conditions = [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }];
  return c;
};
const rootOf = (c: CustomResourceDefinition): JSONSchemaProps => c.spec.versions[0]!.schema!.openAPIV3Schema!;

describe('validateCrdUpdate: immutable fields', () => {
  const cases: { name: string; old: (c: CustomResourceDefinition) => void; mutate: (c: CustomResourceDefinition) => void; want: string[] }[] = [
    { name: 'no change', old: () => {}, mutate: () => {}, want: [] },
    { name: 'group is immutable', old: () => {}, mutate: (c) => (c.spec.group = 'other.com'), want: ['spec.group: Invalid value: "other.com": field is immutable'] },
    { name: 'plural is immutable', old: () => {}, mutate: (c) => (c.spec.names.plural = 'gadgets'), want: ['spec.names.plural: Invalid value: "gadgets": field is immutable'] },
    { name: 'scope and kind may change before Established', old: () => {}, mutate: (c) => Object.assign(c.spec, { scope: 'Cluster', names: { ...c.spec.names, kind: 'Gadget', listKind: 'GadgetList' } }), want: [] },
    {
      name: 'scope and kind are immutable once Established',
      old: established,
      mutate: (c) => Object.assign(c.spec, { scope: 'Cluster', names: { ...c.spec.names, kind: 'Gadget', listKind: 'GadgetList' } }),
      want: ['spec.scope: Invalid value: "Cluster": field is immutable', 'spec.names.kind: Invalid value: "Gadget": field is immutable'],
    },
    { name: 'listKind and shortNames may change once Established', old: established, mutate: (c) => Object.assign(c.spec.names, { listKind: 'Widgets', shortNames: ['wd'] }), want: [] },
    {
      name: 'a new storage version must be in storedVersions (prepare adds it)',
      old: () => {},
      mutate: (c) => {
        c.spec.versions[0]!.storage = false;
        c.spec.versions.push({ ...structuredClone(c.spec.versions[0]!), name: 'v2', storage: true });
      },
      want: [
        'status.storedVersions: Invalid value: apiextensions.CustomResourceDefinitionVersion{Name:"v2", Served:true, Storage:true, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}: must have the storage version v2',
      ],
    },
    {
      name: 'a stored version removed from spec.versions',
      old: () => {},
      mutate: (c) => (c.status!.storedVersions = ['v0', 'v1']),
      want: ['status.storedVersions[0]: Invalid value: "v0": must appear in spec.versions'],
    },
    { name: 'preserveUnknownFields may stay true when it was', old: (c) => (c.spec.preserveUnknownFields = true), mutate: (c) => (c.spec.preserveUnknownFields = true), want: [] },
    {
      name: 'an unchanged approval state is not re-checked',
      old: (c) => Object.assign(c.spec, { group: 'x.k8s.io' }) && Object.assign(c.metadata, { name: 'widgets.x.k8s.io' }),
      mutate: (c) => Object.assign(c.spec, { group: 'x.k8s.io' }),
      want: [],
    },
    {
      name: 'approval state changed to invalid',
      old: (c) => Object.assign(c.spec, { group: 'x.k8s.io' }),
      mutate: (c) => {
        c.spec.group = 'x.k8s.io';
        c.metadata.annotations = { 'api-approved.kubernetes.io': 'later' };
      },
      want: [
        'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "later": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const old = baseCrd();
      c.old(old);
      const now = structuredClone(old);
      c.mutate(now);
      assert.deepEqual(render(validateCrdUpdate(now, old, fakeDeps().deps)), c.want);
    });
  }
});

describe('updateOptions: rules relaxed when the stored CRD breaks them', () => {
  const strict = createOptions();
  const cases: { name: string; old: (c: CustomResourceDefinition) => void; facts?: Parameters<typeof updateOptions>[1]; want: Partial<ValidationOptions> }[] = [
    { name: 'a valid old CRD: create\'s options', old: () => {}, want: {} },
    { name: 'established: names immutable', old: established, want: { requireImmutableNames: true } },
    {
      name: 'webhook with only unknown review versions',
      old: (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a' }, conversionReviewVersions: ['v9'] } }),
      want: { requireRecognizedConversionReviewVersion: false },
    },
    { name: 'a version without schema', old: (c) => delete c.spec.versions[0]!.schema, want: { requireOpenAPISchema: false } },
    { name: 'an invalid type', old: (c) => ((rootOf(c).properties!.spec! as { type?: string }).type = 'map'), want: { requireValidPropertyType: false } },
    {
      name: 'a set of granular maps',
      old: (c) => (rootOf(c).properties!.spec!.properties!.tags = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } }),
      want: { requireAtomicSetType: false },
    },
    {
      name: 'a map list key neither required nor defaulted',
      old: (c) => (rootOf(c).properties!.spec!.properties!.ports = { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } }),
      want: { requireMapListKeysMapSetValidation: false },
    },
    { name: 'non-structural (crd-schema says so)', old: () => {}, facts: { isNonStructural: () => true }, want: { requireStructuralSchema: false } },
    { name: 'unpruned defaults (crd-schema says so)', old: () => {}, facts: { hasUnprunedDefaults: () => true }, want: { requirePrunedDefaults: false } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const old = baseCrd();
      c.old(old);
      assert.deepEqual(updateOptions(old, c.facts), { ...strict, ...c.want });
    });
  }

  it('the options reach the schema callbacks, with structural schemas still required of a pruning CRD', () => {
    const old = baseCrd();
    (rootOf(old).properties!.spec! as { type?: string }).type = 'map';
    const { deps, calls } = fakeDeps({}, { isNonStructural: () => true });
    validateCrdUpdate(structuredClone(old), old, deps);
    assert.equal(calls[0]!.opts.requireValidPropertyType, false);
    assert.equal(calls[0]!.opts.requireStructuralSchema, true);
  });

  it('without a required schema, a served version without one is still refused (everything would be pruned)', () => {
    const old = baseCrd();
    old.spec.versions.push({ name: 'v2', served: false, storage: false });
    const now = structuredClone(old);
    now.spec.versions[1]!.served = true;
    assert.deepEqual(render(validateCrdUpdate(now, old, fakeDeps().deps)), ['spec.versions[1].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned']);
  });

  it('unknown review versions may stay when they were there', () => {
    const old = baseCrd();
    old.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a' }, conversionReviewVersions: ['v9'] } };
    assert.deepEqual(validateCrdUpdate(structuredClone(old), old, fakeDeps().deps), []);
    assert.equal(validateCrdUpdate(structuredClone(old), baseCrd(), fakeDeps().deps).length, 1);
  });
});

describe('validateCrdStatusUpdate', () => {
  it('checks acceptedNames only', () => {
    const old = baseCrd();
    const now = structuredClone(old);
    now.status = { acceptedNames: { plural: 'widgets', kind: 'Widget', listKind: 'Widget', shortNames: ['W'] }, storedVersions: [] };
    assert.deepEqual(render(validateCrdStatusUpdate(now, old)), [
      'status.acceptedNames.shortNames[0]: Invalid value: "W": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
      'status.acceptedNames.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ]);
  });
});

describe('crdNameErrors (the name rule for metadata validation)', () => {
  const spec = baseCrd().spec;
  const cases: [string, boolean, string[]][] = [
    ['widgets.example.com', false, []],
    ['gadgets.example.com', false, ['must be spec.names.plural+"."+spec.group']],
    ['Widgets.example.com', false, ["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", 'must be spec.names.plural+"."+spec.group']],
    ['widgets-', true, ['must be spec.names.plural+"."+spec.group']],
  ];
  for (const [name, prefix, want] of cases) it(`${name}${prefix ? ' (generateName)' : ''}`, () => assert.deepEqual(crdNameErrors(name, prefix, spec), want));
});
