import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineReader, readEventBytes, type EventFields } from './eventlines.js';

const line = (type: string, rv: string, seq: string) => `{"type":"${type}","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"${rv}","name":"cm-${seq}","managedFields":[{"resourceVersion":"1"}]},"data":{"seq":"${seq}","pad":"ppp"}}}`;

describe('readEventBytes', () => {
  const cases: { name: string; text: string; want: EventFields }[] = [
    { name: 'an ADDED event', text: line('ADDED', '1234', '56'), want: { type: 'ADDED', resourceVersion: 1234, seq: 56 } },
    { name: 'a MODIFIED event keeps its type', text: line('MODIFIED', '7', '0'), want: { type: 'MODIFIED', resourceVersion: 7, seq: 0 } },
    { name: 'a BOOKMARK has no seq', text: '{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"9"}}}', want: { type: 'BOOKMARK', resourceVersion: 0, seq: 0 } },
    { name: 'an ADDED event without seq is unparsed', text: '{"type":"ADDED","object":{"metadata":{"resourceVersion":"9"}}}', want: { type: 'unparsed', resourceVersion: 0, seq: 0 } },
    { name: 'an empty number is unparsed', text: line('ADDED', '', '3'), want: { type: 'unparsed', resourceVersion: 0, seq: 0 } },
    { name: 'not an event', text: '{"kind":"Status"}', want: { type: 'unparsed', resourceVersion: 0, seq: 0 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const b = Buffer.from(`xx${c.text}\n${line('ADDED', '99', '98')}`);
      assert.deepEqual(readEventBytes(b, 2, 2 + c.text.length), c.want, 'fields are read within the line only');
    });
  }
});

describe('LineReader', () => {
  const text = [line('ADDED', '1', '0'), line('ADDED', '2', '1'), '', line('DELETED', '3', '1')].join('\n') + '\n';
  for (const size of [1, 7, 64, text.length]) {
    it(`joins lines cut across chunks of ${size} bytes and skips empty ones`, () => {
      const got: string[] = [];
      const r = new LineReader((b, start, end) => got.push(b.toString('utf8', start, end)));
      const all = Buffer.from(text);
      for (let i = 0; i < all.length; i += size) r.push(all.subarray(i, i + size));
      assert.deepEqual(got, text.split('\n').filter(Boolean));
    });
  }
});
