// The node agent's static pods: manifests from a folder or a URL made into
// pods as kube's kubelet does (manifest.ts, staticpod.ts), watched and polled into
// ADD/UPDATE/REMOVE events (source.ts), and their mirror pods in the API
// server (mirror.ts).
export { StaticPodSource, parseManifestHeaders, type PodUpdate, type PodOp, type PodListener, type StaticPodSourceOptions } from './source.js';
export { MirrorPodClient, MirrorPodError } from './mirror.js';
export { staticPod, decodePods } from './manifest.js';
export { isMirrorPod, podHash, ManifestError, CONFIG_HASH, CONFIG_MIRROR, CONFIG_SEEN, CONFIG_SOURCE } from './staticpod.js';
