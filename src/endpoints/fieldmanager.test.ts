import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../api/meta/index.js';
import { decodeApply, fieldManagerOf, managerFromUserAgent } from './fieldmanager.js';

describe('fieldmanager: the manager of a write', () => {
  const agents: [string | undefined, string][] = [
    ['kubectl.1.27/v1.27.16 (linux/amd64) kubernetes/cbb86e0', 'kubectl.1.27'],
    ['OpenAPI-Generator/22.6.0/python', 'OpenAPI-Generator'],
    ['node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', 'node-fetch'],
    ['tab\there/1', 'tabhere'],
    [undefined, ''],
    ['x'.repeat(200), 'x'.repeat(128)],
  ];
  for (const [ua, want] of agents) it(`User-Agent ${JSON.stringify(ua?.slice(0, 40))} → ${JSON.stringify(want.slice(0, 20))}`, () => assert.equal(managerFromUserAgent(ua), want));

  const q = (s: string) => new URLSearchParams(s);
  it('fieldManager wins over the User-Agent', () => assert.equal(fieldManagerOf(q('fieldManager=me'), 'kubectl/1', 'CreateOptions'), 'me'));
  const rejects: [string, 'CreateOptions' | 'PatchOptions', boolean, string][] = [
    ['', 'PatchOptions', true, 'PatchOptions.meta.svc.io "" is invalid: fieldManager: Required value: is required for apply patch'],
    ['force=true', 'PatchOptions', false, 'PatchOptions.meta.svc.io "" is invalid: force: Forbidden: may not be specified for non-apply patch'],
    [`fieldManager=${'m'.repeat(129)}`, 'CreateOptions', false, 'CreateOptions.meta.svc.io "" is invalid: fieldManager: Too long: must have at most 128 bytes'],
    ['fieldManager=a%09b', 'CreateOptions', false, 'CreateOptions.meta.svc.io "" is invalid: fieldManager: Invalid value: "a\\tb": invalid character U+0009 (at position 1)'],
  ];
  for (const [query, kind, apply, message] of rejects) {
    it(`rejects ${query || '(no fieldManager)'} on ${kind}${apply ? ' (apply)' : ''}`, () => {
      assert.throws(() => fieldManagerOf(q(query), 'ua/1', kind, apply), (e: unknown) => isStatusError(e) && e.status.code === 422 && e.status.message === message);
    });
  }
});

describe('fieldmanager: apply bodies', () => {
  const q = new URLSearchParams('force=true');
  it('JSON and YAML bodies decode to the same configuration', () => {
    const a = decodeApply('{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"}}', q, 'Strict');
    const b = decodeApply('apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "1"\n', q, 'Strict');
    assert.deepEqual(a.config, b.config);
    assert.equal(a.force, true);
  });
  it('duplicate keys: Strict 400, Warn a warning (the last value wins), Ignore nothing', () => {
    for (const body of ['{"data":{"a":"1","a":"2"}}', 'data:\n  a: "1"\n  a: "2"\n']) {
      assert.throws(() => decodeApply(body, new URLSearchParams(), 'Strict'), (e: unknown) => isStatusError(e) && e.status.code === 400 && /^error strict decoding YAML: /.test(e.status.message ?? ''));
      const warn = decodeApply(body, new URLSearchParams(), 'Warn');
      assert.equal(warn.warnings.length, 1);
      assert.deepEqual(warn.config, { data: { a: '2' } });
      assert.deepEqual(decodeApply(body, new URLSearchParams(), 'Ignore').warnings, []);
    }
  });
  it('a body that is not an object is a 400', () => {
    for (const body of ['[1,2]', '- a\n- b\n', '"text"', 'a: [']) {
      assert.throws(() => decodeApply(body, new URLSearchParams(), 'Warn'), (e: unknown) => isStatusError(e) && e.status.code === 400, body);
    }
  });
  it('an empty body is an empty configuration', () => assert.deepEqual(decodeApply('', new URLSearchParams(), 'Warn').config, {}));
});
