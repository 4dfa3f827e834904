// The per-kind validation registry: group (svc.io spelling, '' for core) and
// kind → validate / validateUpdate, each pure and returning FieldErrors in
// Kubernetes' order. Strategies look validators up here; parameters that come
// from flags (the node-port range) arrive through ValidationOptions.
import type { FieldError } from './meta/field.js';
import { type Obj } from './meta/checks.js';
import { type KindValidator, coreValidators, DEFAULT_NODE_PORT_RANGE } from './core/v1/validation.js';
import { appsValidators } from './apps/v1/validation.js';
import { batchValidators } from './batch/v1/validation.js';
import { rbacValidators } from './rbac/v1/validation.js';
import { admissionregistrationValidators } from './admissionregistration/v1/validation.js';
import { admissionregistrationV1alpha1Validators } from './admissionregistration/v1alpha1/validation.js';
import { admissionCelEngine } from '../admission/matchconditions/celengine.js';
import { coordinationValidators } from './coordination/v1/validation.js';
import { eventsValidators } from './events/v1/validation.js';
import { certificatesV1Validators } from './certificates/v1/validation.js';
import { certificatesV1alpha1Validators } from './certificates/v1alpha1/validation.js';

export type { KindValidator };

export interface ValidationOptions {
  /** --service-node-port-range, inclusive. */
  readonly nodePortRange: { readonly min: number; readonly max: number };
}

export const DEFAULT_VALIDATION_OPTIONS: ValidationOptions = { nodePortRange: DEFAULT_NODE_PORT_RANGE };

export interface ObjectValidator {
  validate(obj: object): FieldError[];
  validateUpdate(obj: object, old: object, subresource?: string): FieldError[];
}

/** Validators by group and kind; registering the same pair twice throws. */
export class ValidatorRegistry {
  private readonly byKey = new Map<string, ObjectValidator>();

  register(group: string, kind: string, v: KindValidator): void {
    const key = `${group}/${kind}`;
    if (this.byKey.has(key)) throw new Error(`validation: duplicate validator for ${group || 'core'} ${kind}`);
    this.byKey.set(key, {
      validate: (o) => v.validate(o as Obj),
      validateUpdate: (o, old, subresource) => v.validateUpdate(o as Obj, old as Obj, subresource),
    });
  }

  registerGroup(group: string, validators: Record<string, KindValidator>): void {
    for (const [kind, v] of Object.entries(validators)) this.register(group, kind, v);
  }

  get(group: string, kind: string): ObjectValidator | undefined {
    return this.byKey.get(`${group}/${kind}`);
  }

  /** Every registered `group/kind`, for tests and start-up checks. */
  keys(): string[] {
    return [...this.byKey.keys()].sort();
  }
}

export function buildValidators(opts: ValidationOptions = DEFAULT_VALIDATION_OPTIONS): ValidatorRegistry {
  const r = new ValidatorRegistry();
  r.registerGroup('', coreValidators({ service: { nodePortRange: opts.nodePortRange } }));
  r.registerGroup('apps', appsValidators());
  r.registerGroup('batch', batchValidators());
  r.registerGroup('rbac.authorization.svc.io', rbacValidators());
  // policy and matchConditions expressions must compile (kube's registration-time CEL checks)
  r.registerGroup('admissionregistration.svc.io', { ...admissionregistrationValidators(admissionCelEngine()), ...admissionregistrationV1alpha1Validators(admissionCelEngine()) });
  r.registerGroup('coordination.svc.io', coordinationValidators());
  r.registerGroup('events.svc.io', eventsValidators());
  r.registerGroup('certificates.svc.io', { ...certificatesV1Validators(), ...certificatesV1alpha1Validators() });
  return r;
}

let defaults: ValidatorRegistry | undefined;

/** The validator of a kind with the default options, or undefined when it has none beyond the schema. */
export function validatorFor(group: string, kind: string): ObjectValidator | undefined {
  defaults ??= buildValidators();
  return defaults.get(group, kind);
}
