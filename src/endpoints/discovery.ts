// Legacy discovery: /api, /apis, /api/v1, /apis/<group>, /apis/<group>/<version>
// and /version. Groups containing svc.io are listed in both spellings (svc.io
// first), as CLIENT-COMPAT.md §5 asks, so manifests written for Kubernetes map.
import { createHash } from 'node:crypto';
import type { ServedResource } from '../registry/registry.js';
import { kubernetesGroup } from './requestinfo.js';

export interface DiscoveryDeps {
  readonly resources: readonly ServedResource[];
  /** Group names (svc.io spelling) in discovery order, each with versions, preferred first. */
  readonly groups: readonly { readonly name: string; readonly versions: readonly string[] }[];
  readonly serverAddress: () => string;
}

export const VERSION_INFO = {
  major: '1',
  minor: '27',
  gitVersion: 'v1.27.0-svc',
  gitCommit: 'svc',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

/** Kubernetes' storageVersionHash: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>"). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

export class Discovery {
  constructor(private readonly deps: DiscoveryDeps) {}

  /** The discovery document for a path, or undefined when the path is not a discovery path. */
  handle(path: string): unknown {
    const p = path.replace(/\/+$/, '') || '/';
    if (p === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: this.deps.serverAddress() }] };
    if (p === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: this.allGroups().map((g) => this.groupDoc(g.spelled, g.versions)) };
    if (p === '/api/v1') return this.resourceList('', 'v1', 'v1');
    const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(p);
    if (!m) return undefined;
    const g = this.allGroups().find((x) => x.spelled === m[1]);
    if (!g) return undefined;
    if (m[2] === undefined) return { kind: 'APIGroup', apiVersion: 'v1', ...this.groupDoc(g.spelled, g.versions) };
    if (!g.versions.includes(m[2])) return undefined;
    return this.resourceList(g.canonical, m[2], `${g.spelled}/${m[2]}`);
  }

  private allGroups(): { spelled: string; canonical: string; versions: readonly string[] }[] {
    const out: { spelled: string; canonical: string; versions: readonly string[] }[] = [];
    for (const g of this.deps.groups) {
      if (g.name === '') continue;
      out.push({ spelled: g.name, canonical: g.name, versions: g.versions });
      const k8s = kubernetesGroup(g.name);
      if (k8s !== g.name) out.push({ spelled: k8s, canonical: g.name, versions: g.versions });
    }
    return out;
  }

  private groupDoc(name: string, versions: readonly string[]) {
    const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return { name, versions: vs, preferredVersion: vs[0] };
  }

  private resourceList(group: string, version: string, groupVersion: string) {
    const resources: Record<string, unknown>[] = [];
    const served = this.deps.resources.filter((r) => r.group === group && r.version === version).sort((a, b) => a.resource.localeCompare(b.resource));
    for (const r of served) {
      resources.push({
        name: r.resource,
        singularName: r.singularName ?? '',
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: [...r.verbs],
        ...(r.shortNames?.length ? { shortNames: [...r.shortNames] } : {}),
        ...(r.categories?.length ? { categories: [...r.categories] } : {}),
        ...(r.virtual ? {} : { storageVersionHash: storageVersionHash(r.group, r.storageVersion, r.kind) }),
      });
      for (const s of [...r.subresources].sort((a, b) => a.name.localeCompare(b.name))) {
        resources.push({
          name: `${r.resource}/${s.name}`,
          singularName: '',
          namespaced: r.namespaced,
          ...(s.group !== undefined ? { group: s.group, version: s.version } : {}),
          kind: s.kind,
          verbs: [...s.verbs],
        });
      }
    }
    return group === '' ? { kind: 'APIResourceList', groupVersion, resources } : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
  }
}
