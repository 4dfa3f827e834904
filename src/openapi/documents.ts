// The published documents, as JSON values: the Swagger 2.0 document of
// everything served (/openapi/v2) and one OpenAPI 3.0 document per served
// group-version and spelling (/openapi/v3/apis/<group>/<version>). Paths and
// components are sorted, so the same server always publishes the same bytes
// (and the same hashes). Components are rendered once per form and shared.
import { VERSION_INFO } from '../endpoints/discovery.js';
import type { JsonValue } from '../schema/model.js';
import { gvkExtension, type Definitions } from './definitions.js';
import { emitComponent, refTo, type Form, type Json } from './emit.js';
import { PARAMS, PATCH_TYPES, type ParamName, type ParamSpec } from './params.js';
import type { Operation, Route } from './routes.js';

const INFO = { title: 'svc', version: VERSION_INFO.gitVersion };
const SECURITY_SCHEME = { type: 'apiKey', name: 'authorization', in: 'header', description: 'A bearer token: "Bearer <token>".' };
const CODE_TEXT: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' };
const OBJECT_TYPES = ['application/json', 'application/yaml'];
const STREAM_TYPES = ['application/json;stream=watch'];

/**
 * A component the definitions table does not hold (a custom resource's), in
 * both forms, with the ids of the components it refers to (either kind).
 */
export interface ExtraComponent {
  readonly v2: Json;
  readonly v3: Json;
  readonly refs: readonly string[];
}
export type ExtraComponents = ReadonlyMap<string, ExtraComponent>;

const NO_EXTRA: ExtraComponents = new Map();

export class Documents {
  private readonly components: Record<Form, Map<string, Json>> = { v2: new Map(), v3: new Map() };

  constructor(readonly defs: Definitions) {}

  /** The Swagger 2.0 document of all the routes given; `extra` holds the components the routes name that are not built in. */
  v2(routes: readonly Route[], extra: ExtraComponents = NO_EXTRA): Json {
    return {
      swagger: '2.0',
      info: INFO,
      paths: pathsOf(routes, v2Param, v2Operation),
      definitions: this.componentsFor(routes, 'v2', extra),
      securityDefinitions: { BearerToken: SECURITY_SCHEME },
      security: [{ BearerToken: [] }],
    };
  }

  /** The OpenAPI 3.0 document of one group-version's routes (`extra` as for v2). */
  v3(routes: readonly Route[], extra: ExtraComponents = NO_EXTRA): Json {
    return {
      openapi: '3.0.0',
      info: INFO,
      paths: pathsOf(routes, v3Param, v3Operation),
      components: { schemas: this.componentsFor(routes, 'v3', extra), securitySchemes: { BearerToken: SECURITY_SCHEME } },
      security: [{ BearerToken: [] }],
    };
  }

  private componentsFor(routes: readonly Route[], form: Form, extra: ExtraComponents): Json {
    const builtIn = new Set<string>();
    const extras = new Set<string>();
    const visit = (id: string) => {
      const x = extra.get(id);
      if (x === undefined) builtIn.add(id);
      else if (!extras.has(id)) {
        extras.add(id);
        for (const r of x.refs) visit(r);
      }
    };
    for (const r of routes) {
      for (const op of r.ops) {
        if (op.body) visit(op.body.id);
        if (op.response !== 'string') visit(op.response);
      }
    }
    const out: Json = {};
    for (const id of [...this.defs.closure(builtIn), ...extras].sort()) out[id] = extra.get(id)?.[form] ?? this.component(id, form);
    return out;
  }

  private component(id: string, form: Form): Json {
    let c = this.components[form].get(id);
    if (c === undefined) {
      c = emitComponent(this.defs, id, form);
      const gvks = this.defs.gvksOf(id);
      if (gvks !== undefined) c['x-kubernetes-group-version-kind'] = gvkExtension(gvks);
      this.components[form].set(id, c);
    }
    return c;
  }
}

/** The paths object, sorted by path. */
function pathsOf(routes: readonly Route[], param: (p: ParamName) => Json, operation: (op: Operation) => Json): Json {
  const paths: Json = {};
  for (const r of [...routes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const item: Json = { parameters: r.params.map(param) };
    for (const op of r.ops) item[op.method] = operation(op);
    paths[r.path] = item;
  }
  return paths;
}

function kubernetesExtensions(op: Operation): Json {
  const out: Json = {};
  if (op.action !== undefined) out['x-kubernetes-action'] = op.action;
  if (op.gvk !== undefined) out['x-kubernetes-group-version-kind'] = { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version };
  return out;
}

function v2Param(key: ParamName): Json {
  const p: ParamSpec = PARAMS[key];
  return { name: p.name ?? key, in: p.in, description: p.description, type: p.type, ...(p.required ? { required: true } : {}) };
}

function v3Param(key: ParamName): Json {
  const p: ParamSpec = PARAMS[key];
  return { name: p.name ?? key, in: p.in, description: p.description, ...(p.required ? { required: true } : {}), schema: { type: p.type } };
}

/** The media types a body is taken in. */
function consumes(body: NonNullable<Operation['body']>): readonly string[] {
  return body.consumes ?? (body.patch ? PATCH_TYPES : ['*/*']);
}

function v2Operation(op: Operation): Json {
  const schema: Json = op.response === 'string' ? { type: 'string' } : refTo(op.response, 'v2');
  const responses: Json = {};
  for (const code of op.codes) responses[code] = { description: CODE_TEXT[code]!, schema };
  responses['401'] = { description: CODE_TEXT['401']! };
  const params: JsonValue[] = [];
  if (op.body) params.push({ name: 'body', in: 'body', required: op.body.required, schema: refTo(op.body.id, 'v2') });
  for (const q of op.query) params.push(v2Param(q));
  return {
    description: op.description,
    ...(op.body ? { consumes: [...consumes(op.body)] } : {}),
    produces: op.response === 'string' ? ['*/*'] : [...OBJECT_TYPES, ...(op.stream ? STREAM_TYPES : [])],
    schemes: ['https'],
    tags: [op.tag],
    operationId: op.operationId,
    ...(params.length ? { parameters: params } : {}),
    responses,
    ...kubernetesExtensions(op),
  };
}

function v3Operation(op: Operation): Json {
  const content = (types: readonly string[], schema: Json): Json => Object.fromEntries(types.map((t) => [t, { schema }]));
  const schema: Json = op.response === 'string' ? { type: 'string' } : refTo(op.response, 'v3');
  const types = op.response === 'string' ? ['*/*'] : [...OBJECT_TYPES, ...(op.stream ? STREAM_TYPES : [])];
  const responses: Json = {};
  for (const code of op.codes) responses[code] = { description: CODE_TEXT[code]!, content: content(types, schema) };
  responses['401'] = { description: CODE_TEXT['401']! };
  return {
    tags: [op.tag],
    description: op.description,
    operationId: op.operationId,
    ...(op.query.length ? { parameters: op.query.map((q) => v3Param(q)) } : {}),
    ...(op.body
      ? { requestBody: { content: content(consumes(op.body), refTo(op.body.id, 'v3')), required: op.body.required } }
      : {}),
    responses,
    ...kubernetesExtensions(op),
  };
}
