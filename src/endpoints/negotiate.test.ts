// Accept negotiation for reads: plain objects, Tables and PartialObjectMetadata, with fallbacks;
// the binary envelope in both spellings; request bodies by Content-Type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBody, encode, negotiate, negotiateTarget, protobufMediaType } from './negotiate.js';
import { encodeObject } from '../protobuf/index.js';

const PB = 'application/vnd.kubernetes.protobuf';

const KUBECTL = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('negotiateTarget', () => {
  const rows: [string | undefined, boolean, unknown][] = [
    [undefined, false, { as: 'object', encoding: 'json' }],
    ['*/*', true, { as: 'object', encoding: 'json' }],
    ['application/yaml', false, { as: 'object', encoding: 'yaml' }],
    [KUBECTL, true, { as: 'Table', encoding: 'json', group: 'meta.k8s.io', version: 'v1' }],
    ['application/json;as=Table;v=v1beta1;g=meta.svc.io', false, { as: 'Table', encoding: 'json', group: 'meta.svc.io', version: 'v1beta1' }],
    ['application/json;as=Table;v=v2;g=meta.k8s.io, application/json', false, { as: 'object', encoding: 'json' }],
    ['application/json;as=Table;v=v1;g=apps, application/yaml', false, { as: 'object', encoding: 'yaml' }],
    ['application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', false, { as: 'PartialObjectMetadata', encoding: 'json', group: 'meta.k8s.io', version: 'v1' }],
    ['application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', true, { as: 'PartialObjectMetadataList', encoding: 'json', group: 'meta.k8s.io', version: 'v1' }],
    ['application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', true, null],
    ['application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5, application/yaml', false, { as: 'object', encoding: 'yaml' }],
    ['text/html', false, null],
    ['application/json;as=Table;v=v1;g=meta.k8s.io', false, { as: 'Table', encoding: 'json', group: 'meta.k8s.io', version: 'v1' }],
    [`${PB}, application/json`, false, { as: 'object', encoding: 'protobuf' }],
    ['application/vnd.svc.protobuf', true, { as: 'object', encoding: 'protobuf' }],
    [`application/json, ${PB}`, false, { as: 'object', encoding: 'json' }],
    // Kubernetes serves Tables only as JSON or YAML: a protobuf Table entry is skipped.
    [`${PB};as=Table;v=v1;g=meta.k8s.io, application/json`, true, { as: 'object', encoding: 'json' }],
    [`${PB};as=Table;v=v1;g=meta.k8s.io`, false, null],
    [`${PB};as=PartialObjectMetadataList;v=v1;g=meta.k8s.io, application/json`, true, { as: 'PartialObjectMetadataList', encoding: 'protobuf', group: 'meta.k8s.io', version: 'v1' }],
  ];
  for (const [accept, list, want] of rows) it(`${accept ?? '(none)'}${list ? ' (list)' : ''}`, () => assert.deepEqual(negotiateTarget(accept, list), want));

  it('writes and other non-read answers skip conversions', () => {
    assert.equal(negotiate(KUBECTL), 'json');
    assert.equal(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io'), null);
  });

  it('protobuf is chosen only where the kind has it, and answered in the spelling asked for', () => {
    assert.equal(negotiate(`${PB},application/json`), 'protobuf');
    assert.equal(negotiate(`${PB},application/json`, { protobuf: false }), 'json');
    assert.equal(negotiate(PB, { protobuf: false }), null);
    assert.deepEqual(negotiateTarget(`${PB},application/json`, false, { protobuf: false }), { as: 'object', encoding: 'json' });
    assert.equal(protobufMediaType('application/vnd.svc.protobuf, application/json'), 'application/vnd.svc.protobuf');
    assert.equal(protobufMediaType(`${PB};q=0.9`), PB);
    assert.equal(protobufMediaType('*/*'), PB);
  });

  it('decodes a protobuf body to the JSON object; a JSON body sent as protobuf is rejected', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } };
    assert.deepEqual(decodeBody(encodeObject(cm)!, PB), { value: cm, duplicates: [] });
    assert.deepEqual(decodeBody(encodeObject(cm)!, 'application/vnd.svc.protobuf'), { value: cm, duplicates: [] });
    assert.throws(() => decodeBody(Buffer.from(JSON.stringify(cm)), PB), /expected prefix/);
    assert.equal(decodeBody(Buffer.from('x'), 'text/plain'), null);
  });

  it('YAML is written as Go writes it: sorted keys, unindented sequences, 1.1 quoting', () => {
    assert.equal(encode({ kind: 'X', apiVersion: 'v1', items: [{ b: 'yes', a: '2026-01-01T00:00:00Z' }] }, 'yaml'), 'apiVersion: v1\nitems:\n- a: "2026-01-01T00:00:00Z"\n  b: "yes"\nkind: X\n');
  });
});
