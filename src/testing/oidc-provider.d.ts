// The little of oidc-provider (a dev dependency without types) the test fixture uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export interface IdTokenInstance {
    scope: string;
    set(key: string, value: unknown): void;
    issue(opts: { use: 'idtoken'; expiresAt?: number }): Promise<string>;
  }
  export interface GrantContext {
    oidc: { params: Record<string, string | undefined> };
    body: unknown;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly IdToken: new (claims: Record<string, unknown>, opts: { ctx: GrantContext }) => IdTokenInstance;
    registerGrantType(name: string, handler: (ctx: GrantContext, next: () => Promise<void>) => Promise<void>, params?: string[]): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
}
