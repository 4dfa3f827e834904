// HTTP/1.1 over kept-alive TLS connections, for webhook calls: one POST at a
// time per connection, each request written in one go, the response read by
// a small parser (status line, headers, then a Content-Length, chunked or
// read-to-close body). node:https costs several times more CPU per call (an
// IncomingMessage and ClientRequest stream pair, header objects, agent
// bookkeeping) and a webhook call is on every admitted write.
//
// As Go's transport: a call that finds its reused connection closed by the
// server before any byte of an answer is sent again once on a new connection
// (errServerClosedIdle); idle connections close after the idle timeout.
// Connections never hold the process open; a call's deadline (a timer) does
// while it runs.
//
// Bytes are read without the socket's Readable machinery (no 'data' events,
// no Buffer per read): every connection decrypts into one shared buffer
// (net's `onread`) and the parser copies out only what it keeps. The request
// goes out as one string write (head and body: one TLS record, one syscall).
import tls from 'node:tls';
import type { Cancel } from './deadline.js';

export interface Exchange {
  /** Path with query. */
  readonly path: string;
  /** Host header / :authority. */
  readonly authority: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A string is sent as UTF-8 (written straight into the request's one buffer). */
  readonly body: Buffer | string;
  readonly maxResponseBytes: number;
  /** The call's deadline (aborting drops the exchange). */
  readonly signal: Cancel;
}

export interface Answer {
  readonly status: number;
  readonly body: Buffer;
  readonly contentType?: string;
  readonly protocol: 'http/1.1';
}

/** The response body passed the cap; the connection it came on was dropped. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`response body larger than ${limit} bytes`);
  }
}

export interface H1Options {
  readonly host: string;
  readonly port: number;
  readonly servername?: string;
  readonly context: tls.SecureContext;
  readonly handshakeTimeoutMs: number;
  readonly idleTimeoutMs: number;
}

/** The server closed a reused connection before answering: safe to send again. */
class ClosedIdleError extends Error {
  override readonly name = 'ClosedIdleError';
}

export class H1Connections {
  private readonly idle: Conn[] = [];
  private closed = false;
  private sweeper?: NodeJS.Timeout;
  /** Calls in flight. */
  active = 0;

  constructor(private readonly o: H1Options) {}

  /** One exchange; `active` counts it until it settles. One async frame per call (a hot path). */
  async send(x: Exchange): Promise<Answer> {
    this.active++;
    try {
      for (;;) {
        const reused = this.take();
        const conn = reused ?? new Conn(await this.dial(x));
        try {
          const a = await conn.exchange(x);
          if (conn.keepAlive) this.release(conn);
          else conn.destroy();
          return a;
        } catch (err) {
          conn.destroy();
          if (!(err instanceof ClosedIdleError)) throw err;
          if (!reused || x.signal.aborted) throw Object.assign(new Error('EOF'), { code: 'ECONNRESET' });
          // a reused connection the server had closed: once more, on a new connection
        }
      }
    } finally {
      this.active--;
    }
  }

  close(): void {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const c of this.idle.splice(0)) c.destroy();
  }

  get idleCount(): number {
    return this.idle.length;
  }

  /** The most recently parked connection that is still open and not idle too long. */
  private take(): Conn | undefined {
    const now = Date.now();
    for (;;) {
      const c = this.idle.pop();
      if (!c) return undefined;
      if (c.usable() && now - c.parkedAt < this.o.idleTimeoutMs) return c;
      c.destroy();
    }
  }

