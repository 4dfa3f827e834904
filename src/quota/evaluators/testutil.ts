// Helpers for the evaluator tests: lists as plain texts, objects from specs.
import { formatResourceList, type ResourceList } from '../resources.js';
import type { ApiObject } from '../../registry/object.js';

/** A usage as `{ name: text }`, names sorted, for deepEqual against a literal. */
export const texts = (l: ResourceList): Record<string, string> => formatResourceList(l);

export const obj = (spec: Record<string, unknown>, extra: Partial<ApiObject> = {}): ApiObject =>
  ({ metadata: { name: 'x', namespace: 'ns' }, spec, ...extra }) as ApiObject;

export const quota = (spec: Record<string, unknown>): ApiObject => obj(spec);
