// @peculiar/x509, loaded on first use: it is ≈ 20 MB of the process's memory
// (code and heap) and the agent needs it only to write a certificate request
// (TLS bootstrap, renewal) or check one it finds — never in steady state.
// The library signs through node's WebCrypto.
import { webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';

let loading: Promise<typeof X509> | undefined;

export function x509Library(): Promise<typeof X509> {
  loading ??= import('@peculiar/x509').then((x509) => {
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    return x509;
  });
  return loading;
}
