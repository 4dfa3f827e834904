// A Swagger 2.0 document (as JSON) in the protobuf form kubectl asks for:
// gnostic's `openapi.v2.Document` (github.com/google/gnostic,
// openapiv2/OpenAPIv2.proto; field numbers below). Maps are repeated
// Named* pairs in document order; x-* keys are vendor extensions whose value
// is an `Any` holding YAML text (JSON text is valid YAML); `default`, `enum`
// and `example` values are `Any`s too. Only what documents.ts produces is
// handled; anything else fails loudly rather than being dropped.
import type { JsonValue } from '../schema/model.js';
import { ProtoWriter } from './protobuf.js';

type Obj = { readonly [key: string]: JsonValue };

export function encodeDocument(doc: Obj): Uint8Array {
  const w = new ProtoWriter();
  for (const [k, v] of Object.entries(doc)) {
    switch (k) {
      case 'swagger': w.string(1, str(v, k)); break;
      case 'info': w.message(2, (m) => info(m, obj(v, k))); break;
      case 'host': w.string(3, str(v, k)); break;
      case 'basePath': w.string(4, str(v, k)); break;
      case 'schemes': strings(w, 5, v, k); break;
      case 'consumes': strings(w, 6, v, k); break;
      case 'produces': strings(w, 7, v, k); break;
      case 'paths': w.message(8, (m) => paths(m, obj(v, k))); break;
      case 'definitions': w.message(9, (m) => named(m, 1, obj(v, k), schema)); break;
      case 'security': for (const s of arr(v, k)) w.message(12, (m) => securityRequirement(m, obj(s, k))); break;
      case 'securityDefinitions': w.message(13, (m) => named(m, 1, obj(v, k), securityDefinition)); break;
      default: extension(w, 16, k, v, 'Document');
    }
  }
  return w.finish();
}

function info(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'title') w.string(1, str(v, k));
    else if (k === 'version') w.string(2, str(v, k));
    else if (k === 'description') w.string(3, str(v, k));
    else extension(w, 7, k, v, 'Info');
  }
}

function paths(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k.startsWith('x-')) extension(w, 1, k, v, 'Paths');
    else w.message(2, (m) => m.string(1, k).message(2, (p) => pathItem(p, obj(v, k))));
  }
}

const METHODS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === '$ref') w.string(1, str(v, k));
    else if (METHODS[k] !== undefined) w.message(METHODS[k], (m) => operation(m, obj(v, k)));
    else if (k === 'parameters') for (const p of arr(v, k)) w.message(9, (m) => parametersItem(m, obj(p, k)));
    else extension(w, 10, k, v, 'PathItem');
  }
}

function operation(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'tags': strings(w, 1, v, k); break;
      case 'summary': w.string(2, str(v, k)); break;
      case 'description': w.string(3, str(v, k)); break;
      case 'operationId': w.string(5, str(v, k)); break;
      case 'produces': strings(w, 6, v, k); break;
      case 'consumes': strings(w, 7, v, k); break;
      case 'parameters': for (const p of arr(v, k)) w.message(8, (m) => parametersItem(m, obj(p, k))); break;
      case 'responses': w.message(9, (m) => responses(m, obj(v, k))); break;
      case 'schemes': strings(w, 10, v, k); break;
      case 'deprecated': w.bool(11, bool(v, k)); break;
      default: extension(w, 13, k, v, 'Operation');
    }
  }
}

