// The schema of a served kind: a custom resource's comes with its served
// version (built from its CustomResourceDefinition), a built-in kind's from
// the static registry (src/api/schemas.ts). The request path asks here.
import { schemaFor } from '../api/schemas.js';
import type { Schema } from '../schema/model.js';
import type { CustomKind } from '../registry/registry.js';

export interface KindRef {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly custom?: CustomKind;
}

export function kindSchema(ref: KindRef): Schema | undefined {
  return ref.custom ? ref.custom.schema : schemaFor(ref.group, ref.version, ref.kind);
}
