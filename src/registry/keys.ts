// Storage keys: /registry/<group>/<resource>/<namespace>/<name>; the core
// group has no group segment (/registry/<resource>/...), as in Kubernetes.
export interface KeySpace {
  readonly group: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

function base(s: KeySpace): string {
  return s.group === '' ? `/registry/${s.resource}/` : `/registry/${s.group}/${s.resource}/`;
}

/** The key functions of one resource, its prefix made once (every read and write makes a key). */
export interface Keys {
  object(namespace: string, name: string): string;
  collection(namespace: string): string;
}

export function keysOf(s: KeySpace): Keys {
  const b = base(s);
  return s.namespaced
    ? { object: (namespace, name) => `${b}${namespace}/${name}`, collection: (namespace) => (namespace !== '' ? `${b}${namespace}/` : b) }
    : { object: (_namespace, name) => `${b}${name}`, collection: () => b };
}

/** The prefix of every object of the resource, or of one namespace's objects. */
export function collectionPrefix(s: KeySpace, namespace: string): string {
  return keysOf(s).collection(namespace);
}
