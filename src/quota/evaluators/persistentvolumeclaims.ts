// PersistentVolumeClaims (kube's pvcEvaluator): each claim uses
// `persistentvolumeclaims`, `count/persistentvolumeclaims` and its storage
// request (`requests.storage`, rounded up to whole bytes); with a storage
// class also `<class>.storageclass.storage.k8s.io/persistentvolumeclaims` and
// `…/requests.storage` — produced in the svc.io spelling as well, so a quota
// written in either finds them. Creates and updates (a size increase) are
// measured; no scopes.
import { quantityOf, type Quantity } from '../../api/meta/quantity.js';
import { compareQuantities } from '../../api/meta/quantity.js';
import type { ApiObject } from '../../registry/object.js';
import type { UsageEvaluator } from '../evaluator.js';
import type { ResourceList } from '../resources.js';
import { NO_SCOPES, count, rec } from './common.js';
import { CLAIM_CLASS_ANNOTATIONS } from '../../admission/plugins/defaultstorageclass.js';

const PVC_RESOURCES = ['persistentvolumeclaims', 'requests.storage'] as const;
const COUNT_NAME = 'count/persistentvolumeclaims';
/** `<class><suffix><resource>`, in kube's spelling and ours. */
export const STORAGE_CLASS_SUFFIXES = ['.storageclass.storage.k8s.io/', '.storageclass.storage.svc.io/'] as const;

/** The class a claim names: the deprecated beta annotation (either spelling) before spec.storageClassName; '' for none. */
export function claimStorageClass(pvc: ApiObject): string {
  const ann = pvc.metadata.annotations ?? {};
  for (const k of CLAIM_CLASS_ANNOTATIONS) if (ann[k] !== undefined) return ann[k]!;
  const name = rec(pvc.spec).storageClassName;
  return typeof name === 'string' ? name : '';
}

/** A quantity rounded up to a whole unit (kube's RoundUp(0)): storage is charged in whole bytes. */
function wholeUnits(q: Quantity): Quantity {
  const rem = q.nanos % 1_000_000_000n;
  return rem === 0n ? q : { nanos: q.nanos - rem + (q.nanos > 0n ? 1_000_000_000n : 0n), format: q.format };
}

/**
 * The storage a claim is charged: spec.resources.requests.storage; with
 * RecoverVolumeExpansionFailure (alpha in v1.27) status.allocatedResources.storage when larger.
 */
export function claimStorage(pvc: ApiObject, recoverVolumeExpansionFailure = false): Quantity | undefined {
  const requested = quantityOf(rec(rec(rec(pvc.spec).resources).requests).storage);
  if (!requested) return undefined;
  let out = wholeUnits(requested);
  if (recoverVolumeExpansionFailure) {
    const allocated = quantityOf(rec(rec(pvc.status).allocatedResources).storage);
    if (allocated && compareQuantities(allocated, out) > 0) out = wholeUnits(allocated);
  }
  return out;
}

export function persistentVolumeClaimEvaluator(opts: { recoverVolumeExpansionFailure?: boolean } = {}): UsageEvaluator {
  return {
    group: '',
    resource: 'persistentvolumeclaims',
    ...NO_SCOPES,
    handles: (operation, subresource) => (operation === 'CREATE' || operation === 'UPDATE') && subresource === '',
    matchingResources(input) {
      const out = new Set<string>();
      for (const n of input) {
        if (n === COUNT_NAME || (PVC_RESOURCES as readonly string[]).includes(n)) out.add(n);
        else if (STORAGE_CLASS_SUFFIXES.some((s) => PVC_RESOURCES.some((r) => n.endsWith(s + r)))) out.add(n);
      }
      return [...out];
    },
    usage(pvc) {
      const out: ResourceList = { persistentvolumeclaims: count(1), [COUNT_NAME]: count(1) };
      const cls = claimStorageClass(pvc);
      if (cls) for (const s of STORAGE_CLASS_SUFFIXES) out[`${cls}${s}persistentvolumeclaims`] = count(1);
      const storage = claimStorage(pvc, opts.recoverVolumeExpansionFailure);
      if (storage) {
        out['requests.storage'] = storage;
        if (cls) for (const s of STORAGE_CLASS_SUFFIXES) out[`${cls}${s}requests.storage`] = storage;
      }
      return out;
    },
    counts: () => true,
    // kube's RequiresQuotaReplenish compares two freshly made *Quantity pointers, never equal: with the gate every update recounts
    releasedByUpdate: () => opts.recoverVolumeExpansionFailure === true,
  };
}
