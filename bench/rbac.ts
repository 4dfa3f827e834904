// RBAC (issue 19) at scale: 2,000 ClusterRoles and 10,000 RoleBindings across
// 500 namespaces (plus the bootstrap policy in the server).
// 1. Decision latency in-process on one core: the RBAC authorizer over the
//    subject-indexed cache, and the server's whole chain (system:masters,
//    Node, RBAC), for allowed and denied requests of users bound by name, by
//    group and as service accounts.
// 2. gets/s of one 1 KiB ConfigMap in a `svc server` holding that policy: an
//    RBAC-authorized user (static token; its RoleBinding is one of its
//    namespace's 20) against the admin (static token in system:masters), same
//    process, phases interleaved, the best of two each.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { RbacCache } from '../src/authz/rbac/cache.js';
import { RbacAuthorizer } from '../src/authz/rbac/authorizer.js';
import { systemMasters, UnionAuthorizer, type Attributes, type Authorizer } from '../src/authz/authorizer.js';
import { NodeAuthorizer } from '../src/authz/node/authorizer.js';
import { Graph } from '../src/authz/node/graph.js';
import type { ApiObject } from '../src/registry/object.js';
import { fmt, startServerProcess, stopProcess, summarize } from './report.js';
import { client, compareGets, untilOk, type Call } from './httpclient.js';
import { hasWrk, wrk } from './wrk.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
const CLUSTER_ROLES = 2000;
const NAMESPACES = 500;
const BINDINGS_PER_NAMESPACE = 20;
const RESOURCES = ['pods', 'services', 'configmaps', 'secrets', 'deployments', 'jobs', 'ingresses', 'leases'];

