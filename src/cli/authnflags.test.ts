import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';
import { AUTHN_FLAGS, authnOptions } from './authnflags.js';

const opts = (...argv: string[]) => authnOptions(parseFlags(AUTHN_FLAGS, argv).values);

describe('--oidc-* and --authentication-token-webhook-* flags', () => {
  it('are off unless given', () => {
    assert.deepEqual(opts(), {});
  });

  it('take kube-apiserver\'s defaults and repeatable required claims', () => {
    assert.deepEqual(opts('--oidc-issuer-url=https://idp.example', '--oidc-client-id=kube'), {
      oidc: { issuerURL: 'https://idp.example', clientID: 'kube', signingAlgs: ['RS256'], usernameClaim: 'sub', requiredClaims: {} },
    });
    const o = opts('--oidc-issuer-url', 'https://idp.example', '--oidc-client-id', 'kube', '--oidc-username-claim=email', '--oidc-username-prefix=-',
      '--oidc-groups-claim=groups', '--oidc-groups-prefix=oidc:', '--oidc-signing-algs=RS256,ES256', '--oidc-ca-file=/ca.crt',
      '--oidc-required-claim=hd=example.com', '--oidc-required-claim', 'tenant=acme');
    assert.deepEqual(o.oidc, {
      issuerURL: 'https://idp.example', clientID: 'kube', signingAlgs: ['RS256', 'ES256'], usernameClaim: 'email', usernamePrefix: '-',
      groupsClaim: 'groups', groupsPrefix: 'oidc:', caFile: '/ca.crt', requiredClaims: { hd: 'example.com', tenant: 'acme' },
    });
    assert.deepEqual(opts('--authentication-token-webhook-config-file=/hook.yaml'), { tokenWebhook: { configFile: '/hook.yaml', cacheTtlMs: 120_000, version: 'v1beta1' } });
    assert.deepEqual(opts('--authentication-token-webhook-config-file=/h', '--authentication-token-webhook-cache-ttl=30s', '--authentication-token-webhook-version=v1').tokenWebhook,
      { configFile: '/h', cacheTtlMs: 30_000, version: 'v1' });
  });

  const bad: [string[], RegExp][] = [
    [['--oidc-issuer-url=https://idp'], /oidc-issuer-url and oidc-client-id should be specified together/],
    [['--oidc-client-id=kube'], /should be specified together/],
    [['--oidc-issuer-url=http://idp', '--oidc-client-id=kube'], /https scheme/],
    [['--oidc-issuer-url=https://idp', '--oidc-client-id=kube', '--oidc-signing-algs=HS256'], /unsupported signing alg: "HS256"/],
    [['--authentication-token-webhook-config-file=/h', '--authentication-token-webhook-version=v2'], /--authentication-token-webhook-version/],
  ];
  for (const [argv, want] of bad) it(`refuses ${argv.join(' ')}`, () => assert.throws(() => opts(...argv), want));
});
