import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Library, OverloadImpl } from '../../decls.js';
import { CelError, CelMap, Double, Duration, Timestamp, Uint } from '../../values.js';
import { listsLibrary } from './lists.js';
import { regexLibrary } from './regex.js';
import { urlsLibrary, URLValue } from './urls.js';

/** Calls an overload's implementation by id (receiver first). */
function call(lib: Library, id: string, ...args: unknown[]): unknown {
  const impl: OverloadImpl | undefined = lib.impls.find((i) => i.id === id);
  assert.ok(impl, id);
  if (args.length === 1 && impl.unary) return impl.unary(args[0]);
  if (args.length === 2 && impl.binary) return impl.binary(args[0], args[1]);
  assert.ok(impl.call, id);
  return impl.call(args);
}
const celError = (message: string) => (e: unknown): boolean => {
  assert.ok(e instanceof CelError, String(e));
  assert.equal(e.message, message);
  return true;
};

test('libraries: every declared overload has an implementation and ids are unique', () => {
  for (const lib of [listsLibrary, regexLibrary, urlsLibrary]) {
    const declared = lib.functions.flatMap((f) => f.overloads.map((o) => o.id));
    assert.equal(new Set(declared).size, declared.length, lib.name);
    assert.deepEqual(new Set(lib.impls.map((i) => i.id)), new Set(declared), lib.name);
  }
  const ids = listsLibrary.functions.flatMap((f) => f.overloads.map((o) => o.id));
  for (const id of ['list_int_is_sorted_bool', 'list_bytes_is_sorted_bool', 'list_duration_sum_duration', 'list_timestamp_min_timestamp', 'list_string_max_string', 'list_a_index_of_int', 'list_a_last_index_of_int']) {
    assert.ok(ids.includes(id), id);
  }
  assert.ok(!ids.includes('list_string_sum_string') && !ids.includes('list_bool_sum_bool'));
  assert.equal(ids.length, 8 + 4 + 8 + 8 + 2);
});

test('lists: isSorted, sum, min, max, indexOf, lastIndexOf', () => {
  const L = listsLibrary;
  const ts = (s: number) => new Timestamp(s, 0);
  const d = (n: bigint) => new Duration(n);
  const rows: [string, unknown[], unknown][] = [
    ['list_int_is_sorted_bool', [[1, 2, 2, 3]], true],
    ['list_int_is_sorted_bool', [[1, 3, 2]], false],
    ['list_int_is_sorted_bool', [[]], true],
    ['list_string_is_sorted_bool', [['a', 'b', 'ab']], false],
    ['list_string_is_sorted_bool', [['a', 'ab', 'b']], true],
    ['list_double_is_sorted_bool', [[new Double(1.5), new Double(1)]], false],
    ['list_bool_is_sorted_bool', [[false, true]], true],
    ['list_timestamp_is_sorted_bool', [[ts(1), ts(2)]], true],
    ['list_bytes_is_sorted_bool', [[new Uint8Array([1]), new Uint8Array([0, 9])]], false],
    ['list_int_sum_int', [[1, 2, 3]], 6],
    ['list_int_sum_int', [[]], 0],
    ['list_uint_sum_uint', [[]], new Uint(0)],
    ['list_uint_sum_uint', [[new Uint(2), new Uint(3)]], new Uint(5)],
    ['list_double_sum_double', [[new Double(0.5), new Double(1)]], new Double(1.5)],
    ['list_double_sum_double', [[]], new Double(0)],
    ['list_duration_sum_duration', [[d(1n), d(2n)]], d(3n)],
    ['list_int_sum_int', [[2 ** 53, 2 ** 53]], 2n ** 54n],
    // Without types the first element decides (cel-go's runtime dispatch on a dyn list).
    ['list_int_sum_int', [[new Double(1), new Double(2)]], new Double(3)],
    ['list_int_sum_int', [[new Double(-0)]], new Double(0)],
    ['list_int_sum_int', [[d(1n)]], d(1n)],
    ['list_int_min_int', [[3, 1, 2]], 1],
    ['list_int_max_int', [[3, 1, 2]], 3],
    ['list_string_max_string', [['b', 'c', 'a']], 'c'],
    ['list_duration_min_duration', [[d(5n), d(-5n)]], d(-5n)],
    ['list_timestamp_max_timestamp', [[ts(5), ts(9), ts(1)]], ts(9)],
    ['list_a_index_of_int', [[1, 2, 3, 2], 2], 1],
    ['list_a_last_index_of_int', [[1, 2, 3, 2], 2], 3],
    ['list_a_index_of_int', [[1, 2], 5], -1],
    ['list_a_last_index_of_int', [[], 5], -1],
    ['list_a_index_of_int', [[1, new Double(2)], 2], 1],
    ['list_a_index_of_int', [[{ a: [1] }, { a: [2] }], { a: [2] }], 1],
  ];
  for (const [id, args, want] of rows) assert.deepEqual(call(L, id, ...args), want, `${id}(${JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))})`);
  assert.throws(() => call(L, 'list_int_min_int', []), celError('min called on empty list'));
  assert.throws(() => call(L, 'list_string_max_string', []), celError('max called on empty list'));
  assert.throws(() => call(L, 'list_int_sum_int', [2n ** 63n - 1n, 1]), celError('integer overflow'));
  assert.throws(() => call(L, 'list_uint_sum_uint', [new Uint(2n ** 64n - 1n), new Uint(1)]), celError('unsigned integer overflow'));
  assert.throws(() => call(L, 'list_int_sum_int', [1, 'a']), celError('no such overload'));
  assert.throws(() => call(L, 'list_int_is_sorted_bool', [1, 'a']), celError('no such overload'));
});

