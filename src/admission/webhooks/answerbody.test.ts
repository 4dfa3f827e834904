import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerDecodeError, decodeAnswerBody } from './answerbody.js';

const FIND_KIND = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

describe('a webhook answer body decoded as kube decodes it', () => {
  const decoded: Array<[string, string, unknown]> = [
    ['JSON', '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u","allowed":true}}', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } }],
    ['JSON after white space', ' \n{"response":{"allowed":false}}', { response: { allowed: false } }],
    ['YAML (the universal deserializer tries it for anything not starting with {)', 'apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nresponse: {uid: u, allowed: true}\n', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } }],
    ['YAML null', 'null', null],
  ];
  for (const [name, body, want] of decoded) {
    it(`decodes ${name}`, () => assert.deepEqual(decodeAnswerBody(Buffer.from(body), 200, 'application/json'), want));
  }

  const refused: Array<[string, string, string | undefined, string]> = [
    ['an empty body', '', 'application/json', '0-length response with status code: 200 and content type: application/json'],
    ['an empty body without a content type', '', undefined, '0-length response with status code: 200 and content type: application/json'],
    ['broken JSON', '{"response": {', 'application/json', "couldn't get version/kind; json parse error: unexpected end of JSON input"],
    ['JSON with a bad character', '{"response" 1}', 'application/json', "couldn't get version/kind; json parse error: invalid character '1' after object key"],
    ['plain text (a YAML string)', 'this is not json', 'application/json', `couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${FIND_KIND}`],
    ['a JSON array', '[1, 2]', 'application/json', `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${FIND_KIND}`],
    ['a number', '42', 'text/plain', `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go value of type ${FIND_KIND}`],
    ['a boolean', 'true', 'text/plain', `couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go value of type ${FIND_KIND}`],
  ];
  for (const [name, body, contentType, message] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(() => decodeAnswerBody(Buffer.from(body), 200, contentType), (err: unknown) => err instanceof AnswerDecodeError && err.message === message);
    });
  }
  it('refuses YAML that does not parse, as a YAML conversion error', () => {
    assert.throws(() => decodeAnswerBody(Buffer.from('a: [unclosed'), 200, 'application/json'), (err: unknown) => err instanceof AnswerDecodeError && err.message.startsWith('error converting YAML to JSON: yaml: '));
  });
});
