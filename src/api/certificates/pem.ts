// PEM and the little DER the certificates.svc.io validation needs: PEM blocks
// read the way Go's encoding/pem reads them (a malformed block is skipped,
// headers are kept), X.509 certificates parsed by node:crypto, and a PKCS#10
// certification request walked just deep enough to know it is one and to
// check its self-signature (kube: x509.ParseCertificateRequest + CheckSignature).
import { X509Certificate, createPublicKey, verify } from 'node:crypto';

export interface PemBlock {
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Buffer;
}

const BEGIN = '-----BEGIN ';
const END = '\n-----END ';
const TAIL = '-----';

/** One line without its newline and trailing spaces, tabs and CRs; the rest after it. */
function getLine(data: string): [string, string] {
  const i = data.indexOf('\n');
  const line = i < 0 ? data : data.slice(0, i);
  return [line.replace(/[ \t\r]+$/, ''), i < 0 ? '' : data.slice(i + 1)];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The first well-formed PEM block of `data` (a latin1 string) and what
 * follows it; no block: undefined and `data` unchanged.
 */
export function decodePem(data: string): { block: PemBlock | undefined; rest: string } {
  let rest = data;
  for (;;) {
    const at = rest.startsWith(BEGIN) ? 0 : rest.indexOf('\n' + BEGIN);
    if (at < 0) return { block: undefined, rest: data };
    let typeLine: string;
    [typeLine, rest] = getLine(rest.slice(at === 0 && rest.startsWith(BEGIN) ? BEGIN.length : at + 1 + BEGIN.length));
    const block = blockAfterBegin(typeLine, rest);
    if (block) return block;
    // A likely looking but invalid block: look again after its BEGIN line (and headers).
  }
}

function blockAfterBegin(typeLine: string, rest: string): { block: PemBlock; rest: string } | undefined {
  if (!typeLine.endsWith(TAIL)) return undefined;
  const type = typeLine.slice(0, -TAIL.length);
  const headers: Record<string, string> = {};
  for (;;) {
    if (rest === '') return undefined;
    const [line, next] = getLine(rest);
    const colon = line.indexOf(':');
    if (colon < 0) break;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    rest = next;
  }
  let endIndex: number;
  let trailerAt: number;
  if (Object.keys(headers).length === 0 && rest.startsWith(END.slice(1))) {
    endIndex = 0;
    trailerAt = END.length - 1;
  } else {
    endIndex = rest.indexOf(END);
    trailerAt = endIndex + END.length;
  }
  if (endIndex < 0) return undefined;
  const trailer = rest.slice(trailerAt, trailerAt + type.length + TAIL.length);
  if (trailer !== type + TAIL) return undefined;
  if (getLine(rest.slice(trailerAt + trailer.length))[0] !== '') return undefined;
  const body = rest.slice(0, endIndex).replace(/[ \t\r\n]/g, '');
  if (!BASE64.test(body) || body.length % 4 !== 0) return undefined;
  return { block: { type, headers, bytes: Buffer.from(body, 'base64') }, rest: getLine(rest.slice(endIndex + END.length - 1))[1] };
}

/** Every PEM block of `data`, in order. */
export function pemBlocks(data: string): PemBlock[] {
  const out: PemBlock[] = [];
  let rest = data;
  for (;;) {
    const r = decodePem(rest);
    if (!r.block) return out;
    out.push(r.block);
    rest = r.rest;
  }
}

// ---- DER ----

interface Tlv {
  readonly tag: number;
  /** Where the value starts and ends. */
  readonly start: number;
  readonly end: number;
  /** Where the whole element starts. */
  readonly from: number;
}

class DerError extends Error {}

function readTlv(buf: Buffer, pos: number, limit: number): Tlv {
  if (pos + 2 > limit) throw new DerError('asn1: syntax error: data truncated');
  const tag = buf[pos]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('asn1: structure error: tag number too large');
  let len = buf[pos + 1]!;
  let start = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0) throw new DerError('asn1: syntax error: indefinite length found (not DER)');
    if (n > 4 || start + n > limit) throw new DerError('asn1: syntax error: data truncated');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i]!;
    if (buf[start] === 0 || len < 0x80) throw new DerError('asn1: structure error: non-minimal length');
    start += n;
  }
  if (start + len > limit) throw new DerError('asn1: syntax error: data truncated');
  return { tag, start, end: start + len, from: pos };
}

