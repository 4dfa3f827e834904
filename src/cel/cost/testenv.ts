// Test helper for the cost module: the whole pipeline over real
// components — parse (parser), check (checker) against the standard
// library, the strings extension and the Kubernetes lists/regex/urls
// libraries, estimate (estimate.ts), plan and evaluate with cost tracking
// (interpreter calling runtime.ts). Used by *.test.ts beside it only.

import assert from 'node:assert/strict';
import type { Library, OverloadImpl } from '../decls.js';
import type { Type } from '../types.js';
import { parse } from '../parser/index.js';
import { buildCheckEnv, check, type CheckEnv, type CheckedExpr } from '../checker/index.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { standardImpls } from '../stdlib/impls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { stringsImpls } from '../ext/strings_impls.js';
import { listsLibrary } from '../k8s/lib/lists.js';
import { regexLibrary } from '../k8s/lib/regex.js';
import { urlsLibrary } from '../k8s/lib/urls.js';
import { plan } from '../interpreter/planner.js';
import { Program, type Activation } from '../interpreter/program.js';
import { callCostsOf, type CallCosts } from '../interpreter/cost.js';
import { CelError } from '../values.js';
import type { CostModel } from './constants.js';

const libraries: Library[] = [
  { name: 'std', functions: stdlibFunctions, impls: standardImpls, variables: stdlibTypeIdents },
  { name: 'strings', functions: stringsFunctions, impls: stringsImpls },
  listsLibrary,
  regexLibrary,
  urlsLibrary,
];
const impls = new Map(libraries.flatMap((l) => l.impls).map((i) => [i.id, i]));

export interface Compiled {
  checked: CheckedExpr;
  env: CheckEnv;
  impls: ReadonlyMap<string, OverloadImpl>;
}

export function compile(text: string, vars: Record<string, Type> = {}, extra: readonly Library[] = []): Compiled {
  const p = parse(text);
  assert.ok(p.parsed, `parse ${text}: ${p.issues.map((i) => i.message).join('; ')}`);
  const env = buildCheckEnv({ libraries: extra.length === 0 ? libraries : [...libraries, ...extra], variables: vars });
  const r = check(p.parsed, env);
  assert.ok(r.checked, `check ${text}: ${r.issues.map((i) => i.message).join('; ')}`);
  const all = extra.length === 0 ? impls : new Map([...impls, ...extra.flatMap((l) => l.impls).map((i) => [i.id, i] as const)]);
  return { checked: r.checked, env, impls: all };
}

/** Evaluates with cost tracking; returns the value and the actual cost. */
export function evalCost(
  c: Compiled,
  activation: Activation,
  model: CostModel | CallCosts = 'kubernetes',
  costLimit?: number,
): { value: unknown; cost: number } {
  const pl = plan(
    { expr: c.checked.expr, types: c.checked.types, refs: c.checked.refs },
    { functions: c.env.functions, impls: c.impls, variables: c.env.variables },
    { cost: typeof model === 'string' ? callCostsOf(model) : model },
  );
  const prg = new Program(pl, costLimit);
  return prg.evalWithCost(activation);
}

/** Evaluates with cost tracking, also when evaluation fails: the cost
 * spent, and the error message if any. */
export function evalCostOrError(
  c: Compiled,
  activation: Activation,
  model: CostModel = 'kubernetes',
  optimize = false,
): { cost: number; error?: string } {
  const pl = plan(
    { expr: c.checked.expr, types: c.checked.types, refs: c.checked.refs },
    { functions: c.env.functions, impls: c.impls, variables: c.env.variables },
    { cost: callCostsOf(model), optimize },
  );
  const prg = new Program(pl);
  try {
    prg.eval(activation);
    return { cost: prg.actualCost };
  } catch (e) {
    if (e instanceof CelError) return { cost: prg.actualCost, error: e.message };
    throw e;
  }
}
