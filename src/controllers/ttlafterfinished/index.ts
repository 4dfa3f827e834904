// The TTL-after-finished controller (kube's pkg/controller/ttlafterfinished,
// v1.27): finished Jobs deleted ttlSecondsAfterFinished after they finished.
export { TTLAfterFinishedController, startTTLAfterFinishedController, TTL_AFTER_FINISHED_CONTROLLER, type TTLAfterFinishedOptions } from './controller.js';
export { expiry, needsCleanup, type Expiry } from './ttl.js';
