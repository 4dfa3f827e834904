// The seam to the network: how an admission webhook's AdmissionReview is
// posted (src/webhook/callback.ts implements it; unit tests give a fake).
// call() resolves with any HTTP answer (the dispatcher checks the status) and
// rejects with an OutboundError (src/webhook/client.ts) of kind 'network' |
// 'timeout' | 'too-large' whose message reads as Go's client error, e.g.
// `Post "https://host/path?timeout=10s": context deadline exceeded`.
export type { CallbackCall, CallbackCaller, CallbackConfig, CallbackResult } from '../../webhook/callback.js';
