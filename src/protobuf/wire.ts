// The protobuf wire format, as far as Kubernetes' messages use it: varints
// (int32/int64/bool/enum, negatives as 10-byte two's complement, no zigzag),
// length-delimited fields (strings, bytes, messages, packed repeats) and
// fixed64 (doubles). A Writer appends to a growing buffer; a Reader walks one
// message's bytes.

export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

export class Writer {
  private buf: Buffer;
  private pos = 0;

  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  get length(): number {
    return this.pos;
  }

  /** An unsigned varint of a non-negative safe integer. */
  uvarint(n: number): this {
    this.room(10);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
    return this;
  }

  /** A signed integer as protobuf's int32/int64 write it: negatives take ten bytes. */
  varint(n: number): this {
    if (n >= 0) return this.uvarint(n);
    let v = BigInt.asUintN(64, BigInt(n));
    this.room(10);
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.uvarint(field * 8 + wireType);
  }

  bytes(b: Uint8Array): this {
    this.uvarint(b.length);
    this.raw(b);
    return this;
  }

  /** Bytes appended as they are, with no length. */
  raw(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  string(s: string): this {
    const n = Buffer.byteLength(s);
    this.uvarint(n);
    this.room(n);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    return this;
  }

  double(d: number): this {
    this.room(8);
    this.buf.writeDoubleLE(d, this.pos);
    this.pos += 8;
    return this;
  }

  /** The bytes written so far (a view, not a copy). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

export class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  /** A varint as a JavaScript number (int64 beyond 2^53 loses precision; negatives come back negative). */
  varint(): number {
    let lo = 0;
    let shift = 0;
    let b: number;
    // Fast path: up to 4 bytes stay within 28 bits.
    do {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      b = this.buf[this.pos++]!;
      lo |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80 && shift < 28);
    if (!(b & 0x80)) return lo >>> 0;
    let v = BigInt(lo >>> 0);
    let s = 28n;
    do {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      b = this.buf[this.pos++]!;
      v |= BigInt(b & 0x7f) << s;
      s += 7n;
      if (s > 70n) throw new Error('varint too long');
    } while (b & 0x80);
    return Number(BigInt.asIntN(64, v));
  }

  tag(): { field: number; wireType: number } {
    const t = this.varint();
    return { field: Math.floor(t / 8), wireType: t & 7 };
  }

  bytes(): Uint8Array {
    const n = this.varint();
    if (n < 0 || this.pos + n > this.buf.length) throw new Error('truncated length-delimited field');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  string(): string {
    const b = this.bytes();
    return Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');
  }

  double(): number {
    if (this.pos + 8 > this.buf.length) throw new Error('truncated fixed64');
    const v = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos, 8).readDoubleLE(0);
    this.pos += 8;
    return v;
  }

  float(): number {
    if (this.pos + 4 > this.buf.length) throw new Error('truncated fixed32');
    const v = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos, 4).readFloatLE(0);
    this.pos += 4;
    return v;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case VARINT:
        this.varint();
        return;
      case FIXED64:
        this.pos += 8;
        break;
      case LEN:
        this.bytes();
        return;
      case FIXED32:
        this.pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${wireType}`);
    }
    if (this.pos > this.buf.length) throw new Error('truncated field');
  }
}
