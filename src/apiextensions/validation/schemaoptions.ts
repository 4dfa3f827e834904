// The options of a CRD schema's validation (the part of kube's
// validationOptions that reaches a version's openAPIV3Schema; crd-spec's
// ValidationOptions, from createOptions / updateOptions, has them all), and
// the seam through which CEL code may add its errors to the walk (optional:
// crd-spec asks its ruleErrors dependency instead).
import type { FieldError } from '../../api/meta/field.js';
import type { JSONSchemaProps } from '../types.js';

/** One step from a schema node to a child CEL can see (kube's CELSchemaContext children). */
export type CelStep = { kind: 'property'; name: string } | { kind: 'items' } | { kind: 'additionalProperties' };

/** A schema node carrying x-kubernetes-validations, reached with no schema error at or below it. */
export interface CelRuleSite {
  /** The whole openAPIV3Schema. */
  root: JSONSchemaProps;
  /** The node itself. */
  schema: JSONSchemaProps;
  /** Its field path, e.g. spec.versions[0].schema.openAPIV3Schema.properties[spec]. */
  path: string;
  /** How the node is reached from the root (for the CEL type and the cardinality of the node). */
  steps: readonly CelStep[];
  /** Set when an ancestor list or map cannot be correlated: rules using oldSelf are refused "within" this path. */
  uncorrelatablePath?: string;
}

/** A default (already valid against its schema and its metadata rules) whose CEL rules are to be run. */
export interface CelDefaultSite {
  /** The node whose default it is. */
  schema: JSONSchemaProps;
  /** The field path of the default (…properties[x].default). */
  path: string;
  value: unknown;
  /** The node is a resource root (the openAPIV3Schema itself, or an embedded resource). */
  isResourceRoot: boolean;
}

/** What the CEL code plugs into a schema's validation; all optional. */
export interface CelSchemaHooks {
  /** Compile one node's rules: compile errors, per-rule cost; called only when the schema is structural. */
  rules(site: CelRuleSite): FieldError[];
  /** After the walk (structural schemas only): the total-cost errors of the whole schema. */
  total?(): FieldError[];
  /** Evaluate a default against the rules of its node (kube's ValidateDefaults runs them). */
  defaultRules?(site: CelDefaultSite): FieldError[];
}

/** kube's validationOptions, as far as a version's schema is concerned. */
export interface SchemaValidationOptions {
  /** `default` may be written (true for v1). */
  allowDefaults: boolean;
  /** Appended to "must not be set" when defaults are not allowed. */
  disallowDefaultsReason?: string;
  /** `type` must be one of OpenAPI v3's types. */
  requireValidPropertyType: boolean;
  /** The schema must be structural (always for apiextensions v1: preserveUnknownFields is false). */
  requireStructuralSchema: boolean;
  /** Defaults must survive pruning ("must not have unknown fields"). */
  requirePrunedDefaults: boolean;
  /** Items of x-kubernetes-list-type=set must be atomic. */
  requireAtomicSetType: boolean;
  /** Map-list keys required or defaulted and not nullable; set/map items not nullable. */
  requireMapListKeysMapSetValidation: boolean;
  cel?: CelSchemaHooks;
}
