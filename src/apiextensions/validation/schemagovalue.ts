// A decoded JSON value as Go prints an interface{} holding it with %#v, which
// is how kube shows a default in "Invalid value: …" (maps with sorted keys,
// `map[string]interface {}{"a":1}`, `[]interface {}{"x"}`, `interface {}(nil)`).
import { GoValue } from '../../api/meta/govalue.js';
import { goNumber } from '../../schema/validate.js';

function render(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return goNumber(v, Number.isInteger(v));
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => render(x)).join(', ')}}`;
  const o = v as Record<string, unknown>;
  const body = Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${render(o[k])}`).join(', ');
  return `map[string]interface {}{${body}}`;
}

/** The value for a field error: objects and arrays carry Go's rendering, scalars stay as they are. */
export function goJson(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? new GoValue(v, render(v)) : v;
}
