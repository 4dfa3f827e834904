// The model of Go's net/url.Parse behind ValidateWebhookURL.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoURL } from './webhookconfig.js';

describe('parseGoURL (net/url.Parse)', () => {
  const cases: [string, ReturnType<typeof parseGoURL>][] = [
    ['https://conv.example.com:8443/convert', { scheme: 'https', user: undefined, host: 'conv.example.com:8443', rawQuery: '', fragment: '' }],
    ['HTTPS://h', { scheme: 'https', user: undefined, host: 'h', rawQuery: '', fragment: '' }],
    ['https://u:p@h/x?a=1#f', { scheme: 'https', user: 'u:p', host: 'h', rawQuery: 'a=1', fragment: 'f' }],
    ['https://[::1]:443/x', { scheme: 'https', user: undefined, host: '[::1]:443', rawQuery: '', fragment: '' }],
    ['https:///path', { scheme: 'https', user: undefined, host: '', rawQuery: '', fragment: '' }],
    ['mailto:x@y', { scheme: 'mailto', host: '', rawQuery: '', fragment: '' }],
    ['relative/path', { scheme: '', host: '', rawQuery: '', fragment: '' }],
    ['://x', { error: 'parse "://x": missing protocol scheme' }],
    ['https://h:abc/', { error: 'parse "https://h:abc/": invalid port ":abc" after host' }],
    ['https://[::1/', { error: `parse "https://[::1/": missing ']' in host` }],
    ['a:b/c', { scheme: 'a', host: '', rawQuery: '', fragment: '' }],
    ['1a:b', { error: 'parse "1a:b": first path segment in URL cannot contain colon' }],
    ['https://h/\u0007', { error: 'parse "https://h/\\a": net/url: invalid control character in URL' }],
  ];
  for (const [url, want] of cases) it(JSON.stringify(url), () => assert.deepEqual(parseGoURL(url), want));
});
