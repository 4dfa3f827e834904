// flowcontrol (API priority and fairness): FlowSchema and
// PriorityLevelConfiguration, written once for the two versions v1.27 serves.
// v1beta2 and v1beta3 differ only in the name of a priority level's share of
// the server's concurrency (assuredConcurrencyShares, renamed
// nominalConcurrencyShares) and in v1beta3's merge strategy on conditions.
// The exempt priority level settings arrived in v1.28 and are not here.
// Protobuf numbers are left out: not yet checked against the generated.proto files.
import { bool, int32, kind, list, obj, ref, str, Time, type S } from '../../schema/index.js';

export interface FlowcontrolVersion {
  /** The OpenAPI package, e.g. io.k8s.api.flowcontrol.v1beta3. */
  package: string;
  /** The name of LimitedPriorityLevelConfiguration's concurrency shares. */
  sharesField: 'assuredConcurrencyShares' | 'nominalConcurrencyShares';
  /** Whether status conditions carry the merge patch strategy. */
  mergeConditions: boolean;
}

export function flowcontrolKinds(v: FlowcontrolVersion): { FlowSchema: S; PriorityLevelConfiguration: S } {
  const id = (name: string) => `${v.package}.${name}`;
  const conditionList = (item: S) => {
    const l = list(item).map('type');
    return v.mergeConditions ? l.patch('merge', 'type') : l;
  };
  const condition = (of: string) =>
    obj({
      type: str().desc('The kind of condition.'),
      status: str().desc('True, False or Unknown.'),
      lastTransitionTime: ref(Time).desc('When the status last changed.'),
      reason: str().desc('A CamelCase reason for the last transition.'),
      message: str().desc('A human-readable explanation of the last transition.'),
    })
      .id(id(`${of}Condition`))
      .desc(`One condition of a ${of}.`);

  const UserSubject = obj({ name: str().required().desc('The user name; "*" matches every user.') })
    .id(id('UserSubject'))
    .desc('A user a flow schema matches.');
  const GroupSubject = obj({ name: str().required().desc('The group name; "*" matches every group.') })
    .id(id('GroupSubject'))
    .desc('A group a flow schema matches.');
  const ServiceAccountSubject = obj({
    namespace: str().required().desc('The namespace of the service account.'),
    name: str().required().desc('The service account name; "*" matches every one in the namespace.'),
  })
    .id(id('ServiceAccountSubject'))
    .desc('A service account a flow schema matches.');
  const Subject = obj({
    kind: str().required().desc('User, Group or ServiceAccount: which of the other fields is set.'),
    user: ref(UserSubject).desc('The user, when kind is User.'),
    group: ref(GroupSubject).desc('The group, when kind is Group.'),
    serviceAccount: ref(ServiceAccountSubject).desc('The service account, when kind is ServiceAccount.'),
  })
    .id(id('Subject'))
    .desc('Who makes a request: a user, a group or a service account.');

  const ResourcePolicyRule = obj({
    verbs: list(str()).set().required().desc('The verbs that match; "*" matches all.'),
    apiGroups: list(str()).set().required().desc('The API groups that match; "*" matches all.'),
    resources: list(str()).set().required().desc('The resources (and "resource/subresource") that match; "*" matches all.'),
    clusterScope: bool().desc('Whether requests for cluster-scoped resources match.'),
    namespaces: list(str()).set().desc('The namespaces whose namespaced requests match; "*" matches all.'),
  })
    .id(id('ResourcePolicyRule'))
    .desc('Resource requests a flow schema matches.');
  const NonResourcePolicyRule = obj({
    verbs: list(str()).set().required().desc('The verbs that match; "*" matches all.'),
    nonResourceURLs: list(str()).set().required().desc('The URL paths that match, with a trailing "/*" as a prefix.'),
  })
    .id(id('NonResourcePolicyRule'))
    .desc('Non-resource requests a flow schema matches.');
  const PolicyRulesWithSubjects = obj({
    subjects: list(Subject).atomic().required().desc('Who the rule applies to; any may match.'),
    resourceRules: list(ResourcePolicyRule).atomic().desc('Resource requests that match.'),
    nonResourceRules: list(NonResourcePolicyRule).atomic().desc('Non-resource requests that match.'),
  })
    .id(id('PolicyRulesWithSubjects'))
    .desc('Requests by some subjects that match a flow schema.');

  const FlowSchemaSpec = obj({
    priorityLevelConfiguration: ref(
      obj({ name: str().required().desc('The name of the priority level.') })
        .id(id('PriorityLevelConfigurationReference'))
        .desc('A reference to a priority level by name.'),
    ).required().desc('The priority level of matching requests.'),
    matchingPrecedence: int32().desc('The order among flow schemas, lowest first; 1 to 10000.'),
    distinguisherMethod: ref(
      obj({ type: str().required().desc('ByUser or ByNamespace.') })
        .id(id('FlowDistinguisherMethod'))
        .desc('How requests are split into flows.'),
    ).desc('How matching requests are split into flows; one flow when unset.'),
    rules: list(PolicyRulesWithSubjects).atomic().desc('The requests that match; any rule may match.'),
  })
    .id(id('FlowSchemaSpec'))
    .desc('Which requests a flow schema matches and where they go.');

  const FlowSchema = kind({
    spec: ref(FlowSchemaSpec).desc('What the flow schema matches.'),
    status: ref(obj({ conditions: conditionList(condition('FlowSchema')).desc('The current conditions.') })
      .id(id('FlowSchemaStatus'))
      .desc('The observed state of a flow schema.')).desc('The observed state, written by the server.'),
  })
    .id(id('FlowSchema'))
    .desc('A class of requests and the priority level they are handled at.');

  const QueuingConfiguration = obj({
    queues: int32().desc('The number of queues.'),
    handSize: int32().desc('How many queues each flow is shuffle-sharded onto.'),
    queueLengthLimit: int32().desc('How many requests a queue may hold.'),
  })
    .id(id('QueuingConfiguration'))
    .desc('How excess requests are queued.');
  const LimitResponse = obj({
    type: str().required().desc('Queue or Reject: what happens to a request over the limit.'),
    queuing: ref(QueuingConfiguration).desc('The queues, when type is Queue.'),
  })
    .id(id('LimitResponse'))
    .desc('What happens to requests that cannot run at once.');
  const LimitedPriorityLevelConfiguration = obj({
    [v.sharesField]: int32().desc('This level\'s share of the server\'s concurrency limit.'),
    limitResponse: ref(LimitResponse).desc('What happens to requests over the limit.'),
    lendablePercent: int32().desc('The percentage of this level\'s concurrency that other levels may borrow.'),
    borrowingLimitPercent: int32().desc('How much this level may borrow, as a percentage of its own limit; no limit when unset.'),
  })
    .id(id('LimitedPriorityLevelConfiguration'))
    .desc('The concurrency limit of a limited priority level and how it is applied.');
  const PriorityLevelConfigurationSpec = obj({
    type: str().required().desc('Exempt or Limited: whether requests at this level are limited.'),
    limited: ref(LimitedPriorityLevelConfiguration).desc('The limit, when type is Limited.'),
  })
    .id(id('PriorityLevelConfigurationSpec'))
    .desc('How requests at a priority level are limited.');

  const PriorityLevelConfiguration = kind({
    spec: ref(PriorityLevelConfigurationSpec).desc('How requests at this level are limited.'),
    status: ref(obj({ conditions: conditionList(condition('PriorityLevelConfiguration')).desc('The current conditions.') })
      .id(id('PriorityLevelConfigurationStatus'))
      .desc('The observed state of a priority level.')).desc('The observed state, written by the server.'),
  })
    .id(id('PriorityLevelConfiguration'))
    .desc('A priority level: a share of the server\'s concurrency and how excess requests wait.');

  return { FlowSchema, PriorityLevelConfiguration };
}
