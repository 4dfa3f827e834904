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
import type { ApiObject } from './object.js';

/** Undoes what a before* hook reserved; called when the write does not happen. */
export type Undo = () => Promise<void>;

export interface WriteHooks {
  beforeCreate?(obj: ApiObject, ctx: { readonly dryRun: boolean }): Promise<Undo | void>;
  beforeUpdate?(obj: ApiObject, old: ApiObject, ctx: { readonly dryRun: boolean }): Promise<Undo | void>;
  /** The object is gone from storage; release what it held. Errors are logged, never returned. */
  afterDelete?(obj: ApiObject): Promise<void>;
}
