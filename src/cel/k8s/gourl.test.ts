import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapedPath, hostname, parse, parseRequestURI, port, query, toString, type GoURL } from './gourl.js';

// Go's net/url tests (url_test.go parseRequestURLTests, urltests) as data.
test('parseRequestURI: Go parseRequestURLTests', () => {
  const rows: [string, boolean][] = [
    ['http://foo.com', true], ['http://foo.com/', true], ['http://foo.com/path', true], ['/', true],
    ['//not.a.user@not.a.host/just/a/path', true], ['//not.a.user@%66%6f%6f.com/just/a/path/also', true], ['*', true],
    ['http://192.168.0.1/', true], ['http://192.168.0.1:8080/', true], ['http://[fe80::1]/', true], ['http://[fe80::1]:8080/', true],
    ['http://[fe80::1%25en0]/', true], ['http://[fe80::1%25en0]:8080/', true],
    ['http://[fe80::1%25%65%6e%301-._~]/', true], ['http://[fe80::1%25%65%6e%301-._~]:8080/', true],
    ['foo.html', false], ['../dir/', false], [' http://foo.com', false],
    ['http://192.168.0.%31/', false], ['http://192.168.0.%31:8080/', false], ['http://[fe80::%31]/', false], ['http://[fe80::%31]:8080/', false],
    ['http://[fe80::%31%25en0]/', false], ['http://[fe80::%31%25en0]:8080/', false],
    ['http://[fe80::1%en0]/', false], ['http://[fe80::1%en0]:8080/', false],
  ];
  for (const [s, valid] of rows) assert.equal(typeof parseRequestURI(s) !== 'string', valid, s);
  const u = parseRequestURI('//not.a.user@not.a.host/just/a/path') as GoURL;
  assert.equal(new TextDecoder().decode(u.path), '//not.a.user@not.a.host/just/a/path');
  assert.equal(u.host, '');
});

test('parse: Go urltests (host, escaped path, query, String round trip)', () => {
  const rows: [input: string, host: string, path: string, rawQuery: string, roundtrip?: string][] = [
    ['http://www.google.com', 'www.google.com', '', ''],
    ['http://www.google.com/file%20one%26two', 'www.google.com', '/file%20one%26two', ''],
    ['http://www.google.com/#file%20one%26two', 'www.google.com', '/', ''],
    ['ftp://john%20doe@www.google.com/', 'www.google.com', '/', ''],
    ['http://www.google.com/?', 'www.google.com', '/', ''],
    ['http://www.google.com/?foo=bar?', 'www.google.com', '/', 'foo=bar?'],
    ['http://www.google.com/a%20b?q=c+d', 'www.google.com', '/a%20b', 'q=c+d'],
    ['http:www.google.com/?q=go+language', '', '', 'q=go+language'],
    ['mailto:/webmaster@golang.org', '', '/webmaster@golang.org', ''],
    ['/foo?query=http://bad', '', '/foo', 'query=http://bad'],
    ['//foo', 'foo', '', ''],
    ['//user@foo/path?a=b', 'foo', '/path', 'a=b'],
    ['///threeslashes', '', '///threeslashes', ''],
    ['http://j@ne:password@google.com', 'google.com', '', '', 'http://j%40ne:password@google.com'],
    ['http://jane:p@ssword@google.com', 'google.com', '', '', 'http://jane:p%40ssword@google.com'],
    ['http://www.google.com/?q=go+language#foo%26bar', 'www.google.com', '/', 'q=go+language'],
    ['file:///C:/FooBar/Baz.txt', '', '/C:/FooBar/Baz.txt', ''],
    ['MaIlTo:webmaster@golang.org', '', '', '', 'mailto:webmaster@golang.org'],
    ['a/b/c', '', 'a/b/c', ''],
    ['http://%3Fam:pa%3Fsword@google.com', 'google.com', '', ''],
    ['http://[fe80::1%25en0]:8080/', '[fe80::1%en0]:8080', '/', ''],
    ['http://[fe80::1%25%65%6e%301-._~]/', '[fe80::1%en01-._~]', '/', '', 'http://[fe80::1%25en01-._~]/'],
    ['http://rest.rsc.io/foo%2fbar/baz%2Fquux?alt=media', 'rest.rsc.io', '/foo%2fbar/baz%2Fquux', 'alt=media'],
    ['mysql://a,b,c/bar', 'a,b,c', '/bar', ''],
    ["scheme://!$&'()*+,;=hello!:1/path", "!$&'()*+,;=hello!:1", '/path', ''],
    ["http://host/!$&'()*+,;=:@[hello]", 'host', "/!$&'()*+,;=:@[hello]", ''],
    ['http://example.com/oid/[order_id]', 'example.com', '/oid/[order_id]', ''],
    ['http://192.168.0.2:/foo', '192.168.0.2:', '/foo', ''],
    ['http://2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080/foo', '2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080', '/foo', ''],
    ['http://hello.世界.com/foo', 'hello.世界.com', '/foo', '', 'http://hello.%E4%B8%96%E7%95%8C.com/foo'],
    ['http://hello.%e4%b8%96%e7%95%8c.com/foo', 'hello.世界.com', '/foo', '', 'http://hello.%E4%B8%96%E7%95%8C.com/foo'],
    ['http://example.com//foo', 'example.com', '//foo', ''],
    ['myscheme://authority<"hi">/foo', 'authority<"hi">', '/foo', ''],
    ['tcp://[2020::2020:20:2020:2020%25Windows%20Loves%20Spaces]:2020', '[2020::2020:20:2020:2020%Windows Loves Spaces]:2020', '', ''],
    ['magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn', '', '', 'xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn'],
  ];
  for (const [input, host, path, rawQuery, roundtrip] of rows) {
    const u = parse(input);
    assert.notEqual(typeof u, 'string', `${input}: ${String(u)}`);
    const g = u as GoURL;
    assert.deepEqual([g.host, escapedPath(g), g.rawQuery, toString(g)], [host, path, rawQuery, roundtrip ?? input], input);
  }
  const v6 = parse('http://[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:8080/foo') as GoURL;
  assert.deepEqual([hostname(v6), port(v6)], ['2b01:e34:ef40:7730:8e70:5aff:fefe:edac', '8080']);
  const odd = parse('http://2b01:e34:ef40:7730:8e70:5aff:fefe:edac:/foo') as GoURL;
  assert.deepEqual([hostname(odd), port(odd)], ['2b01:e34:ef40:7730:8e70:5aff:fefe:edac', '']);
  assert.deepEqual([...query(parse('http://x/?q=go+language&q=%26&e=') as GoURL)], [['q', ['go language', '&']], ['e', ['']]]);
});
