// Reads a request body with the 3 MiB limit and decodes it by Content-Type
// (JSON, YAML, or the protobuf envelope, which becomes the same JSON object).
import { newBadRequest, newRequestEntityTooLarge, newUnsupportedMediaType } from '../api/meta/index.js';
import type { Request } from '../server/context.js';
import { hasMagic, isProtobufType, MAGIC, UnknownKindError } from '../protobuf/index.js';
import { BODY_TYPES, decodeBody, TEXT_BODY_TYPES } from './negotiate.js';
import { summarizeBody } from './bodykind.js';

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw newRequestEntityTooLarge(`limit is ${limit}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw newRequestEntityTooLarge(`limit is ${limit}`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** An object body and the paths of keys it repeats (for field validation). */
export interface ObjectBody {
  readonly value: Record<string, unknown>;
  readonly duplicates: readonly string[];
  /** The bytes as received (Kubernetes quotes them in some decode errors). */
  readonly raw: Buffer;
}

/** Reads and decodes an object body; an empty body is undefined. `kind` (the URL's) names the type in decode errors. */
export async function readObjectBody(req: Request, kind?: string, textOnly = false): Promise<ObjectBody | undefined> {
  const body = await readBody(req);
  if (body.length === 0) return undefined;
  const contentType = req.headers['content-type'];
  // Custom resources take JSON and YAML only (kube's unstructured codecs).
  if (textOnly && contentType !== undefined && isProtobufType(contentType.split(';')[0]!.trim().toLowerCase())) throw newUnsupportedMediaType(TEXT_BODY_TYPES);
  let decoded;
  try {
    decoded = decodeBody(body, contentType);
  } catch (err) {
    throw decodeError(err as Error, body, contentType, kind);
  }
  if (decoded === null) throw newUnsupportedMediaType(BODY_TYPES);
  const value = decoded.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw newBadRequest('the body of the request must be an object');
  return { value: value as Record<string, unknown>, duplicates: decoded.duplicates, raw: body };
}

/**
 * A body that did not decode. Protobuf errors are worded as Kubernetes words
 * them: the wrong prefix, an unregistered kind, a malformed message, with
 * the start of the body in hex.
 */
function decodeError(err: Error, body: Buffer, contentType: string | undefined, kind: string | undefined): Error {
  const protobuf = /protobuf/i.test(contentType ?? '');
  if (!protobuf && kind === undefined) return newBadRequest(`the body of the request could not be decoded: ${err.message}`);
  if (err instanceof UnknownKindError) return newBadRequest(err.message);
  let cause: string;
  if (protobuf) cause = hasMagic(body) ? err.message : `provided data does not appear to be a protobuf message, expected prefix [${[...MAGIC].join(' ')}]`;
  else if (/ya?ml/i.test(contentType ?? '')) cause = `yaml: ${err.message.split('\n')[0]}`; // go-yaml's own texts differ
  else cause = `couldn't get version/kind; json parse error: ${err.message}`; // the serializer's first read (meta.Interpret)
  return newBadRequest(`the object provided is unrecognized (must be of type ${kind ?? "the resource's kind"}): ${cause} (${summarizeBody(body)})`);
}

/** Reads and decodes an object body; an empty body is undefined. */
export async function readObject(req: Request): Promise<Record<string, unknown> | undefined> {
  return (await readObjectBody(req))?.value;
}
