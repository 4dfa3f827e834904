// The CustomResourceDefinition as the custom-resource code reads it: plain
// TypeScript shapes of apiextensions.svc.io/v1 (the schema of the kind, with
// its descriptions and protobuf numbers, is src/api/apiextensions/v1/). A
// version's openAPIV3Schema is a JSONSchemaProps: the structural-schema model
// (src/schema/model.ts) plus what a CRD may also write (CEL rules, the
// logical junctors, and keywords structural schemas forbid but CRDs may carry
// and validation must report).
import type { JsonValue, Schema } from '../schema/model.js';

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
}

export interface JSONSchemaProps extends Omit<Schema, 'properties' | 'additionalProperties' | 'items'> {
  properties?: { [name: string]: JSONSchemaProps };
  /** A schema, or a boolean (true: anything; false: nothing). */
  additionalProperties?: JSONSchemaProps | boolean;
  /** A schema; an array of schemas is written by some clients and refused by validation. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-validations'?: ValidationRule[];
  title?: string;
  example?: JsonValue;
  externalDocs?: { description?: string; url?: string };
  multipleOf?: number;
  uniqueItems?: boolean;
  $ref?: string;
  $schema?: string;
  id?: string;
  patternProperties?: { [pattern: string]: JSONSchemaProps };
  dependencies?: { [name: string]: JSONSchemaProps | string[] };
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: { [name: string]: JSONSchemaProps };
}

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of PEM certificates, as the JSON carries it. */
  caBundle?: string;
}

export interface CustomResourceConversion {
  strategy: 'None' | 'Webhook' | string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions: string[] };
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: 'Namespaced' | 'Cluster' | string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[] | null;
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[] | null;
}

export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    deletionTimestamp?: string;
    finalizers?: string[];
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [k: string]: unknown;
  };
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

/** The finalizer that makes a CRD's delete remove every custom resource first (kube: customresourcecleanup.apiextensions.k8s.io). */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.svc.io';
/** The Kubernetes spelling, accepted beside ours. */
export const CLEANUP_FINALIZER_K8S = 'customresourcecleanup.apiextensions.k8s.io';
