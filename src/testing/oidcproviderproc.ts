// A real OpenID provider (the certified oidc-provider package) for tests, run
// as its own process by oidcprovider.ts: HTTPS on 127.0.0.1 with the given
// certificate, discovery and JWKS at the standard paths, the given signing
// keys (the first signs), and the given clients. ID tokens come from its token
// endpoint through a test-only grant, `urn:svc:test:id-token`, whose
// parameters are the subject, extra claims (JSON) and a lifetime: the
// provider signs them with its own key, issuer, audience (the client) and
// expiry, exactly as it signs ID tokens of the authorization-code flow.
// Configuration arrives as JSON in SVC_OIDC_FIXTURE; "listening <port>" on
// stdout says it is ready.
import https from 'node:https';
import Provider, { type GrantContext } from 'oidc-provider';

interface FixtureConfig {
  readonly port: number;
  readonly issuer: string;
  readonly cert: string;
  readonly key: string;
  readonly jwks: { keys: Record<string, unknown>[] };
  readonly clients: { client_id: string; client_secret: string; id_token_signed_response_alg?: string }[];
}

export const TEST_GRANT = 'urn:svc:test:id-token';

const config = JSON.parse(process.env.SVC_OIDC_FIXTURE ?? '{}') as FixtureConfig;
const provider = new Provider(config.issuer, {
  clients: config.clients.map((c) => ({ ...c, grant_types: [TEST_GRANT], response_types: [], redirect_uris: [] })),
  jwks: config.jwks,
  features: { devInteractions: { enabled: false } },
  enabledJWA: { idTokenSigningAlgValues: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] },
});
provider.registerGrantType(TEST_GRANT, async (ctx: GrantContext) => {
  const p = ctx.oidc.params;
  const extra = p.claims ? (JSON.parse(p.claims) as Record<string, unknown>) : {};
  const token = new provider.IdToken({ sub: p.sub ?? 'nobody' }, { ctx });
  token.scope = 'openid';
  for (const [k, v] of Object.entries(extra)) token.set(k, v);
  const lifetime = p.expires_in ? Number(p.expires_in) : 600;
  const id_token = await token.issue({ use: 'idtoken', expiresAt: Math.floor(Date.now() / 1000) + lifetime });
  ctx.body = { id_token, token_type: 'Bearer', expires_in: lifetime };
}, ['sub', 'claims', 'expires_in']);
provider.on('server_error', (_ctx, err) => console.error('oidc-provider server_error', err));

const server = https.createServer({ cert: config.cert, key: config.key }, provider.callback());
server.listen(config.port, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