/** The elements of a constructed value, each checked against the tag expected there. */
function children(buf: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let pos = parent.start; pos < parent.end; ) {
    const t = readTlv(buf, pos, parent.end);
    out.push(t);
    pos = t.end;
  }
  return out;
}

function expect(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (!t || t.tag !== tag) throw new DerError(`asn1: structure error: tags don't match (${what})`);
  return t;
}

function oid(buf: Buffer, t: Tlv): string {
  const b = buf.subarray(t.start, t.end);
  if (b.length === 0) throw new DerError('asn1: syntax error: zero length OBJECT IDENTIFIER');
  const parts: number[] = [];
  let v = 0;
  for (const byte of b) {
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  const first = parts.shift()!;
  const a = first < 40 ? 0 : first < 80 ? 1 : 2;
  return [a, first - a * 40, ...parts].join('.');
}

/** Signature algorithms Go verifies on a request, by OID: the hash node:crypto uses (null: Ed25519) and the key type. */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, { hash: string | null; key: 'rsa' | 'ec' | 'ed25519' }>> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', key: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
  '1.2.840.10045.4.1': { hash: 'sha1', key: 'ec' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ec' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ec' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ec' },
  '1.3.101.112': { hash: null, key: 'ed25519' },
};

const VERIFY_FAILURE: Record<'rsa' | 'ec' | 'ed25519', string> = {
  rsa: 'crypto/rsa: verification error',
  ec: 'x509: ECDSA verification failure',
  ed25519: 'x509: Ed25519 verification failure',
};

/**
 * Checks that `der` is a PKCS#10 CertificationRequest (SEQUENCE of the
 * request info — version, subject, subject public key info, [0] attributes —
 * the signature algorithm and a BIT STRING signature, nothing after it) whose
 * signature verifies with its own public key. Returns Go's text of the
 * first problem, or undefined. Neither the subject nor the attributes are
 * decoded further.
 */
export function certificateRequestError(der: Buffer): string | undefined {
  let info: Tlv, spki: Tlv, algorithm: string, signature: Buffer;
  try {
    const outer = expect(readTlv(der, 0, der.length), 0x30, 'CertificationRequest');
    if (outer.end !== der.length) return 'asn1: syntax error: trailing data';
    const [i, alg, sig] = children(der, outer);
    info = expect(i, 0x30, 'certificationRequestInfo');
    const parts = children(der, info);
    expect(parts[0], 0x02, 'version');
    expect(parts[1], 0x30, 'subject');
    spki = expect(parts[2], 0x30, 'subjectPKInfo');
    expect(parts[3], 0xa0, 'attributes');
    const algParts = children(der, expect(alg, 0x30, 'signatureAlgorithm'));
    algorithm = oid(der, expect(algParts[0], 0x06, 'algorithm'));
    const bits = expect(sig, 0x03, 'signature');
    if (bits.end - bits.start < 1 || der[bits.start] !== 0) return 'asn1: structure error: invalid padding bits in BIT STRING';
    signature = der.subarray(bits.start + 1, bits.end);
  } catch (err) {
    if (err instanceof DerError) return err.message;
    throw err;
  }
  const alg = SIGNATURE_ALGORITHMS[algorithm];
  if (!alg) return 'x509: cannot verify signature: algorithm unimplemented';
  let key;
  try {
    key = createPublicKey({ key: der.subarray(spki.from, spki.end), format: 'der', type: 'spki' });
  } catch {
    return 'x509: cannot verify signature: algorithm unimplemented';
  }
  const keyType = key.asymmetricKeyType === 'rsa' ? 'rsa' : key.asymmetricKeyType === 'ec' ? 'ec' : key.asymmetricKeyType === 'ed25519' ? 'ed25519' : undefined;
  if (keyType !== alg.key) return 'x509: signature algorithm specifies a different public key type than the request has';
  let ok: boolean;
  try {
    ok = verify(alg.hash, der.subarray(info.from, info.end), key, signature);
  } catch {
    ok = false;
  }
  return ok ? undefined : VERIFY_FAILURE[alg.key];
}

/** The DER elements a CERTIFICATE block holds (Go's x509.ParseCertificates reads several), parsed; throws Go-like texts. */
export function parseCertificates(der: Buffer): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (let pos = 0; pos < der.length; ) {
    let t: Tlv;
    try {
      t = readTlv(der, pos, der.length);
    } catch {
      throw new Error('x509: malformed certificate');
    }
    try {
      out.push(new X509Certificate(der.subarray(pos, t.end)));
    } catch {
      throw new Error('x509: malformed certificate');
    }
    pos = t.end;
  }
  return out;
}
