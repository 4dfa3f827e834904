// JSON Pointer (RFC 6901) as evanphx/json-patch v4 reads it for Kubernetes: "/a/b"
// splits on "/", each token unescapes "~1" to "/" and then "~0" to "~". The empty
// pointer has no tokens; evanphx then finds no parent, so every operation on ""
// fails as a missing path (Kubernetes does not support whole-document JSON patch ops).
// Array tokens are Go `strconv.Atoi` integers: an optional sign and decimal digits,
// leading zeros accepted; negative indices count from the end (evanphx's
// SupportNegativeIndices, on by default and left on by the API server).

/** The unescaped tokens of a pointer, or undefined when it has no parent to address. */
export function parsePointer(path: string): string[] | undefined {
  if (!path.startsWith('/')) return undefined;
  return path.slice(1).split('/').map(unescapeToken);
}

export function unescapeToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function escapeToken(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join('');
}

/** Go's strconv.Atoi, or an error text as Go words it (wrapped by the caller). */
export function atoi(token: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(token)) return `strconv.Atoi: parsing ${JSON.stringify(token)}: invalid syntax`;
  const n = Number(token);
  if (!Number.isSafeInteger(n)) return `strconv.Atoi: parsing ${JSON.stringify(token)}: value out of range`;
  return n;
}
