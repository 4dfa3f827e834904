// Texts as the kubelet's Go code prints them, for probe outputs and events:
// %q strings, time.Duration's %v, net.JoinHostPort, and the net / net/http
// error texts a failed connection or request gives in Go.
import { formatGoDuration } from '../../api/meta/goduration.js';

/** Go's %q of a string: double quotes, Go's escapes (\a \b \f \n \r \t \v \\ \" and \xNN / \uNNNN for the rest). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0x80 && c < 0xa0) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** time.Duration's String() for whole seconds: 0s, 1s, 1m0s, 1h2m3s. */
export const goDuration = (seconds: number): string => formatGoDuration(Math.trunc(seconds) * 1000);

/** net.JoinHostPort: IPv6 literals (anything with a colon) in brackets. */
export const joinHostPort = (host: string, port: number | string): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** The text after `connect: ` that Go's syscall errors print, by Node's error code. */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  ECONNRESET: 'connection reset by peer',
  ETIMEDOUT: 'connection timed out',
  EADDRNOTAVAIL: 'cannot assign requested address',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/** A Node socket error's code, when it has one. */
export const errCode = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : undefined;

/**
 * Go's text for a failed `net.Dial("tcp", addr)`: `dial tcp 10.0.0.1:80: connect: connection refused`,
 * `dial tcp 10.0.0.1:80: i/o timeout`, `dial tcp: lookup nohost: no such host`.
 */
export function dialErrorText(addr: string, host: string, err: unknown | 'timeout'): string {
  if (err === 'timeout') return `dial tcp ${addr}: i/o timeout`;
  const code = errCode(err);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `dial tcp: lookup ${host}: no such host`;
  const known = code ? ERRNO_TEXT[code] : undefined;
  if (known) return `dial tcp ${addr}: connect: ${known}`;
  return `dial tcp ${addr}: ${err instanceof Error ? err.message : String(err)}`;
}

/** gRPC status codes by number, as grpc-go's codes.Code prints them. */
const GRPC_CODES = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

export const grpcCodeName = (code: number): string => GRPC_CODES[code] ?? `Code(${code})`;

/** grpc-go's status error text: `rpc error: code = NotFound desc = unknown service`. */
export const grpcErrorText = (code: number, message: string): string => `rpc error: code = ${grpcCodeName(code)} desc = ${message}`;
