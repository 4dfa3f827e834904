// The real-world CRDs of ../shared/reference/crds (cert-manager, prometheus-operator)
// published together: every document builds, is valid JSON, every reference
// resolves, v2 holds nothing Swagger 2.0 lacks, the protobuf form encodes — and
// kubectl 1.27's explain reads them from /openapi/v2 as it reads a real server's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OpenAPIService } from '../../openapi/service.js';
import type { RequestContext } from '../../server/context.js';
import { servedResources } from '../../server/served.js';
import { findTool } from '../../testing/tools.js';
import { tempDir } from '../../testing/tempdir.js';
import type { CustomResourceDefinition } from '../types.js';
import { publishedVersions } from './build.js';
import { referenceCRDs, referenceCRDsMissing } from './fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';

/** Every $ref under a value. */
function* refs(v: Doc): Generator<string> {
  if (Array.isArray(v)) for (const x of v) yield* refs(x);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') yield x;
      else yield* refs(x);
    }
  }
}

/** Every schema node under a published schema (properties, items, additionalProperties, junctors). */
function* nodes(s: Doc): Generator<Doc> {
  if (typeof s !== 'object' || s === null) return;
  yield s;
  for (const p of Object.values(s.properties ?? {})) yield* nodes(p);
  yield* nodes(s.items);
  yield* nodes(s.additionalProperties);
  for (const k of ['allOf', 'anyOf', 'oneOf']) for (const x of s[k] ?? []) yield* nodes(x);
  yield* nodes(s.not);
}

describe('the reference CRDs', { skip: referenceCRDsMissing }, () => {
  const crds = referenceCRDsMissing ? [] : referenceCRDs();
  const service = new OpenAPIService(servedResources());
  service.setCustomResources(crds.map((c) => c.crd));

  it('each served version publishes its kind and List, with their group-version-kinds', () => {
    assert.equal(crds.length, 16);
    for (const { file, crd } of crds) {
      const versions = publishedVersions(crd);
      assert.equal(versions.length, crd.spec.versions.filter((v) => v.served).length, file);
      for (const v of versions) {
        for (const [id, c] of v.components) {
          for (const form of ['v2', 'v3'] as const) {
            const gvk = c[form]['x-kubernetes-group-version-kind'] as Doc;
            assert.equal(gvk[0].group, crd.spec.group, `${file} ${id}`);
            assert.ok(id.endsWith(`.${v.version}.${gvk[0].kind}`), `${file} ${id}`);
          }
          assert.ok((c.v3.properties as Doc)?.metadata, `${file} ${id}: properties published`);
        }
      }
    }
  });

  it('/openapi/v2: valid JSON; every reference resolves; no keyword Swagger 2.0 lacks', () => {
    const doc = JSON.parse(service.v2JsonBytes().body.toString());
    for (const ref of new Set(refs(doc))) assert.ok(doc.definitions[ref.slice('#/definitions/'.length)], ref);
    for (const { crd } of crds) {
      for (const v of crd.spec.versions.filter((x) => x.served)) {
        const id = `${crd.spec.group.split('.').reverse().join('.')}.${v.name}.${crd.spec.names.kind}`;
        for (const n of nodes(doc.definitions[id])) {
          for (const k of ['anyOf', 'allOf', 'oneOf', 'not', 'nullable']) assert.equal(n[k], undefined, `${id}: ${k}`);
        }
      }
    }
  });

  it('/openapi/v2 as protobuf encodes', () => {
    assert.ok(service.v2ProtoBytes().body.length > service.v2JsonBytes().body.length / 2);
  });

  it('/openapi/v3: every CRD group-version document is valid JSON and its references resolve', () => {
    const keys = [...new Set(crds.flatMap(({ crd }) => publishedVersions(crd).map((v) => v.key)))].sort();
    assert.deepEqual(keys, ['apis/acme.cert-manager.io/v1', 'apis/cert-manager.io/v1', 'apis/monitoring.coreos.com/v1', 'apis/monitoring.coreos.com/v1alpha1']);
    for (const key of keys) {
      const doc = JSON.parse(service.v3Docs().byPath.get(key)!.body.toString());
      for (const ref of new Set(refs(doc))) assert.ok(doc.components.schemas[ref.slice('#/components/schemas/'.length)], `${key}: ${ref}`);
    }
  });
});

