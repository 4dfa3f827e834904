// The admission seam: the write path calls admit() at fixed points with the
// operation, the new and old objects, the user and dryRun. The admission
// issue fills in the chain (mutating then validating plugins, webhooks);
// here it holds NamespaceLifecycle, which the API server issue requires.
import type { UserInfo } from '../authn/user.js';
import type { ApiObject } from './object.js';
import { newBadRequest } from '../api/meta/index.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly object: ApiObject | undefined;
  readonly oldObject: ApiObject | undefined;
  readonly resource: { readonly group: string; readonly version: string; readonly resource: string; readonly kind: string };
  readonly namespace: string;
  readonly name: string;
  /** The subresource written ('status', 'eviction', 'token', 'finalizers'…), absent for the object itself. */
  readonly subresource?: string;
  readonly namespaced: boolean;
  readonly dryRun: boolean;
  readonly user: UserInfo | undefined;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating plugins run before the strategy's validation and may change the object; validating ones (the default) run after it. */
  readonly phase?: 'mutating' | 'validating';
  /**
   * What the plugin does besides answering (as admission webhooks declare it):
   * 'None' (the default: built-in plugins only read), 'NoneOnDryRun' (it
   * skips its side effects when the request is a dry run), 'Some'. A dry-run
   * request that reaches a plugin with side effects fails (spec "Dry run").
   */
  readonly sideEffects?: 'None' | 'NoneOnDryRun' | 'Some';
  /** Throws an API error (StatusError) to reject. */
  admit(a: AdmissionAttributes): Promise<void> | void;
}

/** Kubernetes' answer when a dry run meets an admission step that cannot promise to have no side effects. */
function dryRunUnsupported(p: AdmissionPlugin): Error {
  return newBadRequest(`admission webhook ${JSON.stringify(p.name)} does not support dry run`);
}

async function run(p: AdmissionPlugin, a: AdmissionAttributes): Promise<void> {
  if (a.dryRun && p.sideEffects === 'Some') throw dryRunUnsupported(p);
  await p.admit(a);
}

export class Admission {
  private readonly plugins: AdmissionPlugin[] = [];
  register(p: AdmissionPlugin): void {
    if (this.plugins.some((x) => x.name === p.name)) throw new Error(`admission plugin ${p.name} registered twice`);
    this.plugins.push(p);
  }
  /** The mutating phase: before validation. */
  async mutate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.phase === 'mutating') await run(p, a);
  }
  /** The validating phase: after validation, just before storage. */
  async admit(a: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.phase !== 'mutating') await run(p, a);
  }
}
