// The factories of the controllers svc had before the controller manager
// (namespace, service accounts, token Secrets, root CA, resource quota,
// ClusterRole aggregation, pvc/pv protection, token cleaner), by kube's
// controller names, each built from the ControllerContext and acting as its
// own identity (kube's service-account names; the token controller as the
// controller manager itself, as kube's root client).
import { RBAC_GROUP } from '../api/rbac/v1/validation.js';
import { quotaEvaluators } from '../quota/registry.js';
import { ClusterRoleAggregationController } from './clusterroleaggregation.js';
import type { Controller, ControllerContext } from './context.js';
import { NamespaceController } from './namespace.js';
import { RESOURCE_QUOTA_CONTROLLER, ResourceQuotaController } from './resourcequota.js';
import { RootCAPublisher } from './rootca.js';
import { ServiceAccountsController } from './serviceaccounts.js';
import { StorageProtectionController } from './storageprotection.js';
import { TokenCleaner } from './tokencleaner.js';
import { TokensController } from './tokens.js';

export const BUILTIN_FACTORIES = {
  namespace: (ctx: ControllerContext): Controller => new NamespaceController(ctx, { workers: ctx.concurrency('namespace', 10) }),
  serviceaccount: (ctx: ControllerContext): Controller => new ServiceAccountsController(ctx),
  'serviceaccount-token': (ctx: ControllerContext): Controller | undefined =>
    ctx.config.tokenGenerator ? new TokensController(ctx, ctx.config.tokenGenerator, ctx.config.rootCA, { workers: ctx.concurrency('serviceaccount-token', 5) }) : undefined,
  'root-ca-cert-publisher': (ctx: ControllerContext): Controller => new RootCAPublisher(ctx, ctx.config.rootCA),
  resourcequota: (ctx: ControllerContext): Controller => {
    const evaluators = quotaEvaluators(ctx.registry, { gates: ctx.gates });
    return new ResourceQuotaController(ctx.registry, ctx.storage, ctx.client(RESOURCE_QUOTA_CONTROLLER), { evaluators: () => evaluators, workers: ctx.concurrency('resourcequota', 5) });
  },
  'clusterrole-aggregation': (ctx: ControllerContext): Controller | undefined =>
    ctx.registry.servesGroup(RBAC_GROUP) ? new ClusterRoleAggregationController(ctx.registry, ctx.storage, ctx.client('clusterrole-aggregation-controller')) : undefined,
  'pvc-protection': (ctx: ControllerContext): Controller => new StorageProtectionController(ctx, 'persistentvolumeclaims'),
  'pv-protection': (ctx: ControllerContext): Controller => new StorageProtectionController(ctx, 'persistentvolumes'),
  tokencleaner: (ctx: ControllerContext): Controller => new TokenCleaner(ctx),
} as const;