const kubectlMissing = findTool(KUBECTL, 'kubectl 1.27 (google-cloud-sdk kubectl.1.27)', ['version', '--client']).skip;

describe('kubectl 1.27 explain over the published /openapi/v2', { skip: referenceCRDsMissing || kubectlMissing }, () => {
  let server: Server;
  let dir: string;
  let kubeconfig: string;

  before(async () => {
    const crds = referenceCRDs().map((c) => c.crd);
    server = discoveryServer(crds);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    dir = tempDir('svc-explain-');
    kubeconfig = join(dir, 'config');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: c',
      'clusters:', '- name: c', '  cluster:', `    server: http://127.0.0.1:${port}`,
      'contexts:', '- name: c', '  context:', '    cluster: c', '    user: u',
      'users:', '- name: u', '  user: {}', '',
    ].join('\n'));
  });
  after(() => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const explain = (...args: string[]) => new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    execFile(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', cache, 'explain', ...args], { timeout: 60_000, maxBuffer: 16 << 20 }, (e, out, err) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out, err });
    });
  });

  // [arguments, lines the answer must hold]
  const cases: [args: string[], want: string[]][] = [
    [['issuers'], ['GROUP:      cert-manager.io', 'KIND:       Issuer', 'VERSION:    v1', 'metadata\t<ObjectMeta>', 'spec\t<Object> -required-']],
    [['issuers.spec.acme.solvers.http01'], ['FIELD: http01 <Object>', 'ingress\t<Object>']],
    [['prometheus.spec.replicas'], ['KIND:       Prometheus', 'FIELD: replicas <integer>']],
    [['alertmanagerconfigs'], ['KIND:       AlertmanagerConfig', 'VERSION:    v1alpha1']],
    [['servicemonitors.metadata'], ['FIELD: metadata <ObjectMeta>']],
    [['clusterissuers.spec.ca.secretName'], ['FIELD: secretName <string>']],
  ];
  for (const [args, want] of cases) {
    it(`kubectl explain ${args.join(' ')}`, async () => {
      const r = await explain(...args);
      assert.equal(r.code, 0, r.err);
      for (const line of want) assert.ok(r.out.includes(line), `${line}\n---\n${r.out.slice(0, 800)}`);
    });
  }

  it('a field that does not exist: kubectl says so', async () => {
    const r = await explain('issuers.spec.nope');
    assert.notEqual(r.code, 0);
    assert.match(r.err, /field "nope" does not exist/);
  });
});

/** Enough of an API server for kubectl explain: legacy discovery of the CRDs' groups, and the OpenAPI documents. */
function discoveryServer(crds: readonly CustomResourceDefinition[]): Server {
  const service = new OpenAPIService(servedResources());
  service.setCustomResources(crds);
  const resources = new Map<string, Doc[]>();
  for (const c of crds) {
    for (const v of c.spec.versions.filter((x) => x.served)) {
      const gv = `${c.spec.group}/${v.name}`;
      resources.set(gv, [...(resources.get(gv) ?? []), {
        name: c.spec.names.plural, singularName: c.spec.names.singular ?? '', namespaced: c.spec.scope === 'Namespaced',
        kind: c.spec.names.kind, verbs: ['get', 'list'], shortNames: c.spec.names.shortNames,
      }]);
    }
  }
  const groups = new Map<string, { groupVersion: string; version: string }[]>();
  for (const gv of resources.keys()) {
    const [group, version] = gv.split('/') as [string, string];
    groups.set(group, [...(groups.get(group) ?? []), { groupVersion: gv, version }]);
  }
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (service.handle({ req, res, url } as unknown as RequestContext, url.pathname)) return;
    const json = (o: Doc) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(o));
    };
    if (url.pathname === '/api') return json({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] });
    if (url.pathname === '/api/v1') return json({ kind: 'APIResourceList', groupVersion: 'v1', resources: [] });
    if (url.pathname === '/apis') {
      return json({ kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups].map(([name, versions]) => ({ name, versions, preferredVersion: versions[0] })) });
    }
    const gv = url.pathname.replace(/^\/apis\//, '');
    if (resources.has(gv)) return json({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources: resources.get(gv) });
    res.statusCode = 404;
    res.end();
  });
}