  private release(c: Conn): void {
    if (this.closed || !c.usable()) {
      c.destroy();
      return;
    }
    c.park(Date.now());
    this.idle.push(c);
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(1000, this.o.idleTimeoutMs / 2)).unref();
  }

  /** One timer per pool, not one per parked connection: closes those idle past the timeout. */
  private sweep(): void {
    const now = Date.now();
    // idle is oldest first: the expired ones are a prefix
    let n = 0;
    while (n < this.idle.length && now - this.idle[n]!.parkedAt >= this.o.idleTimeoutMs) this.idle[n++]!.destroy();
    if (n > 0) this.idle.splice(0, n);
    if (this.idle.length === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private dial(x: Exchange): Promise<tls.TLSSocket> {
    const o = this.o;
    return new Promise<tls.TLSSocket>((resolve, reject) => {
      const sink: ReadSink = { onBytes: undefined };
      const socket = tls.connect({
        host: o.host, port: o.port, secureContext: o.context,
        ...(o.servername !== undefined ? { servername: o.servername } : {}),
        ALPNProtocols: ['http/1.1'],
        // read into the shared buffer; what arrives before a Conn listens (nothing should) drops the socket
        onread: { buffer: READ_BUFFER, callback: (n: number) => (sink.onBytes ? sink.onBytes(n) : socket.destroy(), true) },
      } as tls.ConnectionOptions);
      readSinks.set(socket, sink);
      const onAbort = () => socket.destroy(x.signal.reason as Error);
      x.signal.addEventListener('abort', onAbort);
      socket.setTimeout(o.handshakeTimeoutMs, () => socket.destroy(Object.assign(new Error('net/http: TLS handshake timeout'), { code: 'ETLSHANDSHAKETIMEOUT' })));
      socket.setNoDelay(true);
      socket.once('error', (err) => {
        x.signal.removeEventListener('abort', onAbort);
        reject(err);
      });
      socket.once('secureConnect', () => {
        x.signal.removeEventListener('abort', onAbort);
        socket.setTimeout(0);
        socket.removeAllListeners('error');
        resolve(socket);
      });
    });
  }
}

const CRLF = Buffer.from('\r\n');
const CRLF2 = Buffer.from('\r\n\r\n');

/** A status line's code: `HTTP/1.0 ` or `HTTP/1.1 ` then three digits, read in place; else Go's malformed-response error. */
function statusOf(head: string, eol: number): number {
  const digit = (i: number) => {
    const c = head.charCodeAt(i);
    return c >= 0x30 && c <= 0x39 ? c - 0x30 : -1;
  };
  const minor = head.charCodeAt(7);
  const a = digit(9);
  const b = digit(10);
  const c = digit(11);
  if (eol < 12 || !head.startsWith('HTTP/1.') || (minor !== 0x30 && minor !== 0x31) || head.charCodeAt(8) !== 0x20 || a < 0 || b < 0 || c < 0) {
    throw new Error(`malformed HTTP response ${JSON.stringify(head.slice(0, eol))}`);
  }
  return a * 100 + b * 10 + c;
}

const WANTED_HEADERS = ['content-length', 'transfer-encoding', 'connection', 'content-type'] as const;
type WantedHeader = (typeof WANTED_HEADERS)[number];

/** What String.prototype.trim drops from a latin1 string (tab, LF, VT, FF, CR, space, NBSP). */
const isBlank = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0;

/** The header named by head[start, colon) (trimmed, any case) when it is one the reader uses. */
function wantedHeader(head: string, start: number, colon: number): WantedHeader | undefined {
  let end = colon;
  while (start < end && isBlank(head.charCodeAt(start))) start++;
  while (end > start && isBlank(head.charCodeAt(end - 1))) end--;
  next: for (const name of WANTED_HEADERS) {
    if (end - start !== name.length) continue;
    for (let i = 0; i < name.length; i++) {
      const c = head.charCodeAt(start + i);
      if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== name.charCodeAt(i)) continue next;
    }
    return name;
  }
  return undefined;
}

/**
 * Where every webhook connection's decrypted bytes land (net's `onread`):
 * one read is handled before the next starts, so one buffer serves them all;
 * the parser copies out what outlives the read (keep()).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** A copy of `b` when it is a view of READ_BUFFER (the next read overwrites it). */
function keep(b: Buffer): Buffer {
  return b.buffer === READ_BUFFER.buffer ? Buffer.from(b) : b;
}

/** A connection's reader, set once its Conn exists. */
interface ReadSink {
  onBytes: ((n: number) => void) | undefined;
}
const readSinks = new WeakMap<tls.TLSSocket, ReadSink>();

/** One connection and the exchange on it, if any. */
class Conn {
  keepAlive = true;
  private used = false;
  /** When it was last parked idle (ms since the epoch). */
  parkedAt = 0;
  private current?: Reader;

  constructor(private readonly socket: tls.TLSSocket) {
    // never holds the process open: a call in flight has its deadline's timer for that (an unref and a ref
    // per call, as parking an idle connection would need, are two calls into the TCP handle)
    socket.unref();
    readSinks.get(socket)!.onBytes = (n) => (this.current ? this.current.data(READ_BUFFER.subarray(0, n)) : this.socket.destroy());
    socket.on('error', (err) => this.current?.fail(err));
    socket.on('close', () => this.current?.closed());
    socket.on('end', () => this.current?.closed());
  }

