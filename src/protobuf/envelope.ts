// The binary envelope: the four magic bytes "k8s\0", then a runtime.Unknown
// message: typeMeta (1: {apiVersion=1, kind=2}), raw (2: the object's own
// message), contentEncoding (3) and contentType (4), both empty here.
import { LEN, Reader, Writer } from './wire.js';

export const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface Unknown {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/** The typeMeta message and the field header of `raw` (tag and length), for writers that stream raw. */
export function envelopeHead(apiVersion: string, kind: string, rawLength: number): Buffer {
  const typeMeta = new Writer(64).tag(1, LEN).string(apiVersion).tag(2, LEN).string(kind).finish();
  return new Writer(typeMeta.length + 24).raw(MAGIC).tag(1, LEN).bytes(typeMeta).tag(2, LEN).uvarint(rawLength).finish();
}

/** The trailing fields after `raw`: contentEncoding and contentType, empty (as Kubernetes writes them). */
export const ENVELOPE_TAIL = new Writer(8).tag(3, LEN).string('').tag(4, LEN).string('').finish();

/** An object's message bytes in the envelope. */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  return Buffer.concat([envelopeHead(apiVersion, kind, raw.length), raw, ENVELOPE_TAIL]);
}

/** Whether bytes start with the magic prefix. */
export function hasMagic(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x6b && b[1] === 0x38 && b[2] === 0x73 && b[3] === 0x00;
}

/** Reads an envelope; throws on a wrong prefix or a malformed message. */
export function decodeEnvelope(b: Uint8Array): Unknown {
  if (!hasMagic(b)) throw new Error(`provided data does not appear to be a protobuf message, expected prefix [${[...MAGIC].join(' ')}]`);
  const r = new Reader(b.subarray(4));
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array(0);
  let contentEncoding = '';
  let contentType = '';
  while (!r.done) {
    const { field, wireType } = r.tag();
    if (wireType !== LEN) {
      r.skip(wireType);
      continue;
    }
    if (field === 1) {
      const t = new Reader(r.bytes());
      while (!t.done) {
        const f = t.tag();
        if (f.field === 1 && f.wireType === LEN) apiVersion = t.string();
        else if (f.field === 2 && f.wireType === LEN) kind = t.string();
        else t.skip(f.wireType);
      }
    } else if (field === 2) raw = r.bytes();
    else if (field === 3) contentEncoding = r.string();
    else if (field === 4) contentType = r.string();
    else r.skip(wireType);
  }
  return { apiVersion, kind, raw, contentEncoding, contentType };
}
