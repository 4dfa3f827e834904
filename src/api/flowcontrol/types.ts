// flowcontrol (API priority and fairness): FlowSchema and
// PriorityLevelConfiguration, written once for the two versions v1.27 serves.
// v1beta2 and v1beta3 differ only in the name of a priority level's share of
// the server's concurrency (assuredConcurrencyShares, renamed
// nominalConcurrencyShares) and in v1beta3's merge strategy on conditions.
// The exempt priority level settings arrived in v1.28 and are not here.
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
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
    const l = list(item).map('type').proto(1);
    return v.mergeConditions ? l.patch('merge', 'type') : l;
  };
  const condition = (of: string) =>
    obj({
      type: str().proto(1).desc('The kind of condition.'),
      status: str().proto(2).desc('True, False or Unknown.'),
      lastTransitionTime: ref(Time).proto(3, { always: true }).desc('When the status last changed.'),
      reason: str().proto(4).desc('A CamelCase reason for the last transition.'),
      message: str().proto(5).desc('A human-readable explanation of the last transition.'),
    })
      .id(id(`${of}Condition`))
      .desc(`One condition of a ${of}.`);

  const UserSubject = obj({ name: str().proto(1, { keepZero: true }).required().desc('The user name; "*" matches every user.') })
    .id(id('UserSubject'))
    .desc('A user a flow schema matches.');
  const GroupSubject = obj({ name: str().proto(1, { keepZero: true }).required().desc('The group name; "*" matches every group.') })
    .id(id('GroupSubject'))
    .desc('A group a flow schema matches.');
  const ServiceAccountSubject = obj({
    namespace: str().proto(1, { keepZero: true }).required().desc('The namespace of the service account.'),
    name: str().proto(2, { keepZero: true }).required().desc('The service account name; "*" matches every one in the namespace.'),
  })
    .id(id('ServiceAccountSubject'))
    .desc('A service account a flow schema matches.');
  const Subject = obj({
    kind: str().proto(1, { keepZero: true }).required().desc('User, Group or ServiceAccount: which of the other fields is set.'),
    user: ref(UserSubject).proto(2).desc('The user, when kind is User.'),
    group: ref(GroupSubject).proto(3).desc('The group, when kind is Group.'),
    serviceAccount: ref(ServiceAccountSubject).proto(4).desc('The service account, when kind is ServiceAccount.'),
  })
    .id(id('Subject'))
    .desc('Who makes a request: a user, a group or a service account.');

  const ResourcePolicyRule = obj({
    verbs: list(str()).proto(1).set().required().desc('The verbs that match; "*" matches all.'),
    apiGroups: list(str()).proto(2).set().required().desc('The API groups that match; "*" matches all.'),
    resources: list(str()).proto(3).set().required().desc('The resources (and "resource/subresource") that match; "*" matches all.'),
    clusterScope: bool().proto(4).desc('Whether requests for cluster-scoped resources match.'),
    namespaces: list(str()).proto(5).set().desc('The namespaces whose namespaced requests match; "*" matches all.'),
  })
    .id(id('ResourcePolicyRule'))
    .desc('Resource requests a flow schema matches.');
  const NonResourcePolicyRule = obj({
    verbs: list(str()).proto(1).set().required().desc('The verbs that match; "*" matches all.'),
    nonResourceURLs: list(str()).proto(6).set().required().desc('The URL paths that match, with a trailing "/*" as a prefix.'),
  })
    .id(id('NonResourcePolicyRule'))
    .desc('Non-resource requests a flow schema matches.');
  const PolicyRulesWithSubjects = obj({
    subjects: list(Subject).proto(1).atomic().required().desc('Who the rule applies to; any may match.'),
    resourceRules: list(ResourcePolicyRule).proto(2).atomic().desc('Resource requests that match.'),
    nonResourceRules: list(NonResourcePolicyRule).proto(3).atomic().desc('Non-resource requests that match.'),
  })
    .id(id('PolicyRulesWithSubjects'))
    .desc('Requests by some subjects that match a flow schema.');

  const FlowSchemaSpec = obj({
    priorityLevelConfiguration: ref(
      obj({ name: str().proto(1, { keepZero: true }).required().desc('The name of the priority level.') })
        .id(id('PriorityLevelConfigurationReference'))
        .desc('A reference to a priority level by name.'),
    ).proto(1).required().desc('The priority level of matching requests.'),
    matchingPrecedence: int32().proto(2, { keepZero: true }).desc('The order among flow schemas, lowest first; 1 to 10000.'),
    distinguisherMethod: ref(
      obj({ type: str().proto(1, { keepZero: true }).required().desc('ByUser or ByNamespace.') })
        .id(id('FlowDistinguisherMethod'))
        .desc('How requests are split into flows.'),
    ).proto(3).desc('How matching requests are split into flows; one flow when unset.'),
    rules: list(PolicyRulesWithSubjects).proto(4).atomic().desc('The requests that match; any rule may match.'),
  })
    .id(id('FlowSchemaSpec'))
    .desc('Which requests a flow schema matches and where they go.');

  const FlowSchema = kind({
    spec: ref(FlowSchemaSpec).proto(2).desc('What the flow schema matches.'),
    status: ref(obj({ conditions: conditionList(condition('FlowSchema')).desc('The current conditions.') })
      .id(id('FlowSchemaStatus'))
      .desc('The observed state of a flow schema.')).proto(3).desc('The observed state, written by the server.'),
  })
    .id(id('FlowSchema'))
    .desc('A class of requests and the priority level they are handled at.');

  const QueuingConfiguration = obj({
    queues: int32().proto(1, { keepZero: true }).desc('The number of queues.'),
    handSize: int32().proto(2, { keepZero: true }).desc('How many queues each flow is shuffle-sharded onto.'),
    queueLengthLimit: int32().proto(3, { keepZero: true }).desc('How many requests a queue may hold.'),
  })
    .id(id('QueuingConfiguration'))
    .desc('How excess requests are queued.');
  const LimitResponse = obj({
    type: str().proto(1, { keepZero: true }).required().desc('Queue or Reject: what happens to a request over the limit.'),
    queuing: ref(QueuingConfiguration).proto(2).desc('The queues, when type is Queue.'),
  })
    .id(id('LimitResponse'))
    .desc('What happens to requests that cannot run at once.');
  const LimitedPriorityLevelConfiguration = obj({
    [v.sharesField]: int32().proto(1, { keepZero: true }).desc('This level\'s share of the server\'s concurrency limit.'),
    limitResponse: ref(LimitResponse).proto(2).desc('What happens to requests over the limit.'),
    lendablePercent: int32().proto(3, { keepZero: true }).desc('The percentage of this level\'s concurrency that other levels may borrow.'),
    borrowingLimitPercent: int32().proto(4, { keepZero: true }).desc('How much this level may borrow, as a percentage of its own limit; no limit when unset.'),
  })
    .id(id('LimitedPriorityLevelConfiguration'))
    .desc('The concurrency limit of a limited priority level and how it is applied.');
  const PriorityLevelConfigurationSpec = obj({
    type: str().proto(1, { keepZero: true }).required().desc('Exempt or Limited: whether requests at this level are limited.'),
    limited: ref(LimitedPriorityLevelConfiguration).proto(2).desc('The limit, when type is Limited.'),
  })
    .id(id('PriorityLevelConfigurationSpec'))
    .desc('How requests at a priority level are limited.');

  const PriorityLevelConfiguration = kind({
    spec: ref(PriorityLevelConfigurationSpec).proto(2).desc('How requests at this level are limited.'),
    status: ref(obj({ conditions: conditionList(condition('PriorityLevelConfiguration')).desc('The current conditions.') })
      .id(id('PriorityLevelConfigurationStatus'))
      .desc('The observed state of a priority level.')).proto(3).desc('The observed state, written by the server.'),
  })
    .id(id('PriorityLevelConfiguration'))
    .desc('A priority level: a share of the server\'s concurrency and how excess requests wait.');

  return { FlowSchema, PriorityLevelConfiguration };
}
