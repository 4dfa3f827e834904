// The pod-template-hash (kube's controller.ComputeHash): FNV-32a over the
// pod template, then over the collision count (as 8 little-endian bytes) when
// the Deployment has one, the 32-bit sum printed in decimal and each digit
// mapped into kube's consonant-and-digit alphabet (rand.SafeEncodeString), so
// a hash never spells a word. kube feeds the hash with go-spew's dump of the
// Go struct; we feed it the template's canonical JSON (keys sorted), so the
// values differ from kube's for the same template, but they change exactly
// when the template or the collision count does.

/** rand.SafeEncodeString's alphabet: no vowels, no 0/1/3 (which look like letters). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function fnv32a(bytes: Uint8Array, seed = FNV_OFFSET): number {
  let h = seed;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h >>> 0;
}

export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += ALPHANUMS[s.charCodeAt(i) % ALPHANUMS.length];
  return out;
}

/** JSON with object keys in sorted order at every level. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}
