// Turns the CRI proto text (proto.ts) into @grpc/proto-loader method
// definitions, once per process.
//
// proto-loader parses .proto files only from disk (its fromJSON wants a
// protobufjs descriptor, which we would have to write by hand or build with
// protobufjs itself, not a dependency of ours). So the text is written to a
// private temporary folder, loaded with loadSync, and the folder removed at
// once: the .proto stays readable next to upstream's api.proto, and dist/
// needs no copied asset.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSync, type MethodDefinition, type Options, type ServiceDefinition } from '@grpc/proto-loader';
import { CRI_PROTO } from './proto.js';

/** How messages look in JavaScript: camelCase fields, int64 as numbers, enums by name, every field present. */
export const LOADER_OPTIONS: Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

export type CriServiceName = 'RuntimeService' | 'ImageService';
export type CriMethod = MethodDefinition<object, object>;

let loaded: Readonly<Record<CriServiceName, ServiceDefinition>> | undefined;

function load(): Readonly<Record<CriServiceName, ServiceDefinition>> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cri-proto-'));
  try {
    const file = join(dir, 'api.proto');
    writeFileSync(file, CRI_PROTO);
    const pkg = loadSync(file, LOADER_OPTIONS);
    return {
      RuntimeService: pkg['runtime.v1.RuntimeService'] as ServiceDefinition,
      ImageService: pkg['runtime.v1.ImageService'] as ServiceDefinition,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A whole service's definition (for a gRPC server in tests). */
export function criService(service: CriServiceName): ServiceDefinition {
  loaded ??= load();
  return loaded[service];
}

/** The definition of one rpc (path, serializers); throws for an rpc the proto does not declare. */
export function criMethod(service: CriServiceName, rpc: string): CriMethod {
  loaded ??= load();
  const m = loaded[service][rpc];
  if (!m) throw new Error(`runtime.v1.${service} has no rpc ${rpc}`);
  return m;
}
