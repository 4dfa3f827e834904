// The strategy of a custom resource (kube's customResourceStrategy): names
// are DNS subdomains, generation is tracked, a status subresource makes the
// main resource ignore status and a create drop it, and validation is the
// definition's (schema, list types, embedded resources, rules) for the
// version the object is written in.
import type { FieldError } from '../../api/meta/index.js';
import { baseStrategy, type Strategy } from '../../registry/strategy.js';
import { subdomainName } from '../../registry/strategies/names.js';
import type { ApiObject } from '../../registry/object.js';

/** create, update of the main resource, or a /status write (kube's separate status strategy). */
export type ValidationOperation = 'create' | 'update' | 'status';

/** Validates an object (with the live one on updates) against one version of the definition. */
export type VersionValidator = (obj: ApiObject, old: ApiObject | undefined, operation: ValidationOperation) => FieldError[];

export interface CustomStrategyOptions {
  readonly namespaced: boolean;
  /** The storage version serves a status subresource. */
  readonly hasStatus: boolean;
  /** Validators by version name. */
  readonly validators: ReadonlyMap<string, VersionValidator>;
  readonly storageVersion: string;
}

export function customResourceStrategy(o: CustomStrategyOptions): Strategy {
  /** The request's version (versions convert only by apiVersion); the storage version's for the server's own writes. */
  const validatorOf = (version: string | undefined): VersionValidator | undefined =>
    (version !== undefined ? o.validators.get(version) : undefined) ?? o.validators.get(o.storageVersion);
  return baseStrategy({
    namespaced: o.namespaced,
    validateName: subdomainName,
    tracksGeneration: true,
    hasStatus: o.hasStatus,
    prepareForCreate(obj) {
      if (o.hasStatus) delete obj.status;
    },
    validate: (obj, version) => validatorOf(version)?.(obj, undefined, 'create') ?? [],
    validateUpdate: (obj, old, subresource, version) => validatorOf(version)?.(obj, old, subresource === 'status' ? 'status' : 'update') ?? [],
  });
}
