// The parameters published on operations: path parameters and the query
// parameters each verb understands (spec: api-server.md, query parameters).
// A `fieldValidation` parameter on PATCH is what tells kubectl the server
// validates fields itself (CLIENT-COMPAT.md §1.4).

export interface ParamSpec {
  /** The parameter's name when it differs from its key (a query `path` beside the path parameter). */
  readonly name?: string;
  readonly in: 'path' | 'query';
  readonly type: 'string' | 'integer' | 'boolean';
  readonly description: string;
  readonly required?: boolean;
}

export const PARAMS = {
  name: { in: 'path', type: 'string', required: true, description: 'The name of the object.' },
  namespace: { in: 'path', type: 'string', required: true, description: 'The namespace of the objects.' },
  path: { in: 'path', type: 'string', required: true, description: 'The path to pass on to the target.' },
  pretty: { in: 'query', type: 'string', description: 'Indent the JSON output when true.' },
  allowWatchBookmarks: { in: 'query', type: 'boolean', description: 'Ask for BOOKMARK events on a watch; the server may send them at any time, or never.' },
  continue: { in: 'query', type: 'string', description: 'The token from metadata.continue of the previous chunk of a paged list.' },
  fieldSelector: { in: 'query', type: 'string', description: 'Select objects by field values, such as metadata.name=x. Everything when empty.' },
  labelSelector: { in: 'query', type: 'string', description: 'Select objects by their labels. Everything when empty.' },
  limit: { in: 'query', type: 'integer', description: 'At most this many objects; metadata.continue then names the rest.' },
  resourceVersion: { in: 'query', type: 'string', description: 'How recent the answer must be (with resourceVersionMatch), or where a watch starts.' },
  resourceVersionMatch: { in: 'query', type: 'string', description: 'Exact or NotOlderThan: how resourceVersion is read for a list.' },
  sendInitialEvents: { in: 'query', type: 'boolean', description: 'Begin a watch with the current objects as ADDED events, then a BOOKMARK (feature gate WatchList).' },
  timeoutSeconds: { in: 'query', type: 'integer', description: 'End a list or watch after this many seconds.' },
  watch: { in: 'query', type: 'boolean', description: 'Stream changes instead of returning a list.' },
  dryRun: { in: 'query', type: 'string', description: 'All: run every stage of the request but persist nothing.' },
  fieldManager: { in: 'query', type: 'string', description: 'The name of the actor making the change, recorded in managedFields; required for apply patches.' },
  fieldValidation: {
    in: 'query', type: 'string',
    description: 'What to do with unknown or duplicate fields in the body: Ignore drops them, Warn (the default) drops them with a warning, Strict fails the request.',
  },
  force: { in: 'query', type: 'boolean', description: 'Apply patches only: take ownership of fields other managers own instead of failing on the conflict.' },
  gracePeriodSeconds: { in: 'query', type: 'integer', description: 'Seconds before the object is deleted; 0 deletes at once, unset uses the kind\'s default.' },
  orphanDependents: { in: 'query', type: 'boolean', description: 'Deprecated in favour of propagationPolicy: whether to orphan dependents.' },
  propagationPolicy: { in: 'query', type: 'string', description: 'Orphan, Background or Foreground: what happens to the dependents of the deleted objects.' },
  // Connections (exec, attach, port-forward, proxy) and logs.
  command: { in: 'query', type: 'string', description: 'The command to run; repeat the parameter for each argument.' },
  container: { in: 'query', type: 'string', description: 'The container; optional when the pod has one.' },
  stdin: { in: 'query', type: 'boolean', description: 'Attach the standard input stream.' },
  stdout: { in: 'query', type: 'boolean', description: 'Attach the standard output stream.' },
  stderr: { in: 'query', type: 'boolean', description: 'Attach the standard error stream.' },
  tty: { in: 'query', type: 'boolean', description: 'Allocate a terminal; stderr is then merged into stdout.' },
  ports: { in: 'query', type: 'integer', description: 'A port of the pod to forward; repeat the parameter for several.' },
  proxyPath: { name: 'path', in: 'query', type: 'string', description: 'The path to pass on to the target.' },
  follow: { in: 'query', type: 'boolean', description: 'Keep the log stream open and follow new lines.' },
  insecureSkipTLSVerifyBackend: { in: 'query', type: 'boolean', description: 'Do not verify the serving certificate of the node the log comes from.' },
  limitBytes: { in: 'query', type: 'integer', description: 'Stop after this many bytes of log.' },
  previous: { in: 'query', type: 'boolean', description: 'The log of the previous, terminated instance of the container.' },
  sinceSeconds: { in: 'query', type: 'integer', description: 'Only log lines newer than this many seconds.' },
  tailLines: { in: 'query', type: 'integer', description: 'Only this many lines from the end of the log.' },
  timestamps: { in: 'query', type: 'boolean', description: 'Prefix every log line with its RFC 3339 timestamp.' },
} as const satisfies Record<string, ParamSpec>;

export type ParamName = keyof typeof PARAMS;

/** Query parameters by operation. */
export const LIST_QUERY: readonly ParamName[] = [
  'allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch',
  'sendInitialEvents', 'timeoutSeconds', 'watch',
];
export const WRITE_QUERY: readonly ParamName[] = ['dryRun', 'fieldManager', 'fieldValidation'];
export const PATCH_QUERY: readonly ParamName[] = ['dryRun', 'fieldManager', 'fieldValidation', 'force'];
export const DELETE_QUERY: readonly ParamName[] = ['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy'];
export const DELETE_COLLECTION_QUERY: readonly ParamName[] = [
  'continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy',
  'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds',
];

/** The query parameters of connections and logs, by subresource. */
export const SUBRESOURCE_QUERY: Readonly<Record<string, readonly ParamName[]>> = {
  attach: ['container', 'stderr', 'stdin', 'stdout', 'tty'],
  exec: ['command', 'container', 'stderr', 'stdin', 'stdout', 'tty'],
  portforward: ['ports'],
  proxy: ['proxyPath'],
  log: ['container', 'follow', 'insecureSkipTLSVerifyBackend', 'limitBytes', 'previous', 'sinceSeconds', 'tailLines', 'timestamps'],
};

/** The media types of PATCH bodies. */
export const PATCH_TYPES = [
  'application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json',
] as const;