/** ParametersItem { Parameter parameter = 1 { BodyParameter = 1 | NonBodyParameter = 2 } | JsonReference = 2 }. */
function parametersItem(w: ProtoWriter, o: Obj): void {
  if (o.$ref !== undefined) {
    w.message(2, (m) => m.string(1, str(o.$ref!, '$ref')).string(2, o.description === undefined ? undefined : str(o.description, 'description')));
    return;
  }
  if (o.in === 'body') {
    w.message(1, (p) => p.message(1, (b) => bodyParameter(b, o)));
    return;
  }
  // NonBodyParameter: header = 1, formData = 2, query = 3, path = 4.
  const which = { header: 1, formData: 2, query: 3, path: 4 }[str(o.in ?? '', 'in')];
  if (which === undefined) throw new Error(`gnostic: parameter ${String(o.name)}: unsupported location ${String(o.in)}`);
  w.message(1, (p) => p.message(2, (n) => n.message(which, (s) => nonBodyParameter(s, o, which === 1 || which === 4))));
}

function bodyParameter(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'description') w.string(1, str(v, k));
    else if (k === 'name') w.string(2, str(v, k));
    else if (k === 'in') w.string(3, str(v, k));
    else if (k === 'required') w.bool(4, bool(v, k));
    else if (k === 'schema') w.message(5, (m) => schema(m, obj(v, k)));
    else extension(w, 6, k, v, 'BodyParameter');
  }
}

/**
 * The four parameter sub-schemas share their first fields; header and path
 * ones lack allowEmptyValue (5), so from `type` on their numbers are one lower.
 */
function nonBodyParameter(w: ProtoWriter, o: Obj, noAllowEmpty: boolean): void {
  const shift = noAllowEmpty ? 1 : 0;
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'required': w.bool(1, bool(v, k)); break;
      case 'in': w.string(2, str(v, k)); break;
      case 'description': w.string(3, str(v, k)); break;
      case 'name': w.string(4, str(v, k)); break;
      case 'type': w.string(6 - shift, str(v, k)); break;
      case 'format': w.string(7 - shift, str(v, k)); break;
      case 'default': w.message(10 - shift, (m) => anyValue(m, v)); break;
      case 'uniqueItems': w.bool(20 - shift, bool(v, k)); break;
      case 'enum': for (const e of arr(v, k)) w.message(21 - shift, (m) => anyValue(m, e)); break;
      default: extension(w, 23 - shift, k, v, 'Parameter');
    }
  }
}

function responses(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k.startsWith('x-')) extension(w, 2, k, v, 'Responses');
    // NamedResponseValue { name = 1; ResponseValue value = 2 { Response response = 1 } }
    else w.message(1, (m) => m.string(1, k).message(2, (rv) => rv.message(1, (r) => response(r, obj(v, k)))));
  }
}

function response(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'description') w.string(1, str(v, k), true);
    else if (k === 'schema') w.message(2, (si) => si.message(1, (s) => schema(s, obj(v, k))));
    else extension(w, 5, k, v, 'Response');
  }
}

function schema(w: ProtoWriter, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case '$ref': w.string(1, str(v, k)); break;
      case 'format': w.string(2, str(v, k)); break;
      case 'title': w.string(3, str(v, k)); break;
      case 'description': w.string(4, str(v, k)); break;
      case 'default': w.message(5, (m) => anyValue(m, v)); break;
      case 'multipleOf': w.double(6, num(v, k)); break;
      case 'maximum': w.double(7, num(v, k)); break;
      case 'exclusiveMaximum': w.bool(8, bool(v, k)); break;
      case 'minimum': w.double(9, num(v, k)); break;
      case 'exclusiveMinimum': w.bool(10, bool(v, k)); break;
      case 'maxLength': w.int64(11, num(v, k)); break;
      case 'minLength': w.int64(12, num(v, k)); break;
      case 'pattern': w.string(13, str(v, k)); break;
      case 'maxItems': w.int64(14, num(v, k)); break;
      case 'minItems': w.int64(15, num(v, k)); break;
      case 'uniqueItems': w.bool(16, bool(v, k)); break;
      case 'maxProperties': w.int64(17, num(v, k)); break;
      case 'minProperties': w.int64(18, num(v, k)); break;
      case 'required': strings(w, 19, v, k); break;
      case 'enum': for (const e of arr(v, k)) w.message(20, (m) => anyValue(m, e)); break;
      case 'additionalProperties':
        // AdditionalPropertiesItem: oneof { Schema schema = 1; bool boolean = 2 } (a oneof member is written even when false).
        w.message(21, (m) => (typeof v === 'boolean' ? m.bool(2, v, true) : m.message(1, (s) => schema(s, obj(v, k)))));
        break;
      case 'type': w.message(22, (m) => strings(m, 1, Array.isArray(v) ? v : [v], k)); break;
      case 'items': w.message(23, (m) => { for (const it of Array.isArray(v) ? v : [v]) m.message(1, (s) => schema(s, obj(it, k))); }); break;
      case 'allOf': for (const s of arr(v, k)) w.message(24, (m) => schema(m, obj(s, k))); break;
      case 'properties': w.message(25, (m) => named(m, 1, obj(v, k), schema)); break;
      case 'readOnly': w.bool(27, bool(v, k)); break;
      case 'example': w.message(30, (m) => anyValue(m, v)); break;
      default: extension(w, 31, k, v, 'Schema');
    }
  }
}

