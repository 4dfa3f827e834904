// Declarations written as cel.expr protobuf messages (cel.expr.Decl,
// cel.expr.Type, as @bufbuild/protobuf renders them), the form the
// conformance suites give their type environments in, turned into checker
// types and function declarations.

import type { FunctionDecl, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { T, listOf, mapOf, opaque, typeOf, typeParam } from '../types.js';
import { typeParamsIn } from './declare.js';

/** cel.expr.Type, structurally. */
export interface PbType {
  typeKind: { case: string | undefined; value?: unknown };
}

/** cel.expr.Decl, structurally. */
export interface PbDecl {
  name: string;
  declKind: { case: 'ident'; value: { type?: PbType } } | { case: 'function'; value: { overloads: PbOverload[] } } | { case: undefined; value?: undefined };
}

interface PbOverload {
  overloadId: string;
  params: PbType[];
  typeParams: string[];
  isInstanceFunction: boolean;
  resultType?: PbType;
}

export class UnsupportedTypeError {
  constructor(readonly message: string) {}
}

const PRIMITIVES: Record<number, Type> = { 1: T.bool, 2: T.int, 3: T.uint, 4: T.double, 5: T.string, 6: T.bytes };
const WELL_KNOWN: Record<number, Type> = { 1: T.any, 2: T.timestamp, 3: T.duration };
/** The protobuf messages CEL reads as its own types. */
const WELL_KNOWN_MESSAGES: Record<string, Type> = {
  'google.protobuf.Any': T.any,
  'google.protobuf.Timestamp': T.timestamp,
  'google.protobuf.Duration': T.duration,
  'google.protobuf.Value': T.dyn,
  'google.protobuf.ListValue': listOf(T.dyn),
  'google.protobuf.Struct': mapOf(T.string, T.dyn),
};

/** A cel.expr.Type as a checker type. Message types become objects without
 * fields (no protobuf descriptors are served); wrappers are unsupported. */
export function typeFromPb(t: PbType | undefined): Type {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'dyn':
      return T.dyn;
    case 'null':
      return T.null;
    case 'error':
      return T.error;
    case 'primitive':
      return PRIMITIVES[k.value as number] ?? T.dyn;
    case 'wellKnown':
      return WELL_KNOWN[k.value as number] ?? T.dyn;
    case 'listType':
      return listOf(typeFromPb((k.value as { elemType?: PbType }).elemType));
    case 'mapType': {
      const m = k.value as { keyType?: PbType; valueType?: PbType };
      return mapOf(typeFromPb(m.keyType), typeFromPb(m.valueType));
    }
    case 'typeParam':
      return typeParam(k.value as string);
    case 'type': {
      const inner = k.value as PbType | undefined;
      return inner?.typeKind?.case ? typeOf(typeFromPb(inner)) : typeOf();
    }
    case 'abstractType': {
      const a = k.value as { name: string; parameterTypes: PbType[] };
      return opaque(a.name, ...a.parameterTypes.map(typeFromPb));
    }
    case 'messageType':
      return WELL_KNOWN_MESSAGES[k.value as string] ?? { kind: 'object', name: k.value as string, fields: new Map() };
    default:
      throw new UnsupportedTypeError(`unsupported type kind '${k?.case ?? 'unset'}'`);
  }
}

/** Variables and functions of a list of cel.expr.Decl. */
export function declsFromPb(decls: readonly PbDecl[]): { variables: Map<string, Type>; functions: FunctionDecl[] } {
  const variables = new Map<string, Type>();
  const functions: FunctionDecl[] = [];
  for (const d of decls) {
    if (d.declKind.case === 'ident') variables.set(d.name, typeFromPb(d.declKind.value.type));
    else if (d.declKind.case === 'function') {
      const overloads = d.declKind.value.overloads.map((o): OverloadDecl => {
        const params = o.params.map(typeFromPb);
        const result = typeFromPb(o.resultType);
        const decl: OverloadDecl = { id: o.overloadId, params, result, receiver: o.isInstanceFunction };
        const typeParams = typeParamsIn([...params, result]);
        if (typeParams) decl.typeParams = typeParams;
        return decl;
      });
      functions.push({ name: d.name, overloads });
    }
  }
  return { variables, functions };
}
