// Byte-level key helpers for etcd: the configured key prefix and range ends.

/** The smallest key greater than every key starting with `prefix` (etcd's range_end for a prefix). */
export function byteRangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  // An empty or all-0xff prefix: every key (etcd's "\0" means "to the end").
  return Buffer.from([0]);
}

export class KeyCodec {
  private readonly prefix: Buffer;
  constructor(keyPrefix: string) {
    this.prefix = Buffer.from(keyPrefix);
  }
  encode(key: string): Buffer {
    return Buffer.concat([this.prefix, Buffer.from(key)]);
  }
  decode(key: Buffer): string {
    return key.subarray(this.prefix.length).toString();
  }
  /** [start, end) of the keys with this prefix, optionally only those after `startAfter`. */
  span(prefix: string, startAfter?: string): { key: Buffer; range_end: Buffer } {
    const p = this.encode(prefix);
    const start = startAfter !== undefined && startAfter >= prefix ? Buffer.concat([this.encode(startAfter), Buffer.from([0])]) : p;
    return { key: start, range_end: byteRangeEnd(p) };
  }
}
