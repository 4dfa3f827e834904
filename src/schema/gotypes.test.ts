// Go-style typed decoding errors of built-in kinds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goDecodeError, goTypeName } from './gotypes.js';
import { ObjectMeta, Quantity, kind } from './common.js';
import { bool, bytes, int32, list, mapOf, obj, ref, str, toSchema } from './dsl.js';

const Container = obj({ name: str(), image: str(), ports: list(obj({ containerPort: int32() }).id('io.k8s.api.core.v1.ContainerPort')), cpu: ref(Quantity) }).id('io.k8s.api.core.v1.Container');
const Spec = obj({ containers: list(Container), paused: bool(), replicas: int32() }).id('io.k8s.api.apps.v1.DeploymentSpec');
const Thing = toSchema(kind({ metadata: ref(ObjectMeta), spec: ref(Spec), data: mapOf(bytes()) }).id('io.k8s.api.apps.v1.Thing'));

describe('goDecodeError', () => {
  const rows: [unknown, string | undefined][] = [
    [{ metadata: { name: 'ok' }, spec: { replicas: 3 } }, undefined],
    [{ metadata: { name: true } }, 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string'],
    [{ metadata: { labels: { a: 1 } } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    [{ spec: { replicas: 'three' } }, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { replicas: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { replicas: 3000000000 } }, 'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { containers: {} } }, 'json: cannot unmarshal object into Go struct field DeploymentSpec.spec.containers of type []v1.Container'],
    [{ spec: { containers: [{ name: 'a' }, { image: 7 }] } }, 'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string'],
    [{ spec: { containers: [{ ports: [{ containerPort: '80' }] }] } }, 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    [{ spec: 'x' }, 'json: cannot unmarshal string into Go struct field Thing.spec of type v1.DeploymentSpec'],
    [{ spec: { containers: [{ cpu: 'lots' }] } }, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    [{ spec: { containers: [{ cpu: '500m' }] }, metadata: { creationTimestamp: null } }, undefined],
    [{ metadata: { creationTimestamp: 'yesterday' } }, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    [{ data: { k: 'not base64!!' } }, 'illegal base64 data at input byte 3'],
    [{ data: { k: 'YWRtaW4=' } }, undefined],
    [{ unknown: { whatever: 1 } }, undefined],
  ];
  for (const [value, want] of rows) it(JSON.stringify(value), () => assert.equal(goDecodeError(Thing, value, 'Thing'), want));

  it('names Go types as reflect prints them', () => {
    assert.equal(goTypeName(toSchema(list(Container))), '[]v1.Container');
    assert.equal(goTypeName(toSchema(mapOf(str()))), 'map[string]string');
    assert.equal(goTypeName(toSchema(bytes())), '[]uint8');
  });
});
