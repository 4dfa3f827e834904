// ValidatingAdmissionPolicy (kube's pkg/admission/plugin/validatingadmissionpolicy,
// v1.27): CEL validations of admitted requests, configured by
// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding objects
// (admissionregistration.svc.io/v1alpha1). One concept per file:
//
//   source.ts       policies and bindings read per request, each policy compiled once per stored version
//   policy.ts       a compiled policy (src/admission/matchconditions does the compiling and evaluating)
//   matching.ts     matchConstraints and a binding's matchResources (the webhooks' rules and selectors)
//   params.ts       paramKind and a binding's paramRef
//   validator.ts    one binding: matchConditions, validations, messages, audit annotations → decisions
//   denial.ts       the 4xx a denial answers
//   annotations.ts  audit annotations
//   typecheck.ts    status.typeChecking (the policy status controller: ../../../controllers/)
//
// The plugin acts only with the ValidatingAdmissionPolicy gate on (it is in
// the default-on set; kube's InspectFeatureGates); without
// --runtime-config=admissionregistration.svc.io/v1alpha1=true there are no
// policies to read. Writes of policies and bindings themselves are exempt.
// For each policy that matches the request: a configuration error (its
// paramKind names nothing served; a binding's missing param; a namespace that
// does not exist) decides by failurePolicy; each matching binding's decisions
// are enforced by its validationActions — Deny refuses (the first denial
// answers), Warn adds a warning, Audit an audit annotation.
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import type { Authorizer } from '../../../authz/authorizer.js';
import type { FeatureGates } from '../../../features/gates.js';
import { canonicalGroup } from '../../../endpoints/requestinfo.js';
import type { Registry, ServedResource } from '../../../registry/registry.js';
import type { AdmissionCelEngine } from '../../matchconditions/engine.js';
import { EquivalentResources } from '../../webhooks/equivalence.js';
import { namespaceLabelsOf } from '../../webhooks/index.js';
import { admissionRequestOf } from '../../matchconditions/request.js';
import type { AdmissionActivation, AuthorizerInput } from '../../matchconditions/engine.js';
import { RUNTIME_CEL_COST_BUDGET } from '../../matchconditions/limits.js';
import { requestView, target, type MatchDeps, type RequestView } from '../../webhooks/match.js';
import type { RuleTarget } from '../../webhooks/rules.js';
import { toWebhookVersion } from '../../webhooks/versioned.js';
import { AuditAnnotationCollector, publishValidationFailure } from './annotations.js';
import { denialError, type DeniedDecision } from './denial.js';
import { matches, type MatchOutcome, type MatchResources, type NamespaceLookup } from './matching.js';
import type { GroupVersionKind } from '../../webhooks/equivalence.js';
import { ParamKindError, readParam, resolveParamKind } from './params.js';
import { PolicySource, type Binding, type PolicyEntry } from './source.js';
import type { CompiledPolicy } from './policy.js';
import { validate, type ValidateResult } from './validator.js';

export const PLUGIN_NAME = 'ValidatingAdmissionPolicy';
export const GATE = 'ValidatingAdmissionPolicy';
const ADMISSIONREGISTRATION = 'admissionregistration.svc.io';

export interface PolicyPluginDeps extends MatchDeps {
  readonly source: PolicySource;
  readonly gates: FeatureGates;
  readonly authorizer: Authorizer;
  /** The served resources (paramKind lookup). */
  readonly resources: () => readonly ServedResource[];
  /** A binding's param in its kind's version; rejects with kube's NotFound. */
  readonly readParam: (r: ServedResource, ref: { name: string; namespace: string }) => Promise<Record<string, unknown>>;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function isPolicyResource(a: AdmissionAttributes): boolean {
  return canonicalGroup(a.resource.group) === ADMISSIONREGISTRATION
    && (a.resource.resource === 'validatingadmissionpolicies' || a.resource.resource === 'validatingadmissionpolicybindings');
}

function gateOn(gates: FeatureGates): boolean {
  try {
    return gates.enabled(GATE);
  } catch {
    return false;
  }
}

/**
 * One request's evaluation: what is denied so far; the request variable, the
 * namespace's labels and the object in each kind made once. Matching and
 * evaluating are synchronous; a request waits only to look up its namespace
 * (once), a binding's param, or an authorizer that answers asynchronously.
 */
class Evaluation {
  readonly denied: DeniedDecision[] = [];
  namespace: NamespaceLookup | undefined;
  private request: Record<string, unknown> | undefined;
  private authz: AuthorizerInput | undefined;
  private readonly objects = new Map<string, { object: unknown; oldObject: unknown }>();
  private lastKind: unknown;
  private own: RuleTarget | undefined;
  private lastObjects: { object: unknown; oldObject: unknown } | undefined;
  private readonly plainVars = new Map<object, AdmissionActivation>();
  constructor(readonly a: AdmissionAttributes, readonly req: RequestView, readonly deps: PolicyPluginDeps) {}

