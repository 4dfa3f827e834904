// The seam to the network: how an admission webhook's AdmissionReview is
// posted. Type-only copy of the interface implemented by
// src/webhook/callback.ts (written separately; the integrator points the
// plugins at it). The dispatchers here only build the body and read the answer.
//
// call() resolves with any HTTP answer (the caller of this seam checks the
// status) and rejects with an OutboundError (src/webhook/client.ts) of kind
// 'network' | 'timeout' | 'too-large' whose message reads as Go's client
// error, e.g. `Post "https://host/path?timeout=10s": context deadline exceeded`.

export interface CallbackConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

export interface CallbackCall {
  config: CallbackConfig;
  body: string;
  timeoutMs: number;
  /** "<configuration>/<webhook>": what connection pools and concurrency bounds are keyed by. */
  key: string;
}

export interface CallbackResult {
  status: number;
  body: Buffer;
  contentType?: string;
}

export interface CallbackCaller {
  call(c: CallbackCall): Promise<CallbackResult>;
}
