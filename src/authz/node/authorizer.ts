// The Node authorizer (kube v1.27 plugin/pkg/auth/authorizer/node): requests
// of node agents — user `system:node:<name>` in group `system:nodes` — for
// secrets, configmaps, PVCs, PVs, resource claims, volume attachments and
// service-account tokens are allowed only when the graph links the object to
// that node; leases in svc-node-lease and CSINodes only under the node's own
// name; everything else against the fixed node rules. It never denies: each
// refusal is "no opinion" with kube's reason, so a later authorizer (RBAC)
// still decides. Other users get no opinion and no reason.
import type { UserInfo } from '../../authn/user.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import type { Attributes, Authorizer, Decision, Rules } from '../authorizer.js';
import { rulesAllow, type PolicyRule } from '../rbac/rules.js';
import type { Graph, VertexType } from './graph.js';
import { nodeRules } from './rules.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
/** kube's kube-node-lease. */
export const NODE_LEASE_NAMESPACE = 'svc-node-lease';

/** kube's nodeidentifier: the node name of a node user ('' when it names none), or undefined for other users. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}

type ResourceAttributes = Extract<Attributes, { isResourceRequest: true }>;

const allow: Decision = { decision: 'allow', reason: '' };
const noOpinion = (reason: string): Decision => ({ decision: 'noOpinion', reason });
const goQuote = (s: string) => JSON.stringify(s);

/** Resources whose objects a node reaches through the graph, by canonical group/resource. */
const GRAPH_TYPES: ReadonlyMap<string, VertexType> = new Map([
  ['/secrets', 'secret'],
  ['/configmaps', 'configmap'],
  ['/persistentvolumeclaims', 'pvc'],
  ['/persistentvolumes', 'pv'],
  ['resource.svc.io/resourceclaims', 'resourceclaim'],
  ['storage.svc.io/volumeattachments', 'volumeattachment'],
  ['/serviceaccounts', 'serviceAccount'],
]);

export class NodeAuthorizer implements Authorizer {
  readonly name = 'Node';

  constructor(
    private readonly graph: Pick<Graph, 'hasPathFrom'>,
    private readonly rules: readonly PolicyRule[] = nodeRules(),
  ) {}

  authorize(a: Attributes): Decision {
    const nodeName = nodeIdentity(a.user);
    if (nodeName === undefined) return noOpinion('');
    if (nodeName === '') return noOpinion(`unknown node for user ${goQuote(a.user.name)}`);
    if (a.isResourceRequest) {
      const group = canonicalGroup(a.apiGroup);
      const type = GRAPH_TYPES.get(`${group}/${a.resource}`);
      switch (type) {
        case 'secret':
        case 'configmap':
          return this.readNamespacedObject(nodeName, type, a);
        case 'pvc':
          return a.subresource === 'status' ? this.statusUpdate(nodeName, type, a) : this.get(nodeName, type, a);
        case 'pv':
        case 'resourceclaim':
        case 'volumeattachment':
          return this.get(nodeName, type, a);
        case 'serviceAccount':
          return this.createToken(nodeName, a);
        case undefined:
          break;
      }
      if (group === 'coordination.svc.io' && a.resource === 'leases') return lease(nodeName, a);
      if (group === 'storage.svc.io' && a.resource === 'csinodes') return csiNode(nodeName, a);
    }
    // not subdivided: the fixed node rules decide
    return rulesAllow(a, this.rules) ? allow : noOpinion('');
  }

  /** Nodes' permissions cannot be listed (SelfSubjectRulesReview: incomplete, with kube's error). */
  rulesFor(user: UserInfo): Rules {
    if (nodeIdentity(user) === undefined) return { resourceRules: [], nonResourceRules: [] };
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
  }

  /** update/patch of the status subresource of a related object. */
  private statusUpdate(nodeName: string, type: VertexType, a: ResourceAttributes): Decision {
    if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    if (a.subresource !== 'status') return noOpinion('can only update status subresource');
    return this.related(nodeName, type, a);
  }

  /** get of a related object, no subresource. */
  private get(nodeName: string, type: VertexType, a: ResourceAttributes): Decision {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource !== '') return noOpinion('cannot get subresource');
    return this.related(nodeName, type, a);
  }

  /** get/list/watch of one related namespaced object (list and watch name it with a metadata.name field selector). */
  private readNamespacedObject(nodeName: string, type: VertexType, a: ResourceAttributes): Decision {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return noOpinion('can only read resources of this type');
    if (a.subresource !== '') return noOpinion('cannot read subresource');
    if (a.namespace === '') return noOpinion('can only read namespaced object of this type');
    return this.related(nodeName, type, a);
  }

  private related(nodeName: string, type: VertexType, a: ResourceAttributes): Decision {
    if (a.name === '') return noOpinion('No Object name found');
    return this.graph.hasPathFrom(nodeName, type, a.namespace, a.name) ? allow : noRelationship(nodeName);
  }

  /** create of serviceaccounts/<name>/token for a service account of a pod on the node. */
  private createToken(nodeName: string, a: ResourceAttributes): Decision {
    if (a.verb !== 'create' || a.name === '') return noOpinion('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.graph.hasPathFrom(nodeName, 'serviceAccount', a.namespace, a.name) ? allow : noRelationship(nodeName);
  }
}

const noRelationship = (nodeName: string) => noOpinion(`no relationship found between node '${nodeName}' and this object`);

const NODE_OBJECT_VERBS = new Set(['get', 'create', 'update', 'patch', 'delete']);

/** The node's own Lease in svc-node-lease (create is left to NodeRestriction, which sees the name). */
function lease(nodeName: string, a: ResourceAttributes): Decision {
  if (!NODE_OBJECT_VERBS.has(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
  if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the ${goQuote(NODE_LEASE_NAMESPACE)} system namespace`);
  if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
  return allow;
}

/** The node's own CSINode (create is left to NodeRestriction). */
function csiNode(nodeName: string, a: ResourceAttributes): Decision {
  if (!NODE_OBJECT_VERBS.has(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
  if (a.subresource !== '') return noOpinion('cannot authorize CSINode subresources');
  if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access CSINode with the same name as the requesting node');
  return allow;
}
