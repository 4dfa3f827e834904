// A minimal protocol-buffers wire format: a writer for the few field kinds the
// gnostic OpenAPI v2 message needs (varint, 64-bit double, length-delimited
// strings and nested messages), and a reader that turns bytes back into
// fields (for tests and debugging). Proto3 rules: the writer leaves out
// scalars with their zero value unless told to keep them (oneof members).

const enum WireType {
  Varint = 0,
  Fixed64 = 1,
  Bytes = 2,
  Fixed32 = 5,
}

/** The longest varint a message length needs (lengths below 2^35). */
const MAX_LENGTH_PREFIX = 5;

function varintSize(n: number): number {
  let size = 1;
  while (n > 0x7f) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Builds one message. Nested messages are written with `message(field, (w) => …)`. */
export class ProtoWriter {
  private buf = Buffer.allocUnsafe(64);
  private pos = 0;

  /** A string field; empty strings are left out unless `keep`. Written straight into the buffer (no Buffer per string). */
  string(field: number, value: string | undefined, keep = false): this {
    if (value === undefined || (value === '' && !keep)) return this;
    const length = Buffer.byteLength(value, 'utf8');
    this.tag(field, WireType.Bytes);
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(value, this.pos, length, 'utf8');
    return this;
  }

  /** A bool field; false is left out unless `keep` (a oneof member). */
  bool(field: number, value: boolean | undefined, keep = false): this {
    if (value === undefined || (!value && !keep)) return this;
    this.tag(field, WireType.Varint);
    this.varint(value ? 1 : 0);
    return this;
  }

  /** An int64 field (non-negative values only: lengths and counts). */
  int64(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`protobuf: int64 field ${field}: ${value} is not a non-negative safe integer`);
    this.tag(field, WireType.Varint);
    this.varint(value);
    return this;
  }

  /** A double field. */
  double(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    this.tag(field, WireType.Fixed64);
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
    return this;
  }

  /**
   * A nested message, written even when empty (presence matters for messages). Its fields go into
   * this writer's buffer after room for the longest length prefix; once the length is known the
   * content moves back over the room it did not need (no buffer per message: deep documents such as
   * a CRD's schema nest dozens of levels).
   */
  message(field: number, fill: (w: ProtoWriter) => void): this {
    this.tag(field, WireType.Bytes);
    this.ensure(MAX_LENGTH_PREFIX);
    const at = this.pos;
    const start = (this.pos += MAX_LENGTH_PREFIX);
    fill(this);
    const length = this.pos - start;
    const prefix = varintSize(length);
    if (prefix < MAX_LENGTH_PREFIX) this.buf.copyWithin(at + prefix, start, this.pos);
    let n = length;
    let i = at;
    while (n > 0x7f) {
      this.buf[i++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[i] = n;
    this.pos = at + prefix + length;
    return this;
  }

  /** The message's bytes (a view; the writer is not used afterwards). */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private tag(field: number, wire: WireType): void {
    this.varint(field * 8 + wire);
  }

  private varint(n: number): void {
    this.ensure(10);
    while (n > 0x7f) {
      this.buf[this.pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
}

/** One decoded field: varints as numbers, fixed64 as the raw 8 bytes, length-delimited as bytes. */
export interface ProtoField {
  readonly field: number;
  readonly wire: number;
  readonly value: number | Uint8Array;
}

/** Splits a message into its fields, in order. Throws on malformed input. */
export function readFields(bytes: Uint8Array): ProtoField[] {
  const out: ProtoField[] = [];
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let mul = 1;
    for (;;) {
      if (pos >= bytes.length) throw new Error('protobuf: truncated varint');
      const b = bytes[pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
      if (mul > 2 ** 63) throw new Error('protobuf: varint too long');
    }
  };
  while (pos < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0) throw new Error('protobuf: field number 0');
    switch (wire) {
      case WireType.Varint:
        out.push({ field, wire, value: varint() });
        break;
      case WireType.Fixed64:
      case WireType.Fixed32: {
        const n = wire === WireType.Fixed64 ? 8 : 4;
        if (pos + n > bytes.length) throw new Error('protobuf: truncated fixed field');
        out.push({ field, wire, value: bytes.subarray(pos, pos + n) });
        pos += n;
        break;
      }
      case WireType.Bytes: {
        const len = varint();
        if (pos + len > bytes.length) throw new Error('protobuf: truncated length-delimited field');
        out.push({ field, wire, value: bytes.subarray(pos, pos + len) });
        pos += len;
        break;
      }
      default:
        throw new Error(`protobuf: unsupported wire type ${wire}`);
    }
  }
  return out;
}

/** Field helpers for readers: the fields numbered `n`. */
export function fieldsOf(fields: readonly ProtoField[], n: number): ProtoField[] {
  return fields.filter((f) => f.field === n);
}

export function stringOf(f: ProtoField | undefined): string | undefined {
  return f && f.value instanceof Uint8Array ? Buffer.from(f.value).toString('utf8') : undefined;
}

export function doubleOf(f: ProtoField | undefined): number | undefined {
  return f && f.value instanceof Uint8Array && f.value.length === 8 ? Buffer.from(f.value).readDoubleLE(0) : undefined;
}
