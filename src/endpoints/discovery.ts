// Discovery: /api, /apis, /api/v1, /apis/<group>, /apis/<group>/<version>
// and /version. Groups containing svc.io are listed in both spellings (svc.io
// first), as CLIENT-COMPAT.md §5 asks, so manifests written for Kubernetes map.
// With the AggregatedDiscoveryEndpoint gate, /api and /apis also answer the
// aggregated document (aggregated.ts) when Accept asks for it; legacy
// discovery is always served.
import { createHash } from 'node:crypto';
import { newNotAcceptable } from '../api/meta/index.js';
import type { ServedResource } from '../registry/registry.js';
import type { RequestContext } from '../server/context.js';
import { writeObject } from '../server/respond.js';
import { aggregatedList, encodeDocument, matchesETag, negotiateAggregated, type AggregatedTarget, type EncodedDocument, type GroupResources, type Spelling } from './aggregated.js';
import { BODY_TYPES, negotiate } from './negotiate.js';
import { kubernetesGroup } from './requestinfo.js';

export interface DiscoveryDeps {
  readonly resources: readonly ServedResource[];
  /** Group names (svc.io spelling) in discovery order, each with versions, preferred first. */
  readonly groups: readonly { readonly name: string; readonly versions: readonly string[] }[];
  readonly serverAddress: () => string;
  /** Serve aggregated discovery at /api and /apis (the AggregatedDiscoveryEndpoint gate). */
  readonly aggregated?: boolean;
}

