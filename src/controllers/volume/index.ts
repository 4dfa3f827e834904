// Persistent volumes in `svc server`: kube's PersistentVolume binder
// (binder.ts over decide.ts and match.ts) and svc's default local-path
// provisioner (provisioner.ts over localpath.ts, its class in defaultclass.ts).
export { startPersistentVolumeBinder, PersistentVolumeBinder, type BinderOptions } from './binder.js';
export { startLocalPathProvisioner, LocalPathProvisioner, type LocalPathOptions } from './provisioner.js';
export { LOCAL_PATH_CLASS, LOCAL_PATH_PROVISIONER, DEFAULT_BASE_DIR } from './localpath.js';
