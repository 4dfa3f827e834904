// Container logs on the node: the CRI log format (crilog.ts), where the files
// live (paths.ts), reading them for PodLogOptions (read.ts: tail, since,
// timestamps, limit, follow across rotations) and rotating them by size
// (rotate.ts: kube's container log manager).
export * from './crilog.js';
export * from './paths.js';
export * from './read.js';
export * from './rotate.js';
