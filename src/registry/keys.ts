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

export function objectKey(s: KeySpace, namespace: string, name: string): string {
  return s.namespaced ? `${base(s)}${namespace}/${name}` : `${base(s)}${name}`;
}

/** The prefix of every object of the resource, or of one namespace's objects. */
export function collectionPrefix(s: KeySpace, namespace: string): string {
  return s.namespaced && namespace !== '' ? `${base(s)}${namespace}/` : base(s);
}