  /** kube's addConfigError: per the policy's failurePolicy. */
  configError(p: CompiledPolicy, b: Binding | undefined, err: string): void {
    if (p.failurePolicy === 'Ignore') return;
    const message = p.failurePolicy === 'Fail'
      ? `${b ? 'failed to configure binding' : 'failed to configure policy'}: ${err}`
      : `unrecognized failure policy: '${p.failurePolicy}'`;
    this.denied.push({ policy: p.name, binding: b?.name, message, reason: undefined });
  }

  /** Looks the request's namespace up (once). */
  async lookUpNamespace(): Promise<void> {
    if (this.namespace) return;
    const { a } = this;
    const name = a.resource.group === '' && a.resource.resource === 'namespaces' ? a.name : a.namespace;
    try {
      this.namespace = { labels: await this.deps.namespaceLabels(name) };
    } catch (err) {
      this.namespace = { error: err };
    }
  }

  /** Matching (matching.ts) with this request's namespace lookup. */
  matches(m: MatchResources): MatchOutcome | 'lookup' {
    return matches(m, this.a, this.req, this.deps, this.namespace, (this.own ??= target(this.a, this.req.resource, this.req.subresource)));
  }

  requestVar(): Record<string, unknown> {
    return (this.request ??= admissionRequestOf(this.a, this.req));
  }

  /** One per request: the engine keeps the request's authorization decisions with it. */
  authorizerInput(): AuthorizerInput {
    const { a, req } = this;
    return (this.authz ??= {
      user: a.user ?? { name: '', groups: [] }, authorizer: this.deps.authorizer,
      resource: { ...req.resource, subresource: req.subresource, namespace: a.namespace, name: a.name },
    });
  }

  /** The object and old object in the kind a policy matched (kube's VersionedAttributes); throws when a conversion fails. */
  versioned(kind: { group: string; version: string; kind: string }): { object: unknown; oldObject: unknown } {
    if (kind === this.lastKind) return this.lastObjects!;
    const key = `${kind.group}/${kind.version}/${kind.kind}`;
    let o = this.objects.get(key);
    if (!o) {
      o = { object: toWebhookVersion(this.a.object, kind, false) ?? null, oldObject: toWebhookVersion(this.a.oldObject, kind, false) ?? null };
      this.objects.set(key, o);
    }
    this.lastKind = kind;
    this.lastObjects = o;
    return o;
  }

  /** The variables of a binding without params, made once per kind. */
  varsFor(objects: { object: unknown; oldObject: unknown }, params: unknown): AdmissionActivation {
    if (params !== null) return { object: objects.object, oldObject: objects.oldObject, params, request: this.requestVar(), authorizer: this.authorizerInput() };
    let v = this.plainVars.get(objects);
    if (!v) this.plainVars.set(objects, (v = { object: objects.object, oldObject: objects.oldObject, params: null, request: this.requestVar(), authorizer: this.authorizerInput() }));
    return v;
  }
}

/** What one policy decides: its own match and configuration, then each binding (bindingStep). */
class PolicyRun {
  private collector: AuditAnnotationCollector | undefined;
  private paramResource: ServedResource | undefined;
  private kind!: GroupVersionKind;
  constructor(private readonly ev: Evaluation, private readonly entry: PolicyEntry) {}

  /** Synchronous unless a binding waits (then the rest of the bindings follow in the promise). */
  run(): void | Promise<void> {
    const { ev } = this;
    const p = this.entry.policy;
    let definition;
    try {
      definition = ev.matches(p.matchConstraints);
    } catch (err) {
      ev.configError(p, undefined, errorText(err));
      return;
    }
    if (definition === 'lookup') return ev.lookUpNamespace().then(() => this.run());
    if (!definition.matches) return;
    this.kind = definition.kind;
    if (p.paramKind) {
      try {
        this.paramResource = resolveParamKind(ev.deps.resources(), p.paramKind);
      } catch (err) {
        if (!(err instanceof ParamKindError)) throw err;
        ev.configError(p, undefined, err.message);
        return;
      }
    }
    return this.bindingsFrom(0);
  }

  private bindingsFrom(start: number): void | Promise<void> {
    const bindings = this.entry.bindings;
    for (let i = start; i < bindings.length; i++) {
      const waiting = this.binding(bindings[i]!);
      if (waiting) return waiting.then(() => this.bindingsFrom(i + 1));
    }
    this.collector?.publish(this.entry.policy.name, this.ev.a);
  }