test('regex: find and findAll as Go regexp', () => {
  const R = regexLibrary;
  const rows: [string, unknown[], unknown][] = [
    ['string_find_string', ['abc 123 def 456', '[0-9]+'], '123'],
    ['string_find_string', ['abc', 'xyz'], ''],
    ['string_find_string', ['registry.example.com/web:v1.2.3', '[0-9]+\\.[0-9]+\\.[0-9]+'], '1.2.3'],
    ['string_find_string', ['aaa', 'a*?'], ''],
    ['string_find_all_string', ['abc 123 def 456', '[0-9]+'], ['123', '456']],
    ['string_find_all_string', ['tickets ABC-123, DEF-456 and xyz-789', '[A-Za-z]+-[0-9]+'], ['ABC-123', 'DEF-456', 'xyz-789']],
    ['string_find_all_string_int', ['abc 123 def 456', '[0-9]+', 1], ['123']],
    ['string_find_all_string_int', ['abc 123 def 456', '[0-9]+', 0], []],
    ['string_find_all_string_int', ['abc 123 def 456', '[0-9]+', -1], ['123', '456']],
    ['string_find_all_string_int', ['abc 123 def 456', '[0-9]+', 5], ['123', '456']],
    ['string_find_all_string', ['baaab', 'a*'], ['', 'aaa', '']],
    ['string_find_all_string', ['abc', ''], ['', '', '', '']],
    ['string_find_all_string', ['😀x', '.'], ['😀', 'x']],
    ['string_find_all_string', ['😀😀', 'x*'], ['', '', '']],
    ['string_find_all_string', ['a1b2', '^[a-z]'], ['a']],
    ['string_find_all_string', ['', '[0-9]'], []],
  ];
  for (const [id, args, want] of rows) assert.deepEqual(call(R, id, ...args), want, `${id}(${JSON.stringify(args)})`);
  assert.throws(() => call(R, 'string_find_string', 'x', '('), celError('Illegal regex: error parsing regexp: missing closing ): `(`'));
  assert.throws(() => call(R, 'string_find_all_string', 'x', 'a**'), celError('Illegal regex: error parsing regexp: invalid nested repetition operator: `**`'));
  assert.throws(() => call(R, 'string_find_all_string_int', 'x', '[z-a]', 1), celError('Illegal regex: error parsing regexp: invalid character class range: `z-a`'));
});

test('urls: isURL as Go url.ParseRequestURI', () => {
  const rows: [string, boolean][] = [
    ['https://kubernetes.io/docs', true],
    ['https://user:pass@example.com:8443/a?b=c#d', true],
    ['/absolute/path', true],
    ['*', true],
    ['mailto:me@example.com', true],
    ['http://[::1]:80/', true],
    ['', false],
    ['kubernetes.io', false],
    ['relative/path', false],
    ['http://[::1/', false],
    ['http://a b.com/', false],
    ['http://host:port/', false],
    [':missing-scheme', false],
    ['1http://x', false],
    ['https://example.com/%zz', false],
    ['http://exa\u0001mple.com', false],
    ['http://us er@host/', false],
    ['https://example.com/a#frag', true],
    ['https://example.com/a#%zz', false],
    ['https://a:b:c/', false],
    ['../relative-path', false],
  ];
  for (const [s, want] of rows) assert.equal(call(urlsLibrary, 'is_url_string', s), want, s);
});

