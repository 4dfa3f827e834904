// The `None` strategy (kube's nopConverter): an object changes version by its
// apiVersion alone; nothing else is touched. Objects are not modified: each
// one in another version is copied (shallowly: the rest is shared, read-only)
// with the target apiVersion; one already in it is returned as is.

/** The objects with `apiVersion` set to the target. */
export function convertNone(objects: readonly object[], toApiVersion: string): object[] {
  return objects.map((o) => ((o as { apiVersion?: unknown }).apiVersion === toApiVersion ? o : { ...o, apiVersion: toApiVersion }));
}
