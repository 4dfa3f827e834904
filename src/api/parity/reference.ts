// Where the official OpenAPI v3 documents and golden transcripts live, read
// at test time and never copied into the project: ../shared/reference beside
// the repository. Found from the compiled file (dist/src/api/parity/) or from
// the working directory (the repository root); undefined when absent, so
// suites can skip with a reason instead of failing on a bare checkout.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIDocument } from '../../schema/parity.js';

const candidates = [
  fileURLToPath(new URL('../../../../../shared/reference/', import.meta.url)),
  fileURLToPath(new URL('../../../../shared/reference/', import.meta.url)),
  join(process.cwd(), '../shared/reference/'),
];

/** The reference directory, or undefined when it is not beside the repository. */
export const REFERENCE_DIR: string | undefined = candidates.find((d) => existsSync(join(d, 'openapi')));

/** The Kubernetes releases whose documents bracket v1.27. */
export const REFERENCE_RELEASES = ['v1.26.1', 'v1.28.0'] as const;
export type ReferenceRelease = (typeof REFERENCE_RELEASES)[number];

const docs = new Map<string, OpenAPIDocument | undefined>();

/** The file name of a group-version's document: `apis__<group>__<version>_openapi.json` (core: `api__v1_openapi.json`). */
export function documentName(k8sGroup: string, version: string): string {
  return k8sGroup === '' ? `api__${version}_openapi.json` : `apis__${k8sGroup}__${version}_openapi.json`;
}

/** A release's document for a group-version, or undefined when that release does not publish it. */
export function loadDocument(release: ReferenceRelease, k8sGroup: string, version: string): OpenAPIDocument | undefined {
  if (REFERENCE_DIR === undefined) return undefined;
  const file = join(REFERENCE_DIR, 'openapi', release, documentName(k8sGroup, version));
  if (!docs.has(file)) docs.set(file, existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as OpenAPIDocument) : undefined);
  return docs.get(file);
}
