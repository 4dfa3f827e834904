// matchConditions as kube's matchconditions.Matcher decides them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchConditionMatcher, type MatchResult } from './matcher.js';
import { TestEngine } from './testengine.js';
import { OUT_OF_BUDGET } from './filter.js';
import { RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS } from './limits.js';

const engine = new TestEngine({
  'true': { type: 'bool', fn: () => true },
  'false': { type: 'bool', fn: () => false },
  'boom': { type: 'bool', fn: () => { throw 'no such key: boom'; } },
  'bang': { type: 'bool', fn: () => { throw 'no such key: bang'; } },
  'name': { type: 'string', fn: () => 'x' },
  'dyn': { type: 'dyn', fn: () => true },
  'pricey': { type: 'bool', fn: () => true, cost: RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS / 2 + 1 },
  'is-create': { type: 'bool', fn: (v) => (v.request as { operation: string }).operation === 'CREATE' },
});
const vars = { object: null, oldObject: null, params: null, request: { operation: 'CREATE' } };
const conds = (...exprs: string[]) => exprs.map((expression, i) => ({ name: `c${i}`, expression }));

const rows: [name: string, exprs: string[], policy: 'Fail' | 'Ignore', want: MatchResult][] = [
  ['all true', ['true', 'is-create'], 'Fail', { matches: true }],
  ['the first false one names the condition', ['true', 'false', 'false'], 'Fail', { matches: false, failedCondition: 'c1' }],
  ['a false one wins over an earlier error', ['boom', 'false'], 'Fail', { matches: false, failedCondition: 'c1' }],
  ['one error under Fail', ['true', 'boom'], 'Fail', { error: "expression 'boom' resulted in error: no such key: boom" }],
  ['errors aggregated as Go prints them', ['boom', 'bang'], 'Fail', { error: "[expression 'boom' resulted in error: no such key: boom, expression 'bang' resulted in error: no such key: bang]" }],
  ['an error under Ignore: no match', ['boom'], 'Ignore', { matches: false }],
  ['a compile error', ['nope'], 'Fail', { error: "compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope'\n | nope\n | ^" }],
  ['a non-bool result type', ['name'], 'Fail', { error: 'compilation error: must evaluate to bool' }],
  ['a dyn result type', ['dyn'], 'Fail', { error: 'compilation error: must evaluate to bool' }],
  ['the shared budget runs out under Fail', ['pricey', 'pricey'], 'Fail', { error: OUT_OF_BUDGET }],
  ['the shared budget runs out under Ignore', ['pricey', 'pricey'], 'Ignore', { matches: false }],
];

describe('matchConditions matcher', () => {
  for (const [name, exprs, policy, want] of rows) {
    it(name, () => {
      const m = new MatchConditionMatcher(engine, conds(...exprs), policy, { hasParams: false, hasAuthorizer: true });
      assert.deepEqual(m.match(vars), want);
    });
  }
  it('compiles once, with the authorizer and the given params declaration', () => {
    const e = new TestEngine({ 'true': { type: 'bool', fn: () => true } });
    const m = new MatchConditionMatcher(e, conds('true'), 'Fail', { hasParams: true, hasAuthorizer: true });
    m.match(vars);
    m.match(vars);
    assert.deepEqual(e.compiled, [{ expression: 'true', hasParams: true, hasAuthorizer: true }]);
  });
});
