// Embedded resources (objectmeta.Validate): kube's validation_test cases with
// the full messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../api/meta/govalue.js';
import type { Schema } from '../../schema/model.js';
import { groupVersionError, validateEmbedded } from './embedded.js';

const EMBEDDED: Schema = { type: 'object', 'x-kubernetes-embedded-resource': true };
const causes = (s: Schema | undefined, o: unknown, root = false) => validateEmbedded(s, o, { root }).map(renderCause);

const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('validateEmbedded: one embedded resource', () => {
  const schema: Schema = { type: 'object', properties: { e: EMBEDDED } };
  const rows: [string, unknown, string[]][] = [
    ['empty', {}, ['e.apiVersion: Required value: must not be empty', 'e.kind: Required value: must not be empty']],
    ['version and kind', { apiVersion: 'foo/v1', kind: 'Foo' }, []],
    ['a core version', { apiVersion: 'v1', kind: 'Pod' }, []],
    ['invalid kind', { apiVersion: 'foo/v1', kind: 'foo.bar-com' }, [`e.kind: Invalid value: "foo.bar-com": may have mixed case, but should otherwise match: ${DNS1035}`]],
    ['empty strings', { apiVersion: '', kind: '' }, ['e.apiVersion: Invalid value: "": must not be empty', 'e.kind: Invalid value: "": must not be empty']],
    ['not strings', { apiVersion: 1, kind: null }, ['e.apiVersion: Invalid value: 1: must be a string', 'e.kind: Invalid value: "null": must be a string']],
    ['bad group version', { apiVersion: 'a/b/c', kind: 'Foo' }, ['e.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']],
    ['no name, a namespace', { apiVersion: 'foo/v1', kind: 'Foo', metadata: { namespace: 'kube-system' } }, []],
    ['a name, no namespace', { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo' } }, []],
    ['invalid metadata', { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: '..', namespace: '$$$', labels: { '#': '#' }, annotations: { '#': '#' } } }, [
      "e.metadata.name: Invalid value: \"..\": may not be '..'",
      'e.metadata.namespace: Invalid value: "$$$": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'e.metadata.labels: Invalid value: "#": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'e.metadata.labels: Invalid value: "#": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
      'e.metadata.annotations: Invalid value: "#": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    ]],
    ['a name with a slash (path segment names)', { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'a/b', generateName: 'x%' } }, [
      "e.metadata.generateName: Invalid value: \"x%\": may not contain '%'",
      "e.metadata.name: Invalid value: \"a/b\": may not contain '/'",
    ]],
    ['metadata of the wrong type', { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 5 } }, [
      'e.metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
    ]],
    ['metadata not an object', { apiVersion: 'foo/v1', kind: 'Foo', metadata: 'x' }, ['e.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta']],
  ];
  for (const [name, e, want] of rows) it(name, () => assert.deepEqual(causes(schema, { e }), want));
});

describe('validateEmbedded: where embedded resources are found', () => {
  const rows: [string, Schema | undefined, unknown, boolean, string[]][] = [
    ['the root is not checked unless asked', { type: 'object' }, {}, false, []],
    ['the root when asked', { type: 'object' }, {}, true, ['apiVersion: Required value: must not be empty', 'kind: Required value: must not be empty']],
    ['the root without a schema', undefined, { apiVersion: 'v1', kind: 'X', metadata: { labels: { a: '#' } } }, true, [
      'metadata.labels: Invalid value: "#": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
    ]],
    ['nested under an embedded one', { type: 'object', properties: { n: { ...EMBEDDED, properties: { spec: { type: 'object', properties: { e: EMBEDDED } } } } } },
      { n: { spec: { e: {} } } }, false,
      ['n.apiVersion: Required value: must not be empty', 'n.kind: Required value: must not be empty', 'n.spec.e.apiVersion: Required value: must not be empty', 'n.spec.e.kind: Required value: must not be empty']],
    ['in list items and map values', { type: 'object', properties: { l: { type: 'array', items: EMBEDDED }, m: { type: 'object', additionalProperties: EMBEDDED } } },
      { l: [{ apiVersion: 'v1', kind: 'A' }, { apiVersion: 'v1' }], m: { k: { kind: 'B' } } }, false,
      ['l[1].kind: Required value: must not be empty', 'm[k].apiVersion: Required value: must not be empty']],
    ['a value that is not an object is the schema walk\'s business', { type: 'object', properties: { e: EMBEDDED } }, { e: 'x' }, false, []],
  ];
  for (const [name, s, o, root, want] of rows) it(name, () => assert.deepEqual(causes(s, o, root), want));
});

describe('groupVersionError (schema.ParseGroupVersion)', () => {
  const rows: [string, string | undefined][] = [['v1', undefined], ['g/v1', undefined], ['/', undefined], ['g/', undefined], ['a/b/c', 'unexpected GroupVersion string: a/b/c']];
  for (const [gv, want] of rows) it(gv, () => assert.equal(groupVersionError(gv), want));
});
