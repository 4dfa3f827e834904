// apiextensions parity with the official documents (src/api/parity).
// JSONSchemaProps is recursive: the comparison takes each shared type once.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parityTests } from '../parity/index.js';
import { unknownFields } from '../../schema/unknown.js';
import { validate } from '../../schema/validate.js';
import { kinds as v1 } from './v1/index.js';

const NEW_IN_128 = 'new in v1.28 (CEL validation rule reason and fieldPath); not in v1.27';

parityTests({
  group: 'apiextensions.svc.io',
  versions: { v1: { package: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1', kinds: v1 } },
  intended: {
    'v1.26.1 v1 ValidationRule messageExpression: extra: ours none, reference none': 'new in v1.27 (CEL messageExpression)',
    'v1.28.0 v1 ValidationRule fieldPath: missing: ours none, reference none': NEW_IN_128,
    'v1.28.0 v1 ValidationRule reason: missing: ours none, reference none': NEW_IN_128,
  },
});

it('a CRD with a nested schema validates through the recursive JSONSchemaProps', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1 } }, 'x-kubernetes-validations': [{ rule: 'self.size < 10' }] } } } },
      }],
    },
  };
  const schema = v1.CustomResourceDefinition!.schema;
  assert.deepEqual(validate(schema, crd), []);
  assert.deepEqual(unknownFields(schema, crd), []);
  const bad = structuredClone(crd);
  (bad.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties.size as { [k: string]: unknown }).bogus = 1;
  assert.deepEqual(unknownFields(schema, bad), ['spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.bogus']);
});
