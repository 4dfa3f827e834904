// The agent's self-signed serving pair (kube's first start without
// --tls-cert-file): a CA `<host>-ca@<unix time>` and a serving certificate
// `<host>@<unix time>` for the host name, made in a short-lived child process
// (node running this file) so that the certificate library (@peculiar/x509,
// ≈ 20 MB of code and heap) is never loaded into the long-running agent. Run
// as a program (`node selfsigned.js <host> <epoch ms>`) it prints the pair as
// JSON: `{ cert, key }`, the cert holding the leaf then the CA.
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PemKeyPair } from '../../server/pki.js';

/** The pair for `hostname` at `now`, made by a child process. */
export function selfSignedPair(hostname: string, now: Date): Promise<PemKeyPair> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [fileURLToPath(import.meta.url), hostname, String(now.getTime())], { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`generating the self-signed serving certificate: ${stderr.trim() || err.message}`));
      try {
        const pair = JSON.parse(stdout) as PemKeyPair;
        if (typeof pair.cert !== 'string' || typeof pair.key !== 'string') throw new Error('no cert and key in its output');
        resolve({ cert: pair.cert, key: pair.key });
      } catch (e) {
        reject(new Error(`generating the self-signed serving certificate: ${(e as Error).message}`));
      }
    });
  });
}

/** The pair, made in this process. */
export async function generateSelfSigned(hostname: string, now: Date): Promise<PemKeyPair> {
  const { issueServingCertificate, newCertificateAuthority } = await import('../../server/pki.js');
  const stamp = Math.floor(now.getTime() / 1000);
  const ca = await newCertificateAuthority(now, `${hostname}-ca@${stamp}`);
  const leaf = await issueServingCertificate(ca, [hostname], `${hostname}@${stamp}`, now);
  return { cert: `${leaf.cert}${ca.cert}`, key: leaf.key };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [hostname, ms] = process.argv.slice(2);
  if (!hostname || !ms || !Number.isFinite(Number(ms))) {
    process.stderr.write('usage: selfsigned.js <hostname> <epoch milliseconds>\n');
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(await generateSelfSigned(hostname, new Date(Number(ms)))));
}
