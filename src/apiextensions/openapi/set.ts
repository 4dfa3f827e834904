// The custom resources the documents publish, kept between updates so that an
// update costs little when nothing changed: a CRD whose resourceVersion (or,
// without one, whose published spec) is the same keeps what was built for it;
// a CRD whose published parts (group, names, scope, served versions with their
// schemas and subresources, preserveUnknownFields) are unchanged is not rebuilt
// either. Only Established CRDs are published (kube's OpenAPI controllers).
import type { CustomResourceDefinition } from '../types.js';
import { isEstablished, publishedVersions, type PublishedVersion } from './build.js';

interface Entry {
  readonly resourceVersion: string | undefined;
  readonly signature: string;
  readonly versions: readonly PublishedVersion[];
}

export interface SetChange {
  /** Whether anything published changed (then /openapi/v2 changes). */
  readonly changed: boolean;
  /** The v3 document paths (apis/<group>/<version>) whose content changed, appeared or went away. */
  readonly groupVersions: ReadonlySet<string>;
}

export class CustomResourceSet {
  private entries = new Map<string, Entry>();

  /** Replaces the published CRDs with the Established ones among `crds`. */
  update(crds: readonly CustomResourceDefinition[]): SetChange {
    const next = new Map<string, Entry>();
    const touched = new Set<string>();
    for (const crd of crds) {
      if (!isEstablished(crd)) continue;
      const name = crd.metadata.name;
      const prev = this.entries.get(name);
      const rv = crd.metadata.resourceVersion;
      if (prev !== undefined && rv !== undefined && prev.resourceVersion === rv) {
        next.set(name, prev);
        continue;
      }
      const signature = signatureOf(crd);
      if (prev !== undefined && prev.signature === signature) {
        next.set(name, { ...prev, resourceVersion: rv });
        continue;
      }
      const versions = publishedVersions(crd);
      next.set(name, { resourceVersion: rv, signature, versions });
      for (const v of [...(prev?.versions ?? []), ...versions]) touched.add(v.key);
    }
    for (const [name, prev] of this.entries) {
      if (!next.has(name)) for (const v of prev.versions) touched.add(v.key);
    }
    this.entries = next;
    return { changed: touched.size > 0, groupVersions: touched };
  }

  /** Every published version, by CRD name then spec order. */
  all(): PublishedVersion[] {
    return [...this.entries.keys()].sort().flatMap((name) => this.entries.get(name)!.versions);
  }

  /** The published versions of one v3 document path. */
  groupVersion(key: string): PublishedVersion[] {
    return this.all().filter((v) => v.key === key);
  }

  /** The v3 document paths of every published version. */
  keys(): Set<string> {
    return new Set(this.all().map((v) => v.key));
  }
}

/** What of a CRD the documents depend on, as text. */
function signatureOf(crd: CustomResourceDefinition): string {
  const { group, names, scope, versions, preserveUnknownFields } = crd.spec;
  return JSON.stringify({
    group, kind: names.kind, listKind: names.listKind, plural: names.plural, scope, preserveUnknownFields,
    versions: versions.filter((v) => v.served).map((v) => ({ name: v.name, schema: v.schema, subresources: v.subresources })),
  });
}
