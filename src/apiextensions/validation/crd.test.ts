// ValidateCustomResourceDefinition of kube v1.27, rule by rule: each row
// changes a valid CRD and lists every error kube reports, rendered as the
// Status causes are ("field: Invalid value: …: detail").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../types.js';
import { validateCrdCreate } from './crd.js';
import { baseCrd, fakeDeps, render } from './testfixtures.js';

const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123 = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const V = (name: string, served: boolean, storage: boolean) =>
  `apiextensions.CustomResourceDefinitionVersion{Name:"${name}", Served:${served}, Storage:${storage}, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}`;
const URL_FORM = '; desired format: https://host[/path]';

type Row = { name: string; mutate: (c: CustomResourceDefinition) => void; want: string[] };

const secondVersion = (c: CustomResourceDefinition, extra: object = {}) => {
  c.spec.versions.push({ ...structuredClone(c.spec.versions[0]!), name: 'v2', storage: false, ...extra });
};
const webhook = (c: CustomResourceDefinition, w: NonNullable<CustomResourceDefinition['spec']['conversion']>['webhook']) => {
  c.spec.conversion = { strategy: 'Webhook', webhook: w };
};

const rows: Row[] = [
  { name: 'a valid CRD', mutate: () => {}, want: [] },
  {
    name: 'an empty spec gives errors, not a crash',
    mutate: (c) => {
      c.spec = {} as CustomResourceDefinition['spec'];
      c.status = {};
    },
    want: [
      'spec.group: Required value',
      'spec.scope: Required value',
      'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion(nil): must have exactly one version marked as storage version',
      'spec.names.plural: Required value',
      'spec.names.singular: Required value',
      'spec.names.kind: Required value',
      'spec.names.listKind: Required value',
      'status.storedVersions: Invalid value: []string(nil): must have at least one stored version',
    ],
  },
  // group
  { name: 'group missing', mutate: (c) => (c.spec.group = ''), want: ['spec.group: Required value'] },
  { name: 'group without a dot', mutate: (c) => (c.spec.group = 'example'), want: ['spec.group: Invalid value: "example": should be a domain with at least one dot'] },
  { name: 'group not a DNS subdomain', mutate: (c) => (c.spec.group = 'Example.com'), want: [`spec.group: Invalid value: "Example.com": ${DNS1123}`] },
  // scope
  { name: 'scope missing', mutate: (c) => (c.spec.scope = ''), want: ['spec.scope: Required value'] },
  { name: 'scope unknown', mutate: (c) => (c.spec.scope = 'Global'), want: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'] },
  // schemas
  { name: 'a version without schema', mutate: (c) => delete c.spec.versions[0]!.schema, want: ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required'] },
  {
    name: 'one of two versions without schema (not hoisted)',
    mutate: (c) => secondVersion(c, { schema: undefined }),
    want: ['spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required'],
  },
  // versions
  {
    name: 'two storage versions',
    mutate: (c) => secondVersion(c, { storage: true }),
    want: [
      `spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${V('v1', true, true)}, ${V('v2', true, true)}}: must have exactly one version marked as storage version`,
      // prepare records only the first storage version
      `status.storedVersions: Invalid value: ${V('v2', true, true)}: must have the storage version v2`,
    ],
  },
  {
    name: 'no storage version (storedVersions left empty by prepare)',
    mutate: (c) => {
      c.spec.versions[0]!.storage = false;
      c.status!.storedVersions = [];
    },
    want: [
      `spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${V('v1', true, false)}}: must have exactly one version marked as storage version`,
      'status.storedVersions: Invalid value: []string{}: must have at least one stored version',
    ],
  },
  {
    name: 'no versions',
    mutate: (c) => {
      c.spec.versions = [];
      c.status!.storedVersions = null;
    },
    want: ['spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{}: must have exactly one version marked as storage version', 'status.storedVersions: Invalid value: []string(nil): must have at least one stored version'],
  },
  {
    name: 'duplicate version names',
    mutate: (c) => secondVersion(c, { name: 'v1' }),
    want: [`spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${V('v1', true, true)}, ${V('v1', true, false)}}: must contain unique version names`],
  },
  {
    name: 'first version name not a DNS-1035 label (reported again as spec.version)',
    mutate: (c) => {
      c.spec.versions[0]!.name = 'V1';
      c.status!.storedVersions = ['V1'];
    },
    want: [`spec.versions[0].name: Invalid value: "V1": ${DNS1035}`, `spec.version: Invalid value: "V1": ${DNS1035}`],
  },
  { name: 'not-served storage version is fine', mutate: (c) => (c.spec.versions[0]!.served = false), want: [] },
  // deprecationWarning
  { name: 'deprecationWarning on a version not deprecated', mutate: (c) => (c.spec.versions[0]!.deprecationWarning = 'old'), want: ['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions'] },
  {
    name: 'deprecationWarning empty',
    mutate: (c) => Object.assign(c.spec.versions[0]!, { deprecated: true, deprecationWarning: '' }),
    want: ['spec.versions[0].deprecationWarning: Invalid value: "": must not be an empty string'],
  },
  {
    name: 'deprecationWarning too long',
    mutate: (c) => Object.assign(c.spec.versions[0]!, { deprecated: true, deprecationWarning: 'x'.repeat(257) }),
    want: [`spec.versions[0].deprecationWarning: Invalid value: "${'x'.repeat(257)}": must be <= 256 characters long`],
  },
  {
    name: 'deprecationWarning with a control character (index in bytes)',
    mutate: (c) => Object.assign(c.spec.versions[0]!, { deprecated: true, deprecationWarning: 'é\tx' }),
    want: ['spec.versions[0].deprecationWarning: Invalid value: "é\\tx": must only contain printable UTF-8 characters; non-printable character found at index 2'],
  },
  { name: 'deprecationWarning on a deprecated version', mutate: (c) => Object.assign(c.spec.versions[0]!, { deprecated: true, deprecationWarning: 'use v2 — soon' }), want: [] },
  // names
  {
    name: 'names required',
    mutate: (c) => (c.spec.names = { plural: '', kind: '' }),
    want: ['spec.names.plural: Required value', 'spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value'],
  },
  {
    name: 'names not DNS-1035 labels',
    mutate: (c) => (c.spec.names = { plural: 'Widgets', singular: 'wid_get', kind: 'Wid_get', listKind: 'Wid_getList', shortNames: ['ok', 'Bad'], categories: ['all', '1x'] }),
    want: [
      `spec.names.plural: Invalid value: "Widgets": ${DNS1035}`,
      `spec.names.singular: Invalid value: "wid_get": ${DNS1035}`,
      `spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.listKind: Invalid value: "Wid_getList": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.shortNames[1]: Invalid value: "Bad": ${DNS1035}`,
      `spec.names.categories[1]: Invalid value: "1x": ${DNS1035}`,
    ],
  },
  { name: 'kind equal to listKind', mutate: (c) => (c.spec.names.listKind = 'Widget'), want: ['spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same'] },
  // subresources
  {
    name: 'scale paths missing',
    mutate: (c) => (c.spec.versions[0]!.subresources = { scale: { specReplicasPath: '', statusReplicasPath: '' } }),
    want: ['spec.subresources.scale.specReplicasPath: Required value', 'spec.subresources.scale.statusReplicasPath: Required value'],
  },
  {
    name: 'scale paths of the wrong form',
    mutate: (c) => (c.spec.versions[0]!.subresources = { scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' } }),
    want: [
      'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
      'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
    ],
  },
  {
    name: 'scale paths in a version of their own',
    mutate: (c) => secondVersion(c, { subresources: { scale: { specReplicasPath: '.status.x', statusReplicasPath: '.status.replicas' } } }),
    want: ['spec.versions[1].subresources.scale.specReplicasPath: Invalid value: ".status.x": should be a json path under .spec'],
  },
  { name: 'valid scale and status', mutate: (c) => (c.spec.versions[0]!.subresources = { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } }), want: [] },
  // printer columns
  {
    name: 'printer columns shared by every version are reported at the top',
    mutate: (c) => {
      c.spec.versions[0]!.additionalPrinterColumns = [{ name: '', type: 'float', format: 'percent', jsonPath: 'spec.x' }, { name: 'Age', type: '', jsonPath: '' }];
      secondVersion(c);
    },
    want: [
      'spec.additionalPrinterColumns[0].name: Required value',
      'spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].format: Invalid value: "percent": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
      'spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[1].JSONPath: Required value',
    ],
  },
  {
    name: 'printer columns that differ are reported per version',
    mutate: (c) => secondVersion(c, { additionalPrinterColumns: [{ name: 'X', type: 'text', jsonPath: '.spec.x' }] }),
    want: ['spec.versions[1].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string'],
  },
  // conversion
  { name: 'conversion strategy unknown', mutate: (c) => (c.spec.conversion = { strategy: 'Magic' }), want: ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"'] },
  {
    name: 'webhook conversion without webhook',
    mutate: (c) => (c.spec.conversion = { strategy: 'Webhook' }),
    want: ['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook', 'spec.conversion.conversionReviewVersions: Required value'],
  },
  {
    name: 'webhook with url and service',
    mutate: (c) => webhook(c, { clientConfig: { url: 'https://a', service: { namespace: 'n', name: 's', port: 443 } }, conversionReviewVersions: ['v1'] }),
    want: ['spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required'],
  },
  {
    name: 'webhook url over http with user, query and fragment',
    mutate: (c) => webhook(c, { clientConfig: { url: 'http://u:p@host/convert?x=1#frag' }, conversionReviewVersions: ['v1'] }),
    want: [
      `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${URL_FORM}`,
      'spec.conversion.webhookClientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
    ],
  },
  {
    name: 'webhook url without scheme nor host',
    mutate: (c) => webhook(c, { clientConfig: { url: 'convert' }, conversionReviewVersions: ['v1'] }),
    want: [`spec.conversion.webhookClientConfig.url: Invalid value: "": 'https' is the only allowed URL scheme${URL_FORM}`, `spec.conversion.webhookClientConfig.url: Invalid value: "": host must be specified${URL_FORM}`],
  },
  {
    name: 'webhook url Go cannot parse',
    mutate: (c) => webhook(c, { clientConfig: { url: '://x' }, conversionReviewVersions: ['v1'] }),
    want: [`spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse "://x": missing protocol scheme${URL_FORM}`],
  },
  {
    name: 'webhook service with bad fields',
    mutate: (c) => webhook(c, { clientConfig: { service: { namespace: '', name: '', port: 70000, path: 'a//B' } }, conversionReviewVersions: ['v1'] }),
    want: [
      'spec.conversion.webhookClientConfig.service.name: Required value: service name is required',
      'spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required',
      'spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      `spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": must start with a '/'`,
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
      `spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[2]: ${DNS1123}`,
    ],
  },
  {
    name: 'conversionReviewVersions unknown, duplicate, not labels',
    mutate: (c) => webhook(c, { clientConfig: { service: { namespace: 'n', name: 's', port: 443 } }, conversionReviewVersions: ['v2', 'v2', 'V3'] }),
    want: [
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      `spec.conversion.conversionReviewVersions[2]: Invalid value: "V3": ${DNS1035}`,
      'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2", "V3"}: must include at least one of v1, v1beta1',
    ],
  },
  { name: 'valid webhook conversion', mutate: (c) => webhook(c, { clientConfig: { url: 'https://conv.example.com/convert', caBundle: 'Zm9v' }, conversionReviewVersions: ['v2', 'v1'] }), want: [] },
  {
    name: 'None conversion with webhook settings',
    mutate: (c) => (c.spec.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://a' }, conversionReviewVersions: ['v1'] } }),
    want: ['spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook', 'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook'],
  },
  // preserveUnknownFields
  { name: 'preserveUnknownFields true', mutate: (c) => (c.spec.preserveUnknownFields = true), want: ['spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'] },
  {
    name: 'preserveUnknownFields true with webhook conversion and defaults',
    mutate: (c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.spec!.default = {};
      webhook(c, { clientConfig: { url: 'https://a' }, conversionReviewVersions: ['v1'] });
    },
    want: [
      'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
      'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ],
  },
  // the root of the schema with the status subresource
  {
    name: 'status subresource with a non-object root',
    mutate: (c) => {
      c.spec.versions[0]!.subresources = { status: {} };
      c.spec.versions[0]!.schema!.openAPIV3Schema!.type = 'array';
    },
    want: ['spec.validation.openAPIV3Schema.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled'],
  },
  {
    name: 'nullable root without status subresource',
    mutate: (c) => (c.spec.versions[0]!.schema!.openAPIV3Schema!.nullable = true),
    want: ['spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root'],
  },
  // status
  {
    name: 'storedVersions without the storage version, with an unknown one',
    mutate: (c) => (c.status!.storedVersions = ['v0']),
    want: [`status.storedVersions: Invalid value: ${V('v1', true, true)}: must have the storage version v1`, 'status.storedVersions[0]: Invalid value: "v0": must appear in spec.versions'],
  },
  { name: 'acceptedNames checked like names', mutate: (c) => (c.status!.acceptedNames = { plural: 'Widgets', kind: 'Widget' }), want: [`status.acceptedNames.plural: Invalid value: "Widgets": ${DNS1035}`] },
  // API approval
  {
    name: 'protected group without approval',
    mutate: (c) => (c.spec.group = 'widgets.k8s.io'),
    want: ['metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111'],
  },
  {
    name: 'protected group with an approval that is no URL',
    mutate: (c) => {
      c.spec.group = 'x.kubernetes.io';
      c.metadata.annotations = { 'api-approved.kubernetes.io': 'yes' };
    },
    want: [
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
  },
  {
    name: 'svc.io group without approval names the svc.io annotation',
    mutate: (c) => (c.spec.group = 'widgets.svc.io'),
    want: ['metadata.annotations[api-approved.svc.io]: Required value: protected groups must have approval annotation "api-approved.svc.io", see https://github.com/kubernetes/enhancements/pull/1111'],
  },
  {
    name: 'protected group approved by URL',
    mutate: (c) => {
      c.spec.group = 'widgets.k8s.io';
      c.metadata.annotations = { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/78458' };
    },
    want: [],
  },
  {
    name: 'protected group bypassed with unapproved',
    mutate: (c) => {
      c.spec.group = 'widgets.k8s.io';
      c.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, experimental-only' };
    },
    want: [],
  },
];

describe('validateCrdCreate: kube v1.27 rules and messages', () => {
  for (const row of rows) {
    it(row.name, () => {
      const c = baseCrd();
      row.mutate(c);
      assert.deepEqual(render(validateCrdCreate(c, fakeDeps().deps)), row.want);
    });
  }

  it('status subresource with a keyword not allowed at the root prints the root schema as Go does', () => {
    const c = baseCrd();
    c.spec.versions[0]!.subresources = { status: {} };
    c.spec.versions[0]!.schema!.openAPIV3Schema = { type: 'object', 'x-kubernetes-map-type': 'granular', required: ['spec'] };
    const got = render(validateCrdCreate(c, fakeDeps().deps));
    assert.deepEqual(got, [
      'spec.validation.openAPIV3Schema: Invalid value: apiextensions.JSONSchemaProps{ID:"", Schema:"", Ref:(*string)(nil), Description:"", Type:"object", Nullable:false, Format:"", Title:"", Default:(*apiextensions.JSON)(nil), Maximum:(*float64)(nil), ExclusiveMaximum:false, Minimum:(*float64)(nil), ExclusiveMinimum:false, MaxLength:(*int64)(nil), MinLength:(*int64)(nil), Pattern:"", MaxItems:(*int64)(nil), MinItems:(*int64)(nil), UniqueItems:false, MultipleOf:(*float64)(nil), Enum:[]apiextensions.JSON(nil), MaxProperties:(*int64)(nil), MinProperties:(*int64)(nil), Required:[]string{"spec"}, Items:(*apiextensions.JSONSchemaPropsOrArray)(nil), AllOf:[]apiextensions.JSONSchemaProps(nil), OneOf:[]apiextensions.JSONSchemaProps(nil), AnyOf:[]apiextensions.JSONSchemaProps(nil), Not:(*apiextensions.JSONSchemaProps)(nil), Properties:map[string]apiextensions.JSONSchemaProps(nil), AdditionalProperties:(*apiextensions.JSONSchemaPropsOrBool)(nil), PatternProperties:map[string]apiextensions.JSONSchemaProps(nil), Dependencies:apiextensions.JSONSchemaDependencies(nil), AdditionalItems:(*apiextensions.JSONSchemaPropsOrBool)(nil), Definitions:apiextensions.JSONSchemaDefinitions(nil), ExternalDocs:(*apiextensions.ExternalDocumentation)(nil), Example:(*apiextensions.JSON)(nil), XPreserveUnknownFields:(*bool)(nil), XEmbeddedResource:false, XIntOrString:false, XListMapKeys:[]string(nil), XListType:(*string)(nil), XMapType:(*string)(0xc000000000), XValidations:apiextensions.ValidationRules(nil)}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
    ]);
  });
});