test('urls: url() and its accessors', () => {
  const U = urlsLibrary;
  const u = (s: string) => call(U, 'string_to_url', s) as URLValue;
  const get = (s: string) => {
    const v = u(s);
    assert.equal(v.celTypeName, 'kubernetes.URL');
    const q = call(U, 'url_get_query', v) as CelMap;
    return {
      scheme: call(U, 'url_get_scheme', v),
      host: call(U, 'url_get_host', v),
      hostname: call(U, 'url_get_hostname', v),
      port: call(U, 'url_get_port', v),
      path: call(U, 'url_get_escaped_path', v),
      query: Object.fromEntries([...q.entries.values()].map(([k, val]) => [k, val])),
    };
  };
  assert.deepEqual(get('https://user:pass@example.com:8443/a%20b/c?x=1&y=2&x=3#frag'), {
    scheme: 'https', host: 'example.com:8443', hostname: 'example.com', port: '8443', path: '/a%20b/c', query: { x: ['1', '3'], y: ['2'] },
  });
  assert.deepEqual(get('https://api.example.com:8443/v1/hooks?token=abc&retry=3'), {
    scheme: 'https', host: 'api.example.com:8443', hostname: 'api.example.com', port: '8443', path: '/v1/hooks', query: { token: ['abc'], retry: ['3'] },
  });
  assert.deepEqual(get('HTTPS://Example.com'), { scheme: 'https', host: 'Example.com', hostname: 'Example.com', port: '', path: '', query: {} });
  assert.deepEqual(get('https://[::1]:80/'), { scheme: 'https', host: '[::1]:80', hostname: '::1', port: '80', path: '/', query: {} });
  assert.deepEqual(get('/a/b'), { scheme: '', host: '', hostname: '', port: '', path: '/a/b', query: {} });
  assert.equal(get('https://example.com/a%2fb').path, '/a%2fb', 'a valid raw path is kept');
  assert.equal(get('https://example.com/a%2Fb%41').path, '/a%2Fb%41');
  assert.equal(get('https://example.com/ä b').path, '/%C3%A4%20b', 'the default escaping otherwise');
  assert.equal(get('https://example.com/%ff').path, '/%ff');
  assert.equal(get('https://example.com/x:y@z;a,b=c').path, '/x:y@z;a,b=c');
  assert.equal(get('https://example.com:/').port, '');
  assert.equal(get('https://example.com/a#frag').path, '/a', 'the fragment is not part of the path');
  assert.deepEqual(get('https://example.com/path?').query, {});
  assert.deepEqual(get('https://example.com?a=1;b=2&c=3').query, { c: ['3'] });
  assert.deepEqual(get('https://example.com?a+b=c%20d&e&=f&g=%zz').query, { 'a b': ['c d'], e: [''], '': ['f'] });
  assert.deepEqual(get('mailto:me@example.com'), { scheme: 'mailto', host: '', hostname: '', port: '', path: '', query: {} });
  const errors: [string, string][] = [
    ['foo', 'parse "foo": invalid URI for request'],
    ['', 'parse "": empty url'],
    [':foo', 'parse ":foo": missing protocol scheme'],
    ['http://a b', 'parse "http://a b": invalid character " " in host name'],
    ['http://host:port/', 'parse "http://host:port/": invalid port ":port" after host'],
    ['http://[::1/', `parse "http://[::1/": missing ']' in host`],
    ['https://example.com/%zz', 'parse "https://example.com/%zz": invalid URL escape "%zz"'],
    ['https://example.com/%z', 'parse "https://example.com/%z": invalid URL escape "%z"'],
    ['http://%41.com/', 'parse "http://%41.com/": invalid URL escape "%41"'],
    ['http://ex\u0001', 'parse "http://ex\\x01": net/url: invalid control character in URL'],
    ['http://a\tb', 'parse "http://a\\tb": net/url: invalid control character in URL'],
    ['http://us er@host/', 'parse "http://us er@host/": net/url: invalid userinfo'],
  ];
  for (const [s, msg] of errors) {
    assert.throws(() => u(s), celError(`URL parse error during conversion from string: ${msg}`), s);
  }
  assert.throws(() => call(U, 'url_get_host', 'https://x'), celError('no such overload'));
  // URL values compare by their Go String() form.
  assert.equal(u('https://example.com/a%20b?x=1#f').toString(), 'https://example.com/a%20b?x=1#f');
  assert.ok(u('HTTPS://example.com/').equals(u('https://example.com/')));
  assert.ok(!u('https://example.com/a').equals(u('https://example.com/b')));
});
