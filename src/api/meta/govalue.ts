// Values that Kubernetes prints with Go's %#v in "Invalid value: …" messages
// (maps, typed slices, structs). A GoValue carries the JSON value and the Go
// rendering: field.ts's formatValue prints `goText` in messages, and JSON
// serialisation falls back to the plain value (toJSON).
import { errorBody, type FieldError, formatValue } from './field.js';

export class GoValue {
  constructor(
    readonly value: unknown,
    readonly goText: string,
  ) {}
  toJSON(): unknown {
    return this.value;
  }
}

const q = (s: string) => JSON.stringify(s);

/** `map[string]string{"a":"1", "b":"2"}` (keys sorted, as fmt prints maps); nil for an absent map. */
export function goStringMap(m: Record<string, unknown> | undefined | null): GoValue {
  if (m === undefined || m === null) return new GoValue(m ?? null, 'map[string]string(nil)');
  const body = Object.keys(m)
    .sort()
    .map((k) => `${q(k)}:${q(String(m[k]))}`)
    .join(', ');
  return new GoValue(m, `map[string]string{${body}}`);
}

/** `[]T{"a", "b"}`, e.g. goStringSlice('admissionregistration.OperationType', ops). */
export function goStringSlice(elemType: string, xs: readonly unknown[] | undefined | null): GoValue {
  if (!xs) return new GoValue(null, `[]${elemType}(nil)`);
  return new GoValue(xs, `[]${elemType}{${xs.map((x) => q(String(x))).join(', ')}}`);
}

/** The text a Status cause shows for a value: Go's rendering where known, else formatValue. */
export function renderValue(v: unknown): string {
  return v instanceof GoValue ? v.goText : formatValue(v);
}

/**
 * A cause's message as Kubernetes renders it: Go values printed with %#v, and
 * the detail appended for every type (field.ts's errorBody drops it for
 * Duplicate and NotFound, which Kubernetes does not).
 */
export function renderBody(e: FieldError): string {
  const marker = '\u0000govalue';
  let body = errorBody(e.value instanceof GoValue ? { ...e, value: marker } : e);
  if (e.value instanceof GoValue) body = body.replace(JSON.stringify(marker), e.value.goText);
  if ((e.type === 'Duplicate' || e.type === 'NotFound') && e.detail) body += `: ${e.detail}`;
  return body;
}

/** `field: message`, one line of a Status message. */
export const renderCause = (e: FieldError): string => `${e.field}: ${renderBody(e)}`;

/** `intstr.IntOrString{…}` for an int-or-string JSON value. */
export function goIntOrString(v: unknown): GoValue {
  if (typeof v === 'string') return new GoValue(v, `intstr.IntOrString{Type:1, IntVal:0, StrVal:${q(v)}}`);
  return new GoValue(v ?? null, `intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`);
}

/** A metav1.LabelSelector as Go prints the dereferenced struct. */
export function goLabelSelector(sel: unknown): GoValue {
  if (typeof sel !== 'object' || sel === null) return new GoValue(null, 'null');
  const s = sel as { matchLabels?: Record<string, unknown>; matchExpressions?: { key?: string; operator?: string; values?: string[] }[] };
  const labels = s.matchLabels && Object.keys(s.matchLabels).length ? goStringMap(s.matchLabels).goText : 'map[string]string(nil)';
  const exprs = s.matchExpressions?.length
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions
        .map((e) => `v1.LabelSelectorRequirement{Key:${q(e.key ?? '')}, Operator:${q(e.operator ?? '')}, Values:${goStringSlice('string', e.values).goText}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoValue(sel, `v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${exprs}}`);
}
