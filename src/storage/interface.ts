// The storage interface: a multi-version key-value store modelled on etcd v3 MVCC.
//
// One global revision increases strictly with every successful write; a
// resourceVersion is that revision in decimal. Reads may be served at a past
// revision until it is compacted. Watches deliver every change after a
// revision, in revision order, with no gaps and no duplicates.
//
// Backends (sqlite/, etcd/) implement `Store` and run the shared suite in
// conformance/. Nothing backend-specific crosses this interface: failures are
// StorageErrors (errors.ts).

/** One stored version of a key. */
export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  /** Revision of the write that created this key (its latest incarnation). */
  readonly createRevision: number;
  /** Revision of the write that produced this version. */
  readonly modRevision: number;
}

export interface GetOptions {
  /** Read the key as it was at this revision (default: the current one). */
  readonly revision?: number;
}

export interface RangeOptions {
  /** Serve the range at this revision (default: the current one). */
  readonly revision?: number;
  /** Return at most this many items (default and 0: no limit). */
  readonly limit?: number;
  /** Return only keys strictly greater than this one (paging). */
  readonly startAfter?: string;
}

export interface RangeResult {
  readonly items: KeyValue[];
  /** The revision the range was served at. */
  readonly revision: number;
  /** Whether keys remain after the last item returned. */
  readonly more: boolean;
  /** How many keys remain after the last item returned. */
  readonly remaining: number;
}

export interface WriteOptions {
  /** The write succeeds only if the key's current modRevision equals this. */
  readonly expectedModRevision?: number;
}

export interface DeleteResult {
  /** The revision of the delete. */
  readonly revision: number;
  /** The version that was deleted. */
  readonly prev: KeyValue;
}

export type WatchEvent =
  | { readonly type: 'create'; readonly revision: number; readonly kv: KeyValue }
  | { readonly type: 'update'; readonly revision: number; readonly kv: KeyValue; readonly prev: KeyValue }
  | { readonly type: 'delete'; readonly revision: number; readonly key: string; readonly prev: KeyValue };

/** Receives a watch's events. Calls never overlap; after onError no more calls come. */
export interface WatchSink {
  onEvents(events: readonly WatchEvent[]): void;
  onError(err: Error): void;
}

export interface WatchHandle {
  /** Stops delivery. Idempotent. */
  close(): void;
}

export interface WatchOptions {
  /** Keys starting with this prefix are watched. */
  readonly prefix: string;
  /** Deliver every change with a revision greater than this one. */
  readonly fromRevision: number;
}

export interface Store {
  /** The backend's name, for logs and messages ("sqlite", "etcd3"). */
  readonly backend: string;
  /** The key's value, or null when absent at that revision. */
  get(key: string, opts?: GetOptions): Promise<KeyValue | null>;
  /** Keys with the given prefix, in byte order, at one revision. */
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  /** Creates the key; KeyExists if present. */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /** Replaces the key's value; KeyNotFound if absent, Conflict if the expected modRevision differs. */
  update(key: string, value: Uint8Array, opts?: WriteOptions): Promise<KeyValue>;
  /** Deletes the key; KeyNotFound if absent, Conflict if the expected modRevision differs. */
  delete(key: string, opts?: WriteOptions): Promise<DeleteResult>;
  /**
   * Starts a watch. Resolves once the watch is established: every change
   * after `fromRevision` will reach the sink. Rejects with Compacted when
   * `fromRevision` is older than the retained history.
   */
  watch(opts: WatchOptions, sink: WatchSink): Promise<WatchHandle>;
  /** Discards history at and before `revision` (a read at `revision` itself still works). */
  compact(revision: number): Promise<void>;
  /** The newest revision; cheap enough to call for every consistent read. */
  currentRevision(): Promise<number>;
  /** The newest compacted revision (0 when nothing was compacted). */
  compactedRevision(): Promise<number>;
  close(): Promise<void>;
}
