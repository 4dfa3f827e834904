// Status and validation messages against the golden transcripts' wording.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newAlreadyExists, newConflict, newInvalid, newNotFound, statusFromUnknown } from './status.js';
import { fieldPath, forbidden, invalid, required } from './field.js';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors, validateObjectMeta } from './validation.js';

describe('Status constructors', () => {
  it('NotFound, AlreadyExists, Conflict with group-qualified resources', () => {
    assert.equal(newNotFound({ group: '', resource: 'configmaps' }, 'x').status.message, 'configmaps "x" not found');
    assert.deepEqual(newNotFound({ group: 'apps', resource: 'deployments' }, 'nope').status.details, { name: 'nope', group: 'apps', kind: 'deployments' });
    assert.equal(newNotFound({ group: 'apps', resource: 'deployments' }, 'nope').status.message, 'deployments.apps "nope" not found');
    assert.equal(newAlreadyExists({ group: '', resource: 'configmaps' }, 'd').status.code, 409);
    assert.equal(newConflict({ group: '', resource: 'configmaps' }, 's', 'the object has been modified').status.message, 'Operation cannot be fulfilled on configmaps "s": the object has been modified');
  });

  it('Invalid aggregates one or several field errors', () => {
    const one = newInvalid({ group: '', kind: 'ConfigMap' }, '', [required(fieldPath('metadata.name'), 'name or generateName is required')]).status;
    assert.equal(one.message, 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
    assert.deepEqual(one.details, { kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] });
    const two = newInvalid({ group: 'apps', kind: 'Deployment' }, 'd', [invalid('a', 'x', 'bad'), forbidden('b', 'no')]).status;
    assert.equal(two.message, 'Deployment.apps "d" is invalid: [a: Invalid value: "x": bad, b: Forbidden: no]');
  });

  it('anything else is a 500 InternalError', () => {
    assert.equal(statusFromUnknown(new TypeError('x')).reason, 'InternalError');
  });
});

describe('validation messages', () => {
  const rows: [string, string[], string[]][] = [
    ['subdomain Bad_Name', dns1123SubdomainErrors('Bad_Name'), ["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]],
    ['subdomain too long', dns1123SubdomainErrors('a'.repeat(254)), ['must be no more than 253 characters']],
    ['label Bad-NS', dns1123LabelErrors('Bad-NS'), ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['dns1035 1web', dns1035LabelErrors('1web'), ["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]],
    ['qualified bad key', qualifiedNameErrors('bad key'), ["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
    ['qualified empty', qualifiedNameErrors(''), ['name part must be non-empty', "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
    ['label value', labelValueErrors('has space'), ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]],
    ['valid', [...dns1123SubdomainErrors('a.b-c'), ...qualifiedNameErrors('example.com/x'), ...labelValueErrors('')], []],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.deepEqual(got, want));

  it('object meta: prefix errors, finalizers, owner references, scope', () => {
    const errs = validateObjectMeta(
      { name: 'ok', namespace: 'n', labels: { 'Bad_Prefix/name': 'v' }, finalizers: ['no-domain'], ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'y' }] },
      { namespaced: true, validateName: dns1123SubdomainErrors },
    );
    assert.deepEqual(errs.map((e) => `${e.field}: ${e.detail}`), [
      "metadata.labels: prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'metadata.finalizers[0]: name is neither a standard finalizer name nor is it fully qualified',
      'metadata.ownerReferences.uid: uid must not be empty',
    ]);
    assert.equal(validateObjectMeta({ name: 'x', namespace: 'n' }, { namespaced: false, validateName: () => [] })[0]!.detail, 'not allowed on this type');
  });
});