  usable(): boolean {
    return !this.socket.destroyed && this.socket.readyState === 'open';
  }

  /** Idle since `now`. */
  park(now: number): void {
    this.parkedAt = now;
  }

  destroy(): void {
    this.socket.destroy();
  }

  exchange(x: Exchange): Promise<Answer> {
    const reused = this.used;
    this.used = true;
    return new Promise<Answer>((resolve, reject) => {
      const onAbort = () => {
        this.current = undefined;
        reject(x.signal.reason as Error);
        this.socket.destroy();
      };
      x.signal.addEventListener('abort', onAbort);
      this.current = new Reader(x.maxResponseBytes, reused, (err, a) => {
        this.current = undefined;
        x.signal.removeEventListener('abort', onAbort);
        if (err) return reject(err);
        this.keepAlive = a!.keepAlive;
        resolve(a!.answer);
      });
      let head = `POST ${x.path} HTTP/1.1\r\nHost: ${x.authority}\r\n`;
      for (const k in x.headers) head += `${k}: ${x.headers[k]}\r\n`;
      const body = x.body;
      if (typeof body === 'string') {
        // head and body as one string, encoded once by the socket: one TLS record, one write
        this.socket.write(`${head}Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`, 'utf8');
        return;
      }
      head += `Content-Length: ${body.length}\r\n\r\n`;
      const headLength = Buffer.byteLength(head, 'latin1');
      const out = Buffer.allocUnsafe(headLength + body.length);
      out.write(head, 0, 'latin1');
      body.copy(out, headLength);
      this.socket.write(out);
    });
  }
}

type Done = (err: Error | undefined, r?: { answer: Answer; keepAlive: boolean }) => void;

/** Parses one response as it streams in. */
class Reader {
  private buf: Buffer | undefined;
  private got = false;
  private status = 0;
  private contentType: string | undefined;
  private keepAlive = true;
  /** Body framing once the head is read: a length, chunked, or until close (-1). */
  private length = -2;
  private chunked = false;
  private finished = false;

  constructor(private readonly max: number, private readonly reused: boolean, private readonly done: Done) {}

  /** `c` may be a view of READ_BUFFER: whatever is kept past this call is copied (keep()). */
  data(c: Buffer): void {
    if (this.finished) return;
    this.got = true;
    this.buf = this.buf ? Buffer.concat([this.buf, c]) : c;
    try {
      this.advance();
    } catch (err) {
      this.finish(err as Error);
      return;
    }
    if (this.finished) return;
    if (this.buf) this.buf = keep(this.buf);
    for (let i = 0; i < this.chunks.length; i++) this.chunks[i] = keep(this.chunks[i]!);
  }

  fail(err: Error): void {
    if (this.finished) return;
    this.finish(!this.got && this.reused ? new ClosedIdleError(err.message) : err);
  }

  closed(): void {
    if (this.finished) return;
    if (this.length === -1) {
      // read-until-close body
      this.keepAlive = false;
      this.complete(this.buf ?? Buffer.alloc(0));
      return;
    }
    this.finish(!this.got && this.reused ? new ClosedIdleError('closed') : Object.assign(new Error(this.got ? 'unexpected EOF' : 'EOF'), { code: 'ECONNRESET' }));
  }

  private finish(err: Error | undefined, r?: { answer: Answer; keepAlive: boolean }): void {
    this.finished = true;
    this.done(err, r);
  }

  private advance(): void {
    for (;;) {
      if (this.length === -2) {
        const end = this.buf!.indexOf(CRLF2);
        if (end < 0) {
          if (this.buf!.length > 1 << 20) throw new Error('net/http: server response headers exceeded 1048576 bytes; aborted');
          return;
        }
        const head = this.buf!.toString('latin1', 0, end);
        this.buf = this.buf!.subarray(end + 4);
        if (!this.readHead(head)) continue; // an interim 1xx answer: the real one follows
      }
      if (this.chunked) return this.readChunks();
      if (this.length >= 0) {
        if (this.length > this.max) {
          this.keepAlive = false;
          throw new BodyTooLargeError(this.max);
        }
        if (this.buf!.length < this.length) return;
        if (this.buf!.length > this.length) this.keepAlive = false; // bytes nobody asked for: do not reuse
        return this.complete(keep(this.buf!.subarray(0, this.length)));
      }
      if (this.buf!.length > this.max) throw new BodyTooLargeError(this.max);
      return; // until close
    }
  }

