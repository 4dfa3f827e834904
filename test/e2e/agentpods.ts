// What the node agent's e2e suites share: pods bound to the test's node,
// read and awaited through the API; and kubeadm's join set-up (bootstrap
// token, the bindings that let bootstrappers get node client certificates
// and nodes renew their own).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { eventually, HARNESS_CONTROLLERS, startTestServer, writeTokenFile, type TestServer } from './harness.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface PodHelpers {
  getPod(name: string): Promise<Obj | undefined>;
  /** Waits (45 s unless told) until the pod satisfies `pred`; the error shows its last status. */
  waitPod(name: string, pred: (p: Obj) => boolean, ms?: number): Promise<Obj>;
  /** A pod in `default` bound to the node, with a 2 s grace period unless the spec says otherwise. */
  createPod(name: string, spec: Obj, meta?: Obj): Promise<void>;
}

export function podHelpers(t: () => TestServer, nodeName: string): PodHelpers {
  const getPod = async (name: string): Promise<Obj | undefined> => {
    const r = await t().req('GET', `/api/v1/namespaces/default/pods/${name}`);
    return r.status === 200 ? (r.body as Obj) : undefined;
  };
  return {
    getPod,
    async waitPod(name, pred, ms = 45_000) {
      let last: Obj | undefined;
      try {
        await eventually(async () => {
          last = await getPod(name);
          return last !== undefined && pred(last);
        }, ms);
      } catch {
        throw new Error(`pod ${name} did not get there: ${JSON.stringify(last?.status)}`);
      }
      return last!;
    },
    async createPod(name, spec, meta = {}) {
      const r = await t().req('POST', '/api/v1/namespaces/default/pods', {
        apiVersion: 'v1', kind: 'Pod', metadata: { name, ...meta }, spec: { nodeName, terminationGracePeriodSeconds: 2, ...spec },
      });
      assert.equal(r.status, 201, r.text);
    },
  };
}

/** The bootstrap token `abcdef.0123456789abcdef` and kubeadm's bindings for joining nodes. */
export const BOOTSTRAP_TOKEN = 'abcdef.0123456789abcdef';

export async function kubeadmJoinSetup(t: TestServer): Promise<void> {
  const bind = async (name: string, role: string, group: string) => {
    const r = await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: group }],
    });
    assert.equal(r.status, 201, r.text);
  };
  await bind('join-create', 'system:node-bootstrapper', 'system:bootstrappers');
  await bind('join-approve', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:bootstrappers');
  await bind('node-renew', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes');
  const secret = await t.req('POST', '/api/v1/namespaces/svc-system/secrets', {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bootstrap-token-abcdef' }, type: 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' },
  });
  assert.equal(secret.status, 201, secret.text);
}

/**
 * The API server an in-process agent joins: NodeRestriction, the service
 * account controllers, a token for `system:node:<node>`; and the node's
 * svcconfig (that token) written to `svcconfig`.
 */
export async function startNodeTestServer(dir: string, node: string, svcconfig: string): Promise<TestServer> {
  const t = await startTestServer({
    tokenAuthFile: writeTokenFile(dir, `token-${node},system:node:${node},${node},"system:nodes"\n`),
    controllerManager: { controllers: [...HARNESS_CONTROLLERS] },
    admission: { enable: ['NodeRestriction'] },
    serviceAccountControllers: true,
  });
  const cfg = parse(readFileSync(t.kubeconfig, 'utf8'));
  writeFileSync(svcconfig, stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'node',
    clusters: [{ name: 'c', cluster: { server: t.url, 'certificate-authority-data': cfg.clusters[0].cluster['certificate-authority-data'] } }],
    contexts: [{ name: 'node', context: { cluster: 'c', user: 'node' } }],
    users: [{ name: 'node', user: { token: `token-${node}` } }],
  }));
  return t;
}