  private binding(b: Binding, params: unknown = null): void | Promise<void> {
    const { ev } = this;
    const p = this.entry.policy;
    if (b.matchResources) {
      let m;
      try {
        m = ev.matches(b.matchResources);
      } catch (err) {
        ev.configError(p, b, errorText(err));
        return;
      }
      if (m === 'lookup') return ev.lookUpNamespace().then(() => this.binding(b, params));
      if (!m.matches) return;
    }
    if (this.paramResource && b.paramRef && params === null) {
      return ev.deps.readParam(this.paramResource, b.paramRef).then(
        (param) => this.evaluate(b, param),
        (err) => ev.configError(p, b, errorText(err)),
      );
    }
    return this.evaluate(b, params);
  }

  private evaluate(b: Binding, params: unknown): void | Promise<void> {
    const { ev } = this;
    const p = this.entry.policy;
    let objects;
    try {
      objects = ev.versioned(this.kind);
    } catch (err) {
      ev.configError(p, b, `failed to convert object version: ${errorText(err)}`);
      return;
    }
    const vars = ev.varsFor(objects, params);
    const result = validate(p, vars, RUNTIME_CEL_COST_BUDGET);
    if (result.pending) return result.pending.then(() => this.evaluate(b, params));
    this.enforce(b, result);
  }

  private enforce(b: Binding, result: ValidateResult): void {
    const { ev } = this;
    const p = this.entry.policy;
    const decisions = result.decisions;
    for (let i = 0; i < decisions.length; i++) {
      const d = decisions[i]!;
      if (d.action !== 'deny') continue;
      for (const action of b.validationActions) {
        if (action === 'Deny') ev.denied.push({ policy: p.name, binding: b.name, message: d.message, reason: d.reason });
        else if (action === 'Audit') publishValidationFailure(ev.a, { policy: b.policyName, binding: b.name, index: i, message: d.message, actions: b.validationActions });
        else if (action === 'Warn') ev.a.warn?.(`Validation failed for ValidatingAdmissionPolicy '${p.name}' with binding '${b.name}': ${d.message}`);
      }
    }
    for (const r of result.auditAnnotations) {
      if (r.action === 'publish') (this.collector ??= new AuditAnnotationCollector()).add(r.key, r.value);
      else if (r.action === 'error') ev.denied.push({ policy: p.name, binding: b.name, message: r.error, reason: undefined });
    }
  }
}

export function validatingAdmissionPolicyPlugin(deps: PolicyPluginDeps): AdmissionPlugin {
  const enabled = gateOn(deps.gates);
  async function check(a: AdmissionAttributes): Promise<void> {
    const entries = await deps.source.load();
    if (entries.length === 0) return;
    const ev = new Evaluation(a, requestView(a, deps.equivalents), deps);
    for (const entry of entries) {
      const waiting = new PolicyRun(ev, entry).run();
      if (waiting) await waiting;
    }
    const first = ev.denied[0];
    if (first) throw denialError(a, first);
  }
  return {
    name: PLUGIN_NAME,
    // with the gate off (v1.27's default) or for the policy resources themselves, answered at once: no promise
    admit(a) {
      if (!enabled || isPolicyResource(a)) return;
      return check(a);
    },
  };
}

export interface PolicyPluginContext {
  readonly registry: Registry;
  readonly gates: FeatureGates;
  readonly authorizer: Authorizer;
  readonly celEngine: AdmissionCelEngine;
}

/** The plugin over a server's registry: policies and bindings from the watch cache, namespaces' labels, params of any served kind. */
export function validatingAdmissionPolicy(ctx: PolicyPluginContext): AdmissionPlugin {
  const { registry } = ctx;
  const lister = (resource: string) => {
    let store: ReturnType<Registry['store']> | null | undefined;
    return async () => {
      if (store === undefined) store = registry.has(ADMISSIONREGISTRATION, resource) ? registry.store(ADMISSIONREGISTRATION, resource) : null;
      return store ? store.listShared('', { kind: 'any' }) : [];
    };
  };
  let equivalents: EquivalentResources | undefined;
  return validatingAdmissionPolicyPlugin({
    source: new PolicySource(lister('validatingadmissionpolicies'), lister('validatingadmissionpolicybindings'), ctx.celEngine),
    gates: ctx.gates,
    authorizer: ctx.authorizer,
    namespaceLabels: namespaceLabelsOf(registry),
    get equivalents() {
      return (equivalents ??= new EquivalentResources(registry.resources()));
    },
    resources: () => registry.resources(),
    readParam: (r, ref) => readParam(registry, r, ref),
  });
}