/** The policy as API objects: ClusterRoles of four rules, RoleBindings naming a user, a group and a service account. */
function policy(): { clusterRoles: ApiObject[]; roleBindings: ApiObject[] } {
  const clusterRoles: ApiObject[] = [];
  for (let i = 0; i < CLUSTER_ROLES; i++) {
    clusterRoles.push({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `bench-role-${i}` },
      rules: [0, 1, 2, 3].map((k) => ({ apiGroups: [k % 2 ? 'apps' : ''], resources: [RESOURCES[(i + k) % RESOURCES.length]!], verbs: k === 3 ? ['get', 'list', 'watch'] : ['get'] })),
    } as ApiObject);
  }
  const roleBindings: ApiObject[] = [];
  for (let n = 0; n < NAMESPACES; n++) {
    for (let b = 0; b < BINDINGS_PER_NAMESPACE; b++) {
      const i = n * BINDINGS_PER_NAMESPACE + b;
      roleBindings.push({
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: `bench-binding-${b}`, namespace: `bench-ns-${n}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `bench-role-${i % CLUSTER_ROLES}` },
        subjects: [
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `user-${i}` },
          { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: `group-${i % 97}` },
          { kind: 'ServiceAccount', name: `sa-${b}`, namespace: `bench-ns-${n}` },
        ],
      } as ApiObject);
    }
  }
  return { clusterRoles, roleBindings };
}

const get = (user: Attributes['user'], namespace: string, resource: string): Attributes =>
  ({ user, verb: 'get', isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace, resource, subresource: '', name: 'x' });

/** Per-decision latency (µs) over `rounds` passes of the request mix. */
async function measure(decide: (a: Attributes) => unknown, mix: Attributes[], rounds: number): Promise<{ p50: number; p99: number; max: number; perSec: number }> {
  const samples: number[] = [];
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) {
    for (const a of mix) {
      const t = process.hrtime.bigint();
      const d = decide(a);
      if (d instanceof Promise) await d;
      samples.push(Number(process.hrtime.bigint() - t) / 1000);
    }
  }
  const total = Number(process.hrtime.bigint() - start) / 1e9;
  return { ...summarize(samples), perSec: samples.length / total };
}

async function decisions(): Promise<string[]> {
  const { clusterRoles, roleBindings } = policy();
  const cache = new RbacCache();
  for (const r of clusterRoles) cache.put('clusterroles', r);
  for (const b of roleBindings) cache.put('rolebindings', b);
  // without a generation the authorizer remembers nothing: every decision walks the user's bindings
  const uncached = new RbacAuthorizer({
    clusterRoleBindingsFor: (u) => cache.clusterRoleBindingsFor(u), roleBindingsFor: (u, ns) => cache.roleBindingsFor(u, ns),
    getClusterRole: (n) => cache.getClusterRole(n), getRole: (ns, n) => cache.getRole(ns, n),
  });
  const rbac = new RbacAuthorizer(cache);
  const chain: Authorizer = new UnionAuthorizer([systemMasters, new NodeAuthorizer(new Graph()), rbac]);
  // user-i is bound in bench-ns-(i/20) to bench-role-i, whose rules cover RESOURCES[i%8 .. i%8+3].
  const mix: Attributes[] = [];
  for (let k = 0; k < 200; k++) {
    const i = (k * 7919) % (NAMESPACES * BINDINGS_PER_NAMESPACE);
    const ns = `bench-ns-${Math.floor(i / BINDINGS_PER_NAMESPACE)}`;
    const user = { name: `user-${i}`, groups: [`group-${(i + 1) % 97}`, 'system:authenticated'] };
    mix.push(get(user, ns, RESOURCES[(i + 2) % RESOURCES.length]!)); // allowed by the user's binding
    mix.push(get(user, ns, 'nodes')); // denied: no rule
    mix.push(get(user, 'bench-ns-0', 'pods')); // denied: bound elsewhere (its group may be bound here)
    mix.push(get({ name: `system:serviceaccount:${ns}:sa-${i % BINDINGS_PER_NAMESPACE}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] }, ns, RESOURCES[(i + 2) % RESOURCES.length]!));
  }
  const allowed = mix.filter((a) => uncached.authorize(a).decision === 'allow').length;
  await measure((a) => uncached.authorize(a), mix, 50); // warm-up
  const direct = await measure((a) => uncached.authorize(a), mix, 250);
  const memo = await measure((a) => rbac.authorize(a), mix, 250);
  const union = await measure((a) => chain.authorize(a), mix, 250);
  const row = (name: string, m: Awaited<ReturnType<typeof measure>>) =>
    `| ${name} | ${(mix.length * 250).toLocaleString('en')} | ${fmt(m.p50)} | ${fmt(m.p99)} | ${fmt(m.max, 0)} | ${fmt(m.perSec, 0)} |`;
  return [
    `### RBAC decisions (issue 19): ${CLUSTER_ROLES.toLocaleString('en')} ClusterRoles, ${(NAMESPACES * BINDINGS_PER_NAMESPACE).toLocaleString('en')} RoleBindings in ${NAMESPACES} namespaces, in-process, one core`,
    '',
    `Request mix: allowed by the user's own binding, denied (no rule), denied (bound in another namespace), service account; ${allowed} of ${mix.length} allowed.`,
    '',
    '| decision path | decisions | p50 µs | p99 µs | max µs | per second |',
    '|---|---|---|---|---|---|',
    row('RBAC authorizer, every decision evaluated (subject index)', direct),
    row('RBAC authorizer as the server runs it (decisions remembered until the policy changes)', memo),
    row('server chain (system:masters, Node, RBAC)', union),
    '',
    `- p99 ${fmt(direct.p99)} µs evaluated, ${fmt(memo.p99)} µs remembered, ${fmt(union.p99)} µs the chain; target ≤ 20 µs`,
  ];
}

/** Creates objects with `concurrency` requests in flight; any answer but 201 fails the benchmark. */
async function createAll(call: Call, items: { path: string; body: unknown }[], concurrency = 32): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const it = items[next++]!;
      const r = await call('POST', it.path, JSON.stringify(it.body));
      if (r.status !== 201) throw new Error(`POST ${it.path} answered ${r.status}: ${r.body.slice(0, 300)}`);
    }
  }));
}

