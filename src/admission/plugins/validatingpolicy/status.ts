// The policy status writer (kube's reconcilePolicyStatus, run by the plugin
// inside the API server): every policy whose status.observedGeneration is
// behind its generation gets status.typeChecking (typecheck.ts) and
// observedGeneration written through the status subresource as the server's
// own write; conditions are kept. A failed write is logged and left (kube:
// no requeue); the next change of the policy tries again.
import type { ApiObject } from '../../../registry/object.js';
import type { Registry } from '../../../registry/registry.js';
import type { Store } from '../../../storage/interface.js';
import { Informer } from '../../../controllers/informer.js';
import { trackWrite } from '../../../endpoints/fieldmanager.js';
import { schemaFor } from '../../../api/schemas.js';
import type { AdmissionCelEngine } from '../../matchconditions/engine.js';
import { admissionCelEngine } from '../../matchconditions/celengine.js';
import type { FeatureGates } from '../../../features/gates.js';
import { canonicalGroup } from '../../../endpoints/requestinfo.js';
import { toOpenAPI } from '../../../schema/openapi.js';
import { typeCheckPolicy, type TypeCheckDeps } from './typecheck.js';

const GROUP = 'admissionregistration.svc.io';
const RESOURCE = 'validatingadmissionpolicies';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The status a policy should have: typeChecking for its generation, the rest kept. */
export function policyStatus(engine: AdmissionCelEngine, policy: ApiObject, deps: TypeCheckDeps): Obj {
  const warnings = typeCheckPolicy(engine, policy as unknown as Obj, deps);
  return { ...obj((policy as unknown as Obj).status), observedGeneration: policy.metadata.generation ?? 0, typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} };
}

export class PolicyStatusController {
  private readonly informer: Informer;
  private readonly queue = new Map<string, ApiObject>();
  private running = false;
  private stopped = false;

  constructor(private readonly registry: Registry, storage: Store, private readonly engine: AdmissionCelEngine, private readonly deps: TypeCheckDeps) {
    this.informer = new Informer(registry, storage, { group: GROUP, resource: RESOURCE }, { onObject: (o) => this.enqueue(o) }, 'validating admission policy status');
  }

  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): void {
    this.stopped = true;
    this.informer.stop();
  }

  private enqueue(p: ApiObject): void {
    const observed = Number(obj((p as unknown as Obj).status).observedGeneration ?? 0);
    if (observed >= (p.metadata.generation ?? 0)) return;
    this.queue.set(p.metadata.name ?? '', p);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (!this.stopped && this.queue.size > 0) {
        const [name, p] = this.queue.entries().next().value as [string, ApiObject];
        this.queue.delete(name);
        await this.write(p).catch((err) => console.error(`svc: status of ValidatingAdmissionPolicy ${name}:`, err instanceof Error ? err.message : err));
      }
    } finally {
      this.running = false;
    }
  }

  private async write(p: ApiObject): Promise<void> {
    const next = { ...p, status: policyStatus(this.engine, p, this.deps) } as ApiObject;
    const version = p.apiVersion?.split('/')[1] ?? 'v1alpha1';
    await this.registry.store(GROUP, RESOURCE).update('', p.metadata.name!, next, {
      dryRun: false, subresource: 'status',
      track: (live, n) => trackWrite({ manager: 'svc-apiserver', apiVersion: `${GROUP}/${version}`, kind: 'ValidatingAdmissionPolicy', schema: schemaFor(GROUP, version, 'ValidatingAdmissionPolicy'), subresource: 'status' }, live, n),
    });
  }
}

/** Whether a server runs the status writer: the plugin enabled, its gate on, policies served. */
export function policyStatusWanted(plugins: readonly string[], registry: Registry, gates: FeatureGates): boolean {
  return plugins.includes('ValidatingAdmissionPolicy') && gates.enabled('ValidatingAdmissionPolicy') && registry.has(GROUP, RESOURCE);
}

/** The status writer over a server's registry: kinds from the served resources, schemas from ours (api/schemas.ts). */
export function policyStatusController(registry: Registry, storage: Store): PolicyStatusController {
  const schemas = new Map<string, Readonly<Record<string, unknown>> | undefined>();
  return new PolicyStatusController(registry, storage, admissionCelEngine(), {
    kindsFor: (group, version, resource) => {
      const r = registry.lookup(group, version, resource);
      return r ? [{ group: r.group, version: r.version, kind: r.kind }] : [];
    },
    schemaOf: (gvk) => {
      const key = `${canonicalGroup(gvk.group)}/${gvk.version}/${gvk.kind}`;
      if (!schemas.has(key)) {
        const s = schemaFor(canonicalGroup(gvk.group), gvk.version, gvk.kind);
        schemas.set(key, s ? (toOpenAPI(s) as Readonly<Record<string, unknown>>) : undefined);
      }
      return schemas.get(key);
    },
  });
}
