// JSON Pointers (RFC 6901) as evanphx/json-patch v4 reads them for Kubernetes.
//
// The pointer is split on "/"; a pointer with no "/" at all addresses nothing,
// so "" fails as a missing path (only "replace" and "test" treat "" as the whole
// document, before looking it up). The first piece is dropped unread: it is empty
// for "/a/b", but "x/a/b" addresses "/a/b" too. Every other piece is unescaped in
// one left-to-right pass ("~1" → "/", "~0" → "~"). Array tokens are Go
// strconv.Atoi integers: an optional sign, decimal digits, leading zeros allowed;
// negative indices count from the end (evanphx's SupportNegativeIndices, which
// the API server leaves on).

/** The unescaped tokens of a pointer after its first piece, or undefined when it has no "/". */
export function parsePointer(path: string): string[] | undefined {
  const pieces = path.split('/');
  if (pieces.length < 2) return undefined;
  return pieces.slice(1).map(unescapeToken);
}

export function unescapeToken(t: string): string {
  return t.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

export function escapeToken(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join('');
}

const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.Atoi on a 64-bit platform: the integer, or Go's error text. */
export function atoi(token: string): bigint | { error: string } {
  const quoted = JSON.stringify(token);
  if (!/^[+-]?[0-9]+$/.test(token)) return { error: `strconv.Atoi: parsing ${quoted}: invalid syntax` };
  const n = BigInt(token);
  if (n > INT64_MAX || n < -INT64_MAX - 1n) return { error: `strconv.Atoi: parsing ${quoted}: value out of range` };
  return n;
}
