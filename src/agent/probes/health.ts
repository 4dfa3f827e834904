// grpc.health.v1.Health/Check, written out by hand (two one-field messages),
// so the prober needs no .proto file at run time:
//
//   message HealthCheckRequest  { string service = 1; }
//   message HealthCheckResponse { ServingStatus status = 1; }
//   enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
//
// The codec is also what a test (or any in-process) health server uses.
import type { ServiceDefinition } from '@grpc/grpc-js';

export const HEALTH_CHECK_METHOD = '/grpc.health.v1.Health/Check';

export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

export interface HealthCheckRequest {
  readonly service: string;
}
export interface HealthCheckResponse {
  /** The enum's number (an unknown number is kept). */
  readonly status: number;
}

/** The enum's name as Go's String() gives it (the number for an unknown value). */
export const servingStatusName = (n: number): string => SERVING_STATUS[n] ?? String(n);

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}

function readVarint(buf: Buffer, at: number): [value: bigint, next: number] {
  let v = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length; i++) {
    const b = buf[i]!;
    v |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [v, i + 1];
    shift += 7n;
    if (shift > 63n) break;
  }
  throw new Error('proto: bad varint');
}

/** The fields of a message: field number → last varint value or last bytes value (unknown wire types skipped). */
function fields(buf: Buffer): Map<number, bigint | Buffer> {
  const out = new Map<number, bigint | Buffer>();
  let at = 0;
  while (at < buf.length) {
    const [key, afterKey] = readVarint(buf, at);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    at = afterKey;
    if (wire === 0) {
      const [v, next] = readVarint(buf, at);
      out.set(field, v);
      at = next;
    } else if (wire === 2) {
      const [len, next] = readVarint(buf, at);
      const end = next + Number(len);
      if (end > buf.length) throw new Error('proto: truncated field');
      out.set(field, buf.subarray(next, end));
      at = end;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`proto: unsupported wire type ${wire}`);
  }
  return out;
}

export function encodeRequest(r: HealthCheckRequest): Buffer {
  if (r.service === '') return Buffer.alloc(0);
  const s = Buffer.from(r.service, 'utf8');
  return Buffer.concat([Buffer.from([0x0a]), varint(s.length), s]);
}

export function decodeRequest(buf: Buffer): HealthCheckRequest {
  const v = fields(buf).get(1);
  return { service: Buffer.isBuffer(v) ? v.toString('utf8') : '' };
}

export function encodeResponse(r: HealthCheckResponse): Buffer {
  return r.status === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x08]), varint(r.status)]);
}

export function decodeResponse(buf: Buffer): HealthCheckResponse {
  const v = fields(buf).get(1);
  return { status: typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : 0 };
}

/** The service definition for a grpc-js Server (Check only). */
export const HEALTH_SERVICE: ServiceDefinition = {
  Check: {
    path: HEALTH_CHECK_METHOD,
    requestStream: false,
    responseStream: false,
    requestSerialize: encodeRequest,
    requestDeserialize: decodeRequest,
    responseSerialize: encodeResponse,
    responseDeserialize: decodeResponse,
  },
};