async function serverGets(requests: number): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-rbac-'));
  const port = await freePort();
  const tokens = join(dataDir, 'tokens.csv');
  writeFileSync(tokens, 'admin-token,admin,admin-uid,"system:masters"\nuser-token,user-7,user-7-uid,"group-8"\n');
  const proc = await startServerProcess(main, dataDir, port, [`--token-auth-file=${tokens}`]);
  try {
    const cfg = parse(readFileSync(join(dataDir, 'admin.svcconfig'), 'utf8'));
    const ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
    const admin = client(port, { ca }, 'admin-token');
    const user = client(port, { ca }, 'user-token');
    const { clusterRoles, roleBindings } = policy();
    const t0 = performance.now();
    await createAll(admin, Array.from({ length: NAMESPACES }, (_, n) => ({ path: '/api/v1/namespaces', body: { metadata: { name: `bench-ns-${n}` } } })));
    await createAll(admin, clusterRoles.map((body) => ({ path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', body })));
    await createAll(admin, roleBindings.map((body) => ({ path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${(body.metadata as { namespace: string }).namespace}/rolebindings`, body })));
    const loadSeconds = (performance.now() - t0) / 1000;
    // user-7 is bound in bench-ns-0 (binding 7) to bench-role-7: RESOURCES[7..10] = leases, pods, services, configmaps.
    const path = '/api/v1/namespaces/bench-ns-0/configmaps/bench-cm';
    const made = await admin('POST', '/api/v1/namespaces/bench-ns-0/configmaps', JSON.stringify({ metadata: { name: 'bench-cm' }, data: { v: 'x'.repeat(1024) } }));
    if (made.status !== 201) throw new Error(`creating the ConfigMap answered ${made.status}`);
    await untilOk(user, path); // the binding reaches the RBAC cache through a watch
    const { a, b: u } = await compareGets(admin, user, path, requests);
    const withWrk: string[] = [];
    if (hasWrk()) {
      const url = `https://127.0.0.1:${port}${path}`;
      const runs = [0, 1, 2].flatMap(() => [wrk(url, 5, undefined, 'admin-token'), wrk(url, 5, undefined, 'user-token')]);
      const best = (k: number) => Math.max(...runs.filter((_, i) => i % 2 === k).map((r) => r.rate));
      const errors = runs.reduce((n, r) => n + r.errors, 0);
      withWrk.push('', `With wrk (C, HTTP/1.1 keep-alive, 2 threads, 64 connections, 5 s each, alternating, best of three): admin ${fmt(best(0), 0)} gets/s, user-7 ${fmt(best(1), 0)} gets/s (${fmt((100 * best(1)) / best(0), 0)} %; non-2xx ${errors})`);
    }
    return [
      `### RBAC in the server (issue 19): gets of one 1 KiB ConfigMap, 64 keep-alive connections, \`svc server\` on SQLite holding the policy above plus the bootstrap policy, Node https client`,
      '',
      `Loading ${NAMESPACES} namespaces, ${CLUSTER_ROLES.toLocaleString('en')} ClusterRoles and ${(NAMESPACES * BINDINGS_PER_NAMESPACE).toLocaleString('en')} RoleBindings over HTTP took ${fmt(loadSeconds, 1)} s.`,
      '',
      '| user | requests | per second | p50 ms | p99 ms |',
      '|---|---|---|---|---|',
      `| admin (static token, system:masters) | ${requests.toLocaleString('en')} ×2 | ${fmt(a.rate, 0)} | ${fmt(a.p50)} | ${fmt(a.p99)} |`,
      `| user-7 (static token, RBAC RoleBinding) | ${requests.toLocaleString('en')} ×2 | ${fmt(u.rate, 0)} | ${fmt(u.p50)} | ${fmt(u.p99)} |`,
      '',
      `- RBAC user / admin: ${fmt((100 * u.rate) / a.rate, 0)} % (target ≥ 90 %); phases interleaved, best of two each`,
      ...withWrk,
    ];
  } finally {
    await stopProcess(proc);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchRbac(opts: { requests?: number } = {}): Promise<string[]> {
  return [...(await decisions()), '', ...(await serverGets(opts.requests ?? 20_000))];
}
