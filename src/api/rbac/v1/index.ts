// rbac.authorization/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding.
import type { S } from '../../../schema/index.js';
import { ClusterRoleBinding, RoleBinding } from './bindings.js';
import { ClusterRole, Role } from './rules.js';

export const kinds: Readonly<Record<string, S>> = { ClusterRole, ClusterRoleBinding, Role, RoleBinding };
