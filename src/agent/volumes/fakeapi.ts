// An in-memory AgentApi for the volume tests: objects by resource, namespace
// and name; TokenRequests answered with numbered tokens (or failing on
// demand); every call recorded. Not used outside tests.
import { newNotFound } from '../../api/meta/status.js';
import type { DeleteOptions, Target } from '../../controllers/client.js';
import type { ResourceHandler } from '../../controllers/shared.js';
import { clone, type ApiObject } from '../../registry/object.js';
import type { AgentApi, ObjectCache } from '../api.js';

class MapCache implements ObjectCache {
  constructor(private readonly objects: () => ApiObject[]) {}
  get(namespace: string, name: string): ApiObject | undefined {
    return this.objects().find((o) => (o.metadata.namespace ?? '') === namespace && o.metadata.name === name);
  }
  list(): ApiObject[] {
    return this.objects();
  }
  addHandler(_h: ResourceHandler): void {}
  async start(): Promise<void> {}
  async waitForSync(): Promise<void> {}
}

export interface TokenCall {
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly body: ApiObject;
}

export class FakeAgentApi implements AgentApi {
  readonly nodeName = 'node-1';
  private readonly objects = new Map<string, ApiObject>();
  readonly tokenCalls: TokenCall[] = [];
  /** When set, TokenRequests fail with this message. */
  tokenError: string | undefined;
  /** The clock the TokenRequest answers use. */
  now: () => number = Date.now;
  /** This node's Node object. */
  nodeObject?: ApiObject;

  private key(resource: string, namespace: string, name: string): string {
    return `${resource}/${namespace}/${name}`;
  }

  put(resource: string, obj: ApiObject): ApiObject {
    this.objects.set(this.key(resource, obj.metadata.namespace ?? '', obj.metadata.name ?? ''), obj);
    return obj;
  }

  remove(resource: string, namespace: string, name: string): void {
    this.objects.delete(this.key(resource, namespace, name));
  }

  async get(t: Target, namespace: string, name: string): Promise<ApiObject> {
    const o = this.objects.get(this.key(t.resource, namespace, name));
    if (!o) throw newNotFound({ group: t.group, resource: t.resource }, name);
    return clone(o);
  }
  async create(t: Target, _namespace: string, obj: ApiObject): Promise<ApiObject> {
    return this.put(t.resource, obj);
  }
  async update(t: Target, namespace: string, name: string, mutate: (current: ApiObject) => ApiObject): Promise<ApiObject> {
    return this.put(t.resource, mutate(await this.get(t, namespace, name)));
  }
  async patch(t: Target, namespace: string, name: string, patch: Record<string, unknown>): Promise<ApiObject> {
    return this.put(t.resource, { ...(await this.get(t, namespace, name)), ...patch } as ApiObject);
  }
  async delete(t: Target, namespace: string, name: string, _opts?: DeleteOptions): Promise<unknown> {
    this.remove(t.resource, namespace, name);
    return {};
  }
  async createSubresource(t: Target & { readonly subresource: string }, namespace: string, name: string, body: ApiObject): Promise<ApiObject> {
    if (t.resource !== 'serviceaccounts' || t.subresource !== 'token') throw new Error(`unexpected subresource ${t.resource}/${t.subresource}`);
    this.tokenCalls.push({ namespace, serviceAccount: name, body: clone(body) });
    if (this.tokenError) throw new Error(this.tokenError);
    const spec = body.spec as { expirationSeconds: number };
    const exp = new Date(Math.floor(this.now() / 1000) * 1000 + spec.expirationSeconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    return { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name, namespace }, spec: clone(body.spec) as never, status: { token: `token-${this.tokenCalls.length}`, expirationTimestamp: exp } };
  }
  pods(): ObjectCache {
    return new MapCache(() => []);
  }
  services(): ObjectCache {
    return new MapCache(() => []);
  }
  node(): ObjectCache {
    return new MapCache(() => (this.nodeObject ? [this.nodeObject] : []));
  }
  close(): void {}
}
