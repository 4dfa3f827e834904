// Every row of the spec's list and get resourceVersion tables, and the invalid combinations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeContinue, planGet, planList, planWatch } from './listoptions.js';
import { isStatusError } from '../api/meta/index.js';

const P = '/registry/configmaps/ns/';
const tok = encodeContinue(7, `${P}b`, P);
const plan = (q: string) => planList(new URLSearchParams(q), P);

describe('list read plans', () => {
  const rows: [string, string, number | undefined, number][] = [
    // query, mode, revision, limit
    ['', 'mostRecent', undefined, 0],
    ['resourceVersion=0', 'any', undefined, 0],
    ['resourceVersion=5', 'notOlderThan', 5, 0],
    ['limit=2', 'mostRecent', undefined, 2],
    ['limit=2&resourceVersion=0', 'any', undefined, 2],
    ['limit=2&resourceVersion=5', 'exact', 5, 2],
    [`limit=2&continue=${tok}`, 'exact', 7, 2],
    [`limit=2&continue=${tok}&resourceVersion=0`, 'exact', 7, 2],
    ['resourceVersion=5&resourceVersionMatch=Exact', 'exact', 5, 0],
    ['resourceVersion=5&resourceVersionMatch=Exact&limit=3', 'exact', 5, 3],
    ['resourceVersion=0&resourceVersionMatch=NotOlderThan', 'any', undefined, 0],
    ['resourceVersion=5&resourceVersionMatch=NotOlderThan', 'notOlderThan', 5, 0],
    ['resourceVersion=5&resourceVersionMatch=NotOlderThan&limit=1', 'notOlderThan', 5, 1],
    ['limit=-1', 'mostRecent', undefined, 0],
  ];
  for (const [q, mode, rev, limit] of rows) {
    it(q || '(nothing)', () => {
      const p = plan(q);
      assert.equal(p.mode.kind, mode);
      assert.equal('revision' in p.mode ? p.mode.revision : undefined, rev);
      assert.equal(p.limit, limit);
    });
  }
  it('a continue token resumes after its key', () => assert.equal(plan(`continue=${tok}`).startAfter, `${P}b`));

  const errors: [string, number, string][] = [
    [`limit=2&continue=${tok}&resourceVersion=5`, 400, 'specifying resource version is not allowed when using continue'],
    [`limit=2&continue=${tok}&resourceVersionMatch=Exact`, 422, 'ListOptions.meta.svc.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided]'],
    ['resourceVersionMatch=NotOlderThan', 422, 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersion=0&resourceVersionMatch=Exact', 422, 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['resourceVersion=4&resourceVersionMatch=Sometimes', 422, 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Unsupported value: "Sometimes": supported values: "Exact", "NotOlderThan", ""'],
    ['resourceVersion=abc', 400, 'resourceVersion: Invalid value: "abc": must be a resourceVersion returned by this server'],
    ['continue=bm90IGpzb24', 400, "invalid continue token: continue key is not valid: invalid character 'o' in literal null (expecting 'u')"],
    ['continue=bm90*', 400, 'invalid continue token: continue key is not valid: illegal base64 data at input byte 4'],
    // Go reads bytes: 0x9e, not valid UTF-8, is named by its code (golden list-06-rv-invalid/bad-continue).
    ['continue=not-a-token', 400, "invalid continue token: continue key is not valid: invalid character '\\u009e' looking for beginning of value"],
    ['limit=x', 400, 'limit: Invalid value: "x": must be an integer'],
  ];
  for (const [q, code, msg] of errors) {
    it(`${code}: ${q}`, () => assert.throws(() => plan(q), (e: unknown) => isStatusError(e) && e.status.code === code && e.status.message!.startsWith(msg)));
  }
});

describe('get read plans', () => {
  it('unset, 0 and a revision', () => {
    assert.deepEqual(planGet(new URLSearchParams('')), { kind: 'mostRecent' });
    assert.deepEqual(planGet(new URLSearchParams('resourceVersion=0')), { kind: 'any' });
    assert.deepEqual(planGet(new URLSearchParams('resourceVersion=9')), { kind: 'notOlderThan', revision: 9 });
  });
});

describe('watch plans', () => {
  const w = (q: string, gate = true) => planWatch(new URLSearchParams(q), gate);
  const rows: [string, unknown][] = [
    ['', { start: 'state', mode: { kind: 'mostRecent' }, initialEventsEnd: false }],
    ['resourceVersion=0', { start: 'state', mode: { kind: 'any' }, initialEventsEnd: false }],
    ['resourceVersion=7', { start: 'after', revision: 7 }],
    ['sendInitialEvents=true&resourceVersionMatch=NotOlderThan', { start: 'state', mode: { kind: 'mostRecent' }, initialEventsEnd: true }],
    ['sendInitialEvents=1&resourceVersionMatch=NotOlderThan&resourceVersion=0', { start: 'state', mode: { kind: 'any' }, initialEventsEnd: true }],
    ['sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=9', { start: 'state', mode: { kind: 'notOlderThan', revision: 9 }, initialEventsEnd: true }],
    ['sendInitialEvents=false&resourceVersionMatch=NotOlderThan', { start: 'after', revision: 'now' }],
    ['sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=0', { start: 'after', revision: 'now' }],
    ['sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=4', { start: 'after', revision: 4 }],
  ];
  for (const [q, want] of rows) it(q || '(nothing)', () => assert.deepEqual(w(q), want));

  const invalid: [string, boolean, string[]][] = [
    ['sendInitialEvents=true&resourceVersionMatch=NotOlderThan', false, ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled']],
    ['resourceVersionMatch=NotOlderThan&resourceVersion=3', true, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided']],
    ['sendInitialEvents=true', true, ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']],
    ['sendInitialEvents=true', false, ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled']],
    ['sendInitialEvents=true&resourceVersionMatch=Exact', true, ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"']],
    ['sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=abc', true, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']],
  ];
  for (const [q, gate, causes] of invalid) {
    it(`422 for ${q}${gate ? '' : ' (gate off)'}`, () =>
      assert.throws(() => w(q, gate), (err: unknown) => {
        assert.ok(isStatusError(err));
        assert.equal(err.status.code, 422);
        assert.deepEqual(err.status.details?.causes?.map((c) => `${c.field}: ${c.message}`), causes);
        return true;
      }));
  }

  it('sendInitialEvents on a list is 422', () =>
    assert.throws(() => planList(new URLSearchParams('sendInitialEvents=true'), '/registry/x/'), (err: unknown) => isStatusError(err) && err.status.code === 422 && /sendInitialEvents is forbidden for list/.test(err.status.message ?? '')));
  it('a malformed sendInitialEvents is 400', () =>
    assert.throws(() => w('sendInitialEvents=maybe&resourceVersionMatch=NotOlderThan'), (err: unknown) => isStatusError(err) && err.status.code === 400));
});
