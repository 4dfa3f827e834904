// Reads a request body with the 3 MiB limit and decodes it by Content-Type.
import { newBadRequest, newRequestEntityTooLarge, newUnsupportedMediaType } from '../api/meta/index.js';
import type { Request } from '../server/context.js';
import { decodeBody } from './negotiate.js';

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
}

/** Reads and decodes an object body; an empty body is undefined. */
export async function readObjectBody(req: Request): Promise<ObjectBody | undefined> {
  const body = await readBody(req);
  if (body.length === 0) return undefined;
  const contentType = req.headers['content-type'];
  let decoded;
  try {
    decoded = decodeBody(body, contentType);
  } catch (err) {
    throw newBadRequest(`the body of the request could not be decoded: ${(err as Error).message}`);
  }
  if (decoded === null) throw newUnsupportedMediaType(['application/json', 'application/yaml']);
  const value = decoded.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw newBadRequest('the body of the request must be an object');
  return { value: value as Record<string, unknown>, duplicates: decoded.duplicates };
}

/** Reads and decodes an object body; an empty body is undefined. */
export async function readObject(req: Request): Promise<Record<string, unknown> | undefined> {
  return (await readObjectBody(req))?.value;
}
