// ControllerRevision history (kube's pkg/controller/history), shared by the
// StatefulSet and DaemonSet controllers. The API, kept small and stable:
//
//   hashControllerRevision(data, collisionCount?) → string
//       FNV-1 32 over rawData(data) (+ the count in decimal), SafeEncodeString'd: kube's hash
//   rawData(data) → string              Go json.Marshal bytes of the data (sorted keys)
//   controllerRevisionName(prefix, hash) → `<prefix ≤223>-<hash>`
//   newControllerRevision({ parent, ownerRef, templateLabels, data, revision, collisionCount })
//       → a ControllerRevision object (apps/v1), labelled controller.kubernetes.io/hash
//   equalRevision(a, b), findEqualRevisions(list, needle)    equality by data
//   sortControllerRevisions(list) → sorted copy (revision, creation time, name)
//   maxRevision(list) → highest revision number (0 for none)
//   revisionNumber(r), revisionData(r)
//   new History(client, controllerRevisionInformer):
//       list(parent, selector)            owned by parent or orphaned, matching selector
//       create(parent, revision, count)   → { revision, collisionCount } (count raised on name clashes)
//       updateRevision(r, n), delete(r), adopt(parent, ownerRef, r), release(parent, r)
//   CONTROLLER_REVISIONS                 the apps/v1 controllerrevisions target
export { fnv32, hashControllerRevision, rawData } from './hash.js';
export {
  CONTROLLER_REVISION_HASH_LABEL, controllerRevisionName, equalRevision, findEqualRevisions, maxRevision,
  newControllerRevision, revisionData, revisionNumber, sortControllerRevisions,
  type NewRevisionOptions, type RevisionFields,
} from './revision.js';
export { CONTROLLER_REVISIONS, History, type CreatedRevision } from './history.js';