  /** False for a 1xx interim answer. */
  private readHead(head: string): boolean {
    let eol = head.indexOf('\r\n');
    if (eol < 0) eol = head.length;
    const status = statusOf(head, eol);
    if (status >= 100 && status < 200) return false;
    this.status = status;
    this.keepAlive = head.charCodeAt(7) === 0x31; // HTTP/1.1
    let length = -1;
    // header lines one by one, without splitting the head; a name is compared in place and
    // only the values wanted are cut out (a header costs no string unless it is one of these)
    for (let at = eol + 2; at < head.length + 2; ) {
      let end = head.indexOf('\r\n', at);
      if (end < 0) end = head.length;
      const colon = head.indexOf(':', at);
      if (colon <= at || colon >= end) throw new Error(`malformed MIME header line: ${head.slice(at, end)}`);
      const line = at;
      at = end + 2;
      const name = wantedHeader(head, line, colon);
      if (name === undefined) continue;
      const value = head.slice(colon + 1, end).trim();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value)) throw new Error(`bad Content-Length ${JSON.stringify(value)}`);
        length = Number(value);
      } else if (name === 'transfer-encoding') this.chunked = value.toLowerCase().split(',').map((s) => s.trim()).includes('chunked');
      else if (name === 'connection') {
        const v = value.toLowerCase();
        if (v.includes('close')) this.keepAlive = false;
        else if (v.includes('keep-alive')) this.keepAlive = true;
      } else this.contentType = value;
    }
    // 204, 304 and HEAD answers have no body
    this.length = this.chunked ? 0 : status === 204 || status === 304 ? 0 : length;
    if (this.length === -1) this.keepAlive = false;
    return true;
  }

  private chunks: Buffer[] = [];
  private size = 0;

  private readChunks(): void {
    for (;;) {
      const buf = this.buf!;
      const eol = buf.indexOf(CRLF);
      if (eol < 0) return;
      const n = chunkSize(buf, eol);
      if (n === 0) {
        // optional trailer lines, then an empty line: the CRLF ending the size line starts the search
        const stop = buf.indexOf(CRLF2, eol);
        if (stop < 0) return;
        if (stop + 4 < buf.length) this.keepAlive = false;
        // one chunk (the usual answer): one copy out of the read buffer; several: one concatenation
        return this.complete(this.chunks.length === 1 ? keep(this.chunks[0]!) : Buffer.concat(this.chunks, this.size));
      }
      if (buf.length < eol + 2 + n + 2) return;
      this.size += n;
      if (this.size > this.max) {
        this.keepAlive = false;
        throw new BodyTooLargeError(this.max);
      }
      this.chunks.push(buf.subarray(eol + 2, eol + 2 + n)); // kept (copied) by data() if the answer goes on past this read
      this.buf = buf.subarray(eol + 2 + n + 2);
    }
  }

  private complete(body: Buffer): void {
    this.finish(undefined, {
      // one shape whether or not a Content-Type came (undefined then): no spread per answer
      answer: { status: this.status, body, contentType: this.contentType, protocol: 'http/1.1' },
      keepAlive: this.keepAlive,
    });
  }
}


/**
 * A chunk-size line's number (bytes 0..eol of `buf`): the hex digits before
 * any `;extension`, surrounding blanks allowed; anything else is Go's
 * "invalid byte in chunk length". Read from the bytes, without a string.
 */
function chunkSize(buf: Buffer, eol: number): number {
  let end = 0;
  while (end < eol && buf[end] !== 0x3b /* ; */) end++;
  let at = 0;
  while (at < end && isBlank(buf[at]!)) at++;
  while (end > at && isBlank(buf[end - 1]!)) end--;
  if (at === end) throw new Error('invalid byte in chunk length');
  let n = 0;
  for (; at < end; at++) {
    const b = buf[at]!;
    const d = b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 0x57 : b >= 0x41 && b <= 0x46 ? b - 0x37 : -1;
    if (d < 0) throw new Error('invalid byte in chunk length');
    n = n * 16 + d;
  }
  return n;
}
