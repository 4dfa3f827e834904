// Container logs on the node: the CRI log format (crilog.ts), where the files
// live (paths.ts), which log a request reads (locate.ts: kube's rules over the
// pod status and CRI), reading them for PodLogOptions (read.ts: tail, since,
// timestamps, limit, follow across rotations) and rotating them by size
// (rotate.ts: kube's container log manager).
export * from './crilog.js';
export * from './locate.js';
export * from './paths.js';
export * from './read.js';
export * from './rotate.js';
