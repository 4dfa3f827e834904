// The binary media type (application/vnd.svc.protobuf, alias
// application/vnd.kubernetes.protobuf): objects in and out of the envelope,
// watch frames, and lists written piece by piece.
import { decodeMessage, encodeMessage, setEnvelopeDecoder } from './codec.js';
import { decodeEnvelope, encodeEnvelope, ENVELOPE_TAIL, envelopeHead } from './envelope.js';
import { messageFor } from './kinds.js';
import { LEN, Writer } from './wire.js';
import type { Schema } from '../schema/model.js';
import { obj, ref, toSchema } from '../schema/dsl.js';
import { ListMeta } from '../schema/common.js';

export { decodeEnvelope, encodeEnvelope, hasMagic, MAGIC } from './envelope.js';
export { messageFor } from './kinds.js';

/** The media types of the binary envelope; the first is ours, the second Kubernetes' spelling. */
export const PROTOBUF_TYPES = ['application/vnd.svc.protobuf', 'application/vnd.kubernetes.protobuf'] as const;

export const isProtobufType = (type: string): boolean => (PROTOBUF_TYPES as readonly string[]).includes(type);

/** Whether an object (by its apiVersion and kind) has a protobuf form. */
export function hasProtobuf(obj: unknown): boolean {
  const o = obj as { apiVersion?: unknown; kind?: unknown } | null;
  return typeof o?.apiVersion === 'string' && typeof o.kind === 'string' && messageFor(o.apiVersion, o.kind) !== undefined;
}

/** An object in the envelope, or undefined when its kind has no protobuf form. */
export function encodeObject(obj: Record<string, unknown>): Buffer | undefined {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const schema = messageFor(apiVersion, kind);
  if (!schema) return undefined;
  return encodeEnvelope(apiVersion, kind, encodeMessage(schema, obj));
}

/** Thrown for an envelope whose kind we have no message for. */
export class UnknownKindError extends Error {
  override readonly name = 'UnknownKindError';
  constructor(readonly apiVersion: string, readonly kind: string) {
    super(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "svc"`);
  }
}

/** The JSON object of an enveloped body, with apiVersion and kind from the envelope; throws on a bad prefix or unknown kind. */
export function decodeObject(bytes: Uint8Array): Record<string, unknown> {
  const u = decodeEnvelope(bytes);
  if (u.contentEncoding) throw new Error(`unsupported contentEncoding ${JSON.stringify(u.contentEncoding)}`);
  const schema = messageFor(u.apiVersion, u.kind);
  if (!schema) throw new UnknownKindError(u.apiVersion, u.kind);
  const body = decodeMessage(schema, u.raw);
  return { apiVersion: u.apiVersion, kind: u.kind, ...body };
}

setEnvelopeDecoder(decodeObject);

/**
 * One watch event as Kubernetes' protobuf stream frames it: a 4-byte
 * big-endian length, then a WatchEvent message {type=1, object=2} (no
 * envelope) whose object is a RawExtension holding the enveloped object.
 * Undefined when the object's kind has no protobuf form.
 */
export function encodeWatchFrame(type: string, object: Record<string, unknown>): Buffer | undefined {
  const inner = encodeObject(object);
  if (!inner) return undefined;
  const raw = new Writer(inner.length + 8).tag(1, LEN).bytes(inner).finish();
  const event = new Writer(raw.length + 32).tag(1, LEN).string(type).tag(2, LEN).bytes(raw).finish();
  const frame = Buffer.allocUnsafe(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  event.copy(frame, 4);
  return frame;
}

/** The Content-Type of a protobuf watch, in the spelling the client asked for. */
export const watchContentType = (mediaType: string): string => `${mediaType};stream=watch`;

/**
 * A List kind written in pieces: items are encoded as they arrive and kept as
 * separate buffers (the envelope's length prefix needs the total size before
 * the first byte), then `finish` gives the pieces to write in order.
 */
const LIST_META: Schema = toSchema(obj({ metadata: ref(ListMeta).proto(1) }));

export class ProtobufListWriter {
  private readonly item: Schema;
  private readonly pieces: Buffer[] = [];
  private size = 0;

  private constructor(
    private readonly apiVersion: string,
    private readonly kind: string,
    item: Schema,
  ) {
    this.item = item;
  }

  /** A writer for `<Kind>List` in apiVersion, or undefined when the item kind has no protobuf form. */
  static for(apiVersion: string, listKind: string): ProtobufListWriter | undefined {
    const list = messageFor(apiVersion, listKind);
    const item = list?.properties?.items?.items;
    return item ? new ProtobufListWriter(apiVersion, listKind, item) : undefined;
  }

  /** Encodes one item (its apiVersion and kind are not written: the list's message has none). */
  add(obj: Record<string, unknown>): void {
    const body = encodeMessage(this.item, obj);
    const head = new Writer(12).tag(2, LEN).uvarint(body.length).finish();
    this.pieces.push(head, body);
    this.size += head.length + body.length;
  }

  /** The pieces of the whole enveloped list, given the list's metadata (resourceVersion, continue, …). */
  finish(metadata: Record<string, unknown>): Buffer[] {
    const meta = encodeMessage(LIST_META, { metadata });
    const total = meta.length + this.size;
    return [envelopeHead(this.apiVersion, this.kind, total), meta, ...this.pieces, ENVELOPE_TAIL];
  }
}
