// Who a simulated node is to the API: kube's node identity.
import type { UserInfo } from '../authn/user.js';
import { NODE_USER_PREFIX, NODES_GROUP } from '../authz/node/authorizer.js';

export const nodeUser = (name: string): UserInfo => ({ name: `${NODE_USER_PREFIX}${name}`, groups: [NODES_GROUP, 'system:authenticated'] });