/** What a discovery path answers, before it is written. */
export type DiscoveryAnswer =
  | { readonly kind: 'legacy'; readonly doc: unknown }
  | { readonly kind: 'aggregated'; readonly status: 200 | 304; readonly contentType: string; readonly etag: string; readonly body: string };

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
  /** Encoded aggregated documents by `<path> <spelling> <encoding>`: they change only with the served resources. */
  private readonly encoded = new Map<string, EncodedDocument>();
  /** Custom resources (src/apiextensions/serve/) and their groups, after the built-in ones. */
  private custom: { resources: readonly ServedResource[]; groups: { spelled: string; canonical: string; versions: readonly string[] }[] } = { resources: [], groups: [] };

  constructor(private readonly deps: DiscoveryDeps) {}

  /**
   * The served custom resources changed: their groups are listed after the built-in ones, by
   * name, each spelled as its CRD registered it, versions in kube's version priority.
   */
  setCustomResources(resources: readonly ServedResource[]): void {
    const groups = new Map<string, { spelled: string; canonical: string; versions: Set<string> }>();
    for (const r of resources) {
      const spelled = r.custom?.spelledGroup ?? r.group;
      let g = groups.get(spelled);
      if (!g) groups.set(spelled, (g = { spelled, canonical: r.group, versions: new Set() }));
      g.versions.add(r.version);
    }
    this.custom = {
      resources,
      groups: [...groups.values()].sort((a, b) => (a.spelled < b.spelled ? -1 : a.spelled > b.spelled ? 1 : 0))
        .map((g) => ({ spelled: g.spelled, canonical: g.canonical, versions: [...g.versions].sort(compareKubeAwareVersions) })),
    };
    this.encoded.clear();
  }

  /** Writes the answer to a discovery request; false when the path is not a discovery path. */
  serve(ctx: RequestContext, path: string): boolean {
    const a = this.answer(path, ctx.req.headers.accept, ctx.req.headers['if-none-match']);
    if (a === undefined) return false;
    if (a.kind === 'legacy') {
      if (negotiate(ctx.req.headers.accept) === null) throw newNotAcceptable(BODY_TYPES);
      writeObject(ctx, 200, a.doc, 'json');
      return true;
    }
    if (ctx.res.headersSent || ctx.res.writableEnded) return true;
    ctx.res.statusCode = a.status;
    ctx.res.setHeader('ETag', a.etag);
    ctx.res.setHeader('Vary', 'Accept');
    ctx.res.setHeader('Cache-Control', 'public');
    if (a.status === 304) {
      ctx.res.end();
      return true;
    }
    ctx.res.setHeader('Content-Type', a.contentType);
    ctx.res.end(a.body);
    return true;
  }

  /** The answer for a path and the request's Accept and If-None-Match; undefined when the path is not a discovery path. */
  answer(path: string, accept: string | undefined, ifNoneMatch?: string): DiscoveryAnswer | undefined {
    const p = path.replace(/\/+$/, '') || '/';
    if (this.deps.aggregated && (p === '/api' || p === '/apis')) {
      const target = negotiateAggregated(accept);
      if (target) {
        const doc = this.aggregatedDocument(p, target);
        const status = matchesETag(ifNoneMatch, doc.etag) ? 304 : 200;
        return { kind: 'aggregated', status, contentType: target.contentType, etag: doc.etag, body: doc.body };
      }
    }
    const doc = this.handle(p);
    return doc === undefined ? undefined : { kind: 'legacy', doc };
  }

  /** The legacy discovery document for a path, or undefined when the path is not a discovery path. */
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

  private aggregatedDocument(path: '/api' | '/apis', target: AggregatedTarget): EncodedDocument {
    const key = `${path} ${target.spelling} ${target.encoding}`;
    let doc = this.encoded.get(key);
    if (!doc) {
      const groups: GroupResources[] =
        path === '/api'
          ? [{ name: '', versions: [{ version: 'v1', resources: this.served('', 'v1') }] }]
          : this.allGroups(target.spelling).map((g) => ({ name: g.spelled, versions: g.versions.map((v) => ({ version: v, resources: this.served(g.canonical, v) })) }));
      doc = encodeDocument(aggregatedList(groups, target.spelling), target.encoding);
      this.encoded.set(key, doc);
    }
    return doc;
  }

  /** The resources of a group-version (svc.io spelling), sorted by name as discovery lists them. */
  private served(group: string, version: string): ServedResource[] {
    return [...this.deps.resources, ...this.custom.resources].filter((r) => r.group === group && r.version === version).sort((a, b) => a.resource.localeCompare(b.resource));
  }

  /**
   * Every group in both spellings. The order is the clients' priority when a
   * resource name is in several groups: for stock clients (legacy documents,
   * `g=apidiscovery.k8s.io`) the k8s.io spelling comes first, so kubectl
   * resolves `roles`, `csr`, `ingress`… to the group its describers and
   * commands know (`kubectl describe role` prints kube's rule table;
   * `kubectl certificate approve` accepts only certificates.k8s.io objects);
   * our own spelling of the aggregated document lists svc.io first.
   */
  private allGroups(first: Spelling = 'k8s.io'): { spelled: string; canonical: string; versions: readonly string[] }[] {
    const out: { spelled: string; canonical: string; versions: readonly string[] }[] = [];
    for (const g of this.deps.groups) {
      if (g.name === '') continue;
      const k8s = kubernetesGroup(g.name);
      const spellings = k8s === g.name ? [g.name] : first === 'k8s.io' ? [k8s, g.name] : [g.name, k8s];
      for (const spelled of spellings) out.push({ spelled, canonical: g.name, versions: g.versions });
    }
    out.push(...this.custom.groups);
    return out;
  }

  private groupDoc(name: string, versions: readonly string[]) {
    const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return { name, versions: vs, preferredVersion: vs[0] };
  }

  private resourceList(group: string, version: string, groupVersion: string) {
    const resources: Record<string, unknown>[] = [];
    for (const r of this.served(group, version)) {
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

/**
 * Kubernetes' version priority (CompareKubeAwareVersionStrings) as a sort comparator, highest
 * first: names like v2, v1beta1 before others; GA before beta before alpha; larger numbers first;
 * other names alphabetically.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    return m ? { major: Number(m[1]), stage: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: m[3] ? Number(m[3]) : 0 } : undefined;
  };
  const x = parse(a);
  const y = parse(b);
  if (x && y) {
    if (x.stage !== y.stage) return y.stage - x.stage;
    if (x.major !== y.major) return y.major - x.major;
    return y.minor - x.minor;
  }
  if (x) return -1;
  if (y) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
