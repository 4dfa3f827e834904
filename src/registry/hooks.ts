// Write hooks: the per-resource work a strategy cannot do because it needs
// storage — allocating and releasing cluster IPs and node ports for Services.
// Kubernetes calls them BeginCreate/BeginUpdate and AfterDelete. The order
// in the generic store:
//
//   create: beforeCreate → prepare → validate → admission → storage   (undo on any failure)
//   update: prepare → beforeUpdate → validate → admission → storage   (undo on any failure)
//   delete: storage → afterDelete                                       (not under dryRun)
//
// Under dryRun a hook fills the object as it would but reserves nothing.
// A hook may also refuse the write by throwing an API error (RBAC's
// escalation checks: src/authz/rbac/policybased.ts).
import type { UserInfo } from '../authn/user.js';
import type { ResourceRequestInfo } from '../endpoints/requestinfo.js';
import type { ApiObject } from './object.js';

/** What a hook knows of the write: dryRun, and for API requests the user and the request. */
export interface HookContext {
  readonly dryRun: boolean;
  readonly user?: UserInfo;
  readonly requestInfo?: ResourceRequestInfo;
}

/** Undoes what a before* hook reserved; called when the write does not happen. */
export type Undo = () => Promise<void>;

export interface WriteHooks {
  beforeCreate?(obj: ApiObject, ctx: HookContext): Promise<Undo | void>;
  beforeUpdate?(obj: ApiObject, old: ApiObject, ctx: HookContext): Promise<Undo | void>;
  /** The object is gone from storage; release what it held. Errors are logged, never returned. */
  afterDelete?(obj: ApiObject): Promise<void>;
}
