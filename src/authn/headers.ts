// Header access for authenticators and the impersonation filter, with Go's
// http.Header semantics: node joins a repeated header into one string, but an
// identity header repeated means several values (kube: "repeated headers add
// values"), so values are read from rawHeaders when the request has them.
// Removing headers after use (kube clears identity headers once consumed)
// edits both views.
import type { IncomingHttpHeaders } from 'node:http';

export interface HeaderSource {
  readonly headers: IncomingHttpHeaders;
  /** node's rawHeaders: [name, value, name, value, …] in arrival order. */
  readonly rawHeaders?: readonly string[];
}

/** Every value of a header (case-insensitive name), in arrival order. */
export function headerValues(src: HeaderSource, name: string): string[] {
  const lower = name.toLowerCase();
  if (src.rawHeaders) {
    const out: string[] = [];
    for (let i = 0; i + 1 < src.rawHeaders.length; i += 2) if (src.rawHeaders[i]!.toLowerCase() === lower) out.push(src.rawHeaders[i + 1]!);
    return out;
  }
  const v = src.headers[lower];
  return v === undefined ? [] : Array.isArray(v) ? [...v] : [v];
}

/** The first value of a header, or '' (Go's Header.Get). */
export function headerValue(src: HeaderSource, name: string): string {
  return headerValues(src, name)[0] ?? '';
}

/** Header names (lower-cased, each once, in arrival order) starting with a prefix, case-insensitively. */
export function headerNamesWithPrefix(src: HeaderSource, prefix: string): string[] {
  const p = prefix.toLowerCase();
  const names = src.rawHeaders ? src.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()) : Object.keys(src.headers);
  return [...new Set(names.filter((n) => n.length >= p.length && n.startsWith(p)))];
}

/** Removes headers (lower-cased names) from the request, in both views. */
export function deleteHeaders(src: HeaderSource, names: readonly string[]): void {
  const drop = new Set(names);
  for (const n of drop) delete src.headers[n];
  const raw = src.rawHeaders as string[] | undefined;
  if (!raw || !Array.isArray(raw) || Object.isFrozen(raw)) return;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (drop.has(raw[i]!.toLowerCase())) raw.splice(i, 2);
}

/** Go's url.PathUnescape, answering the input unchanged when it is malformed (kube records the key anyway). */
export function pathUnescape(s: string): string {
  if (!s.includes('%')) return s;
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    // bytes that are not UTF-8: Go keeps them as bytes; a JS string cannot, so decode leniently
    return Buffer.from(s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  }
}
