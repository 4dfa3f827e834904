// The smallest JSON a schema node's value can serialize to, as kube's
// DeclType.MinSerializedSize (apiserver pkg/cel/types.go, common/schemas.go):
// the bound on how many times a rule's node can occur in one request when a
// list or map on the way to it has no maxItems/maxProperties.
import type { Schema } from '../../cel/k8s/index.js';
import { JSON_DATE_SIZE, MIN_BOOL_SIZE, MIN_DATETIME_SIZE_JSON, MIN_DURATION_SIZE_JSON, MIN_NUMBER_SIZE, MIN_STRING_SIZE } from '../../cel/k8s/schema.js';

/** undefined when the node has no CEL type (it is then left out of its object). */
export function minSerializedSize(s: Schema): number | undefined {
  if (s['x-kubernetes-int-or-string'] === true) return 1;
  switch (s.type) {
    case 'array':
      return s.items && minSerializedSize(s.items) !== undefined ? 2 : undefined;
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') return minSerializedSize(ap) !== undefined ? 2 : undefined;
      const required = new Set(s.required ?? []);
      let size = 2;
      for (const [prop, ps] of Object.entries(s.properties ?? {})) {
        if (!required.has(prop) || (ps.default !== undefined && ps.default !== null)) continue;
        const m = minSerializedSize(ps);
        if (m !== undefined) size += Buffer.byteLength(prop) + m + 4;
      }
      return size;
    }
    case 'string':
      switch (s.format) {
        case 'duration':
          return MIN_DURATION_SIZE_JSON;
        case 'date':
          return JSON_DATE_SIZE;
        case 'date-time':
          return MIN_DATETIME_SIZE_JSON;
      }
      return MIN_STRING_SIZE;
    case 'boolean':
      return MIN_BOOL_SIZE;
    case 'number':
    case 'integer':
      return MIN_NUMBER_SIZE;
  }
  return undefined;
}
