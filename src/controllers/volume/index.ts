// Persistent volumes in `svc server`: kube's PersistentVolume binder
// (binder.ts over decide.ts and match.ts) and svc's default local-path
// provisioner (provisioner.ts over localpath.ts, its class in defaultclass.ts).
export { startPersistentVolumeBinder, PersistentVolumeBinder, type BinderOptions } from './binder.js';
export { startLocalPathProvisioner, LocalPathProvisioner, type LocalPathOptions } from './provisioner.js';
export { LOCAL_PATH_CLASS, LOCAL_PATH_PROVISIONER, DEFAULT_BASE_DIR } from './localpath.js';

import type { ControllerContext } from '../context.js';
import { PVCS, PVS, STORAGE_CLASSES } from './binder.js';

/** Whether the binder has work on this server (the core volume resources are served; StorageClasses may not be). */
export const servesVolumes = (ctx: ControllerContext): boolean => ctx.registry.has(PVS.group, PVS.resource) && ctx.registry.has(PVCS.group, PVCS.resource);

/** Whether the local-path provisioner has work (StorageClasses are served: --runtime-config may turn storage.k8s.io off). */
export const servesStorageClasses = (ctx: ControllerContext): boolean => servesVolumes(ctx) && ctx.registry.has(STORAGE_CLASSES.group, STORAGE_CLASSES.resource);
