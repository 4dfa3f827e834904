// The strategy of a custom resource (kube's customResourceStrategy): names
// are DNS subdomains, generation is tracked, a status subresource makes the
// main resource ignore status and a create drop it, and validation is the
// definition's (schema, list types, embedded resources, rules) for the
// version the object is written in.
import type { FieldError } from '../../api/meta/index.js';
import { baseStrategy, type Strategy } from '../../registry/strategy.js';
import { subdomainName } from '../../registry/strategies/names.js';
import type { ApiObject } from '../../registry/object.js';

/** Validates an object (with the live one on updates) against one version of the definition. */
export type VersionValidator = (obj: ApiObject, old: ApiObject | undefined) => FieldError[];

export interface CustomStrategyOptions {
  readonly namespaced: boolean;
  /** The storage version serves a status subresource. */
  readonly hasStatus: boolean;
  /** Validators by version name. */
  readonly validators: ReadonlyMap<string, VersionValidator>;
  readonly storageVersion: string;
}

export function customResourceStrategy(o: CustomStrategyOptions): Strategy {
  /** The object's own version (the request's: the store converts custom resources only by apiVersion). */
  const validatorOf = (obj: ApiObject): VersionValidator | undefined => {
    const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
    const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
    return o.validators.get(version) ?? o.validators.get(o.storageVersion);
  };
  return baseStrategy({
    namespaced: o.namespaced,
    validateName: subdomainName,
    tracksGeneration: true,
    hasStatus: o.hasStatus,
    prepareForCreate(obj) {
      if (o.hasStatus) delete obj.status;
    },
    validate: (obj) => validatorOf(obj)?.(obj, undefined) ?? [],
    validateUpdate: (obj, old) => validatorOf(obj)?.(obj, old) ?? [],
  });
}