function securityRequirement(w: ProtoWriter, o: Obj): void {
  // NamedStringArray { name = 1; StringArray value = 2 { repeated string value = 1 } }
  for (const [k, v] of Object.entries(o)) w.message(1, (m) => m.string(1, k).message(2, (a) => strings(a, 1, v, k)));
}

function securityDefinition(w: ProtoWriter, o: Obj): void {
  if (o.type !== 'apiKey') throw new Error(`gnostic: security definition type ${String(o.type)} is not supported`);
  // SecurityDefinitionsItem { ApiKeySecurity api_key_security = 2 { type = 1; name = 2; in = 3; description = 4 } }
  w.message(2, (m) => {
    for (const [k, v] of Object.entries(o)) {
      const n = { type: 1, name: 2, in: 3, description: 4 }[k];
      if (n !== undefined) m.string(n, str(v, k));
      else extension(m, 5, k, v, 'ApiKeySecurity');
    }
  });
}

/** A map as repeated `Named<X> { string name = 1; X value = 2; }` in field `field`. */
function named(w: ProtoWriter, field: number, o: Obj, value: (w: ProtoWriter, o: Obj) => void): void {
  for (const [k, v] of Object.entries(o)) w.message(field, (m) => m.string(1, k, true).message(2, (x) => value(x, obj(v, k))));
}

/** A vendor extension `NamedAny { name = 1; Any value = 2 { yaml = 2 } }`; any other key is an error. */
function extension(w: ProtoWriter, field: number, k: string, v: JsonValue, where: string): void {
  if (!k.startsWith('x-')) throw new Error(`gnostic: ${where} has no field ${JSON.stringify(k)}`);
  w.message(field, (m) => m.string(1, k).message(2, (a) => anyValue(a, v)));
}

function anyValue(w: ProtoWriter, v: JsonValue): void {
  w.string(2, JSON.stringify(v) + '\n');
}

function strings(w: ProtoWriter, field: number, v: JsonValue, k: string): void {
  for (const s of arr(v, k)) w.string(field, str(s, k), true);
}

function obj(v: JsonValue, k: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`gnostic: ${k} must be an object`);
  return v;
}
function arr(v: JsonValue, k: string): readonly JsonValue[] {
  if (!Array.isArray(v)) throw new Error(`gnostic: ${k} must be an array`);
  return v;
}
function str(v: JsonValue, k: string): string {
  if (typeof v !== 'string') throw new Error(`gnostic: ${k} must be a string`);
  return v;
}
function num(v: JsonValue, k: string): number {
  if (typeof v !== 'number') throw new Error(`gnostic: ${k} must be a number`);
  return v;
}
function bool(v: JsonValue, k: string): boolean {
  if (typeof v !== 'boolean') throw new Error(`gnostic: ${k} must be a boolean`);
  return v;
}
