// Strategic merge patch scenarios: the golden transcripts (patch-04-smp-pod,
// patch-06-smp-deployment), apimachinery's documented cases on its MergeItem test
// schema, a Pod-like schema, directive errors with their texts and Statuses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError, patchErrorToStatus } from './errors.js';
import type { JsonObject } from './json.js';
import { applyStrategic, decodeStrategicPatch } from './strategic.js';
import { metaFor } from './testkit.js';

const j = (s: string): JsonObject => JSON.parse(s) as JsonObject;
type Row = [name: string, original: string, patch: string, want: string];

function table(kind: string, rows: Row[]): void {
  for (const [name, original, patch, want] of rows) {
    it(name, () => assert.deepEqual(applyStrategic(j(original), j(patch), metaFor(kind)), j(want)));
  }
}

const DEPLOY = '{"spec":{"replicas":1,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"template":{"spec":{"containers":[{"name":"app","image":"app:1.0","env":[{"name":"A","value":"1"}]}]}}}}';

describe('Deployment (patch-06-smp-deployment, in sequence)', () => {
  const steps: [string, string, (d: JsonObject) => unknown, unknown][] = [
    ['replicas and one container image', '{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"app","image":"app:2.0"}]}}}}',
      (d: any) => [d.spec.replicas, d.spec.template.spec.containers], [3, [{ name: 'app', image: 'app:2.0', env: [{ name: 'A', value: '1' }] }]]],
    ['a new container goes first', '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"sidecar:1.0"}]}}}}',
      (d: any) => d.spec.template.spec.containers.map((c: any) => c.name), ['sidecar', 'app']],
    ['env merges by name, the new variable first', '{"spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"B","value":"2"}]}]}}}}',
      (d: any) => d.spec.template.spec.containers[1].env, [{ name: 'B', value: '2' }, { name: 'A', value: '1' }]],
    ['$patch: delete removes an env item', '{"spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"A","$patch":"delete"}]}]}}}}',
      (d: any) => d.spec.template.spec.containers[1].env, [{ name: 'B', value: '2' }]],
    ['a strategy type alone keeps rollingUpdate (validation then refuses it)', '{"spec":{"strategy":{"type":"Recreate"}}}',
      (d: any) => d.spec.strategy, { type: 'Recreate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }],
    ['$retainKeys clears rollingUpdate', '{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}',
      (d: any) => d.spec.strategy, { type: 'Recreate' }],
    ['$setElementOrder keeps sidecar first', '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"app"}],"containers":[{"name":"app","image":"app:3.0"}]}}}}',
      (d: any) => d.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`), ['sidecar=sidecar:1.0', 'app=app:3.0']],
    ['list $patch: replace', '{"spec":{"template":{"spec":{"containers":[{"$patch":"replace"},{"name":"only","image":"only:1.0"}]}}}}',
      (d: any) => d.spec.template.spec.containers, [{ name: 'only', image: 'only:1.0' }]],
  ];
  let doc = j(DEPLOY);
  for (const [name, patch, view, want] of steps) {
    it(name, () => {
      const before = JSON.stringify(doc);
      const next = applyStrategic(doc, j(patch), metaFor('Deployment'));
      assert.equal(JSON.stringify(doc), before, 'the input is not modified');
      assert.deepEqual(view(next), want);
      doc = next;
    });
  }
});

describe('Pod-like schema', () => {
  const POD = '{"metadata":{"name":"p","labels":{"app":"a","tier":"t"},"finalizers":["a","b"]},"spec":{"containers":[{"name":"app","image":"i:1","ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":443}],"env":[{"name":"A","value":"1"}],"args":["x","y"],"resources":{"limits":{"cpu":"1"}}},{"name":"side","image":"s:1"}],"volumes":[{"name":"v","emptyDir":{}}],"tolerations":[{"key":"k1"}]}}';
  table('Pod', [
    ['labels merge; null deletes', POD, '{"metadata":{"labels":{"tier":null,"role":"x"}}}',
      POD.replace('"labels":{"app":"a","tier":"t"}', '"labels":{"app":"a","role":"x"}')],
    ['finalizers are a set (union, live order first)', POD, '{"metadata":{"finalizers":["b","c"]}}', POD.replace('["a","b"]', '["a","b","c"]')],
    ['$deleteFromPrimitiveList/finalizers', POD, '{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","zz"]}}', POD.replace('["a","b"]', '["b"]')],
    ['$setElementOrder/finalizers reorders', POD, '{"metadata":{"$setElementOrder/finalizers":["b","a"]}}', POD.replace('["a","b"]', '["b","a"]')],
    ['ports merge by containerPort', POD, '{"spec":{"containers":[{"name":"app","ports":[{"containerPort":443,"name":"https"},{"containerPort":8080}]}]}}',
      POD.replace('"ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":443}]', '"ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":443,"name":"https"},{"containerPort":8080}]')],
    ['args (no strategy) are replaced', POD, '{"spec":{"containers":[{"name":"app","args":["z"]}]}}', POD.replace('["x","y"]', '["z"]')],
    ['tolerations (no strategy) are replaced', POD, '{"spec":{"tolerations":[{"key":"k2"}]}}', POD.replace('[{"key":"k1"}]', '[{"key":"k2"}]')],
    ['a map under $patch: replace is taken whole', POD, '{"spec":{"containers":[{"name":"app","resources":{"$patch":"replace","requests":{"cpu":"2"}}}]}}',
      POD.replace('"resources":{"limits":{"cpu":"1"}}', '"resources":{"requests":{"cpu":"2"}}')],
    ['a map under $patch: delete becomes empty', POD, '{"spec":{"containers":[{"name":"app","resources":{"$patch":"delete"}}]}}',
      POD.replace('"resources":{"limits":{"cpu":"1"}}', '"resources":{}')],
    ['volumes: $retainKeys inside a list item switches the volume source', POD, '{"spec":{"volumes":[{"name":"v","$retainKeys":["name","hostPath"],"hostPath":{"path":"/x"}}]}}',
      POD.replace('{"name":"v","emptyDir":{}}', '{"name":"v","hostPath":{"path":"/x"}}')],
    ['volumes without $retainKeys keep both sources', POD, '{"spec":{"volumes":[{"name":"v","hostPath":{"path":"/x"}}]}}',
      POD.replace('{"name":"v","emptyDir":{}}', '{"name":"v","emptyDir":{},"hostPath":{"path":"/x"}}')],
    ['$setElementOrder/containers with a deletion', POD, '{"spec":{"$setElementOrder/containers":[{"name":"side"}],"containers":[{"name":"app","$patch":"delete"}]}}',
      '{"metadata":{"name":"p","labels":{"app":"a","tier":"t"},"finalizers":["a","b"]},"spec":{"containers":[{"name":"side","image":"s:1"}],"volumes":[{"name":"v","emptyDir":{}}],"tolerations":[{"key":"k1"}]}}'],
    ['a new field is taken literally, minus nulls and directives', POD, '{"spec":{"nodeSelector":{"zone":"z","gone":null,"$patch":"replace"},"activeDeadlineSeconds":300}}',
      POD.replace('"tolerations":[{"key":"k1"}]', '"tolerations":[{"key":"k1"}],"nodeSelector":{"zone":"z"},"activeDeadlineSeconds":300')],
    ['a new container is appended literally (nested directives dropped)', POD, '{"spec":{"containers":[{"name":"new","image":"n:1","env":[{"name":"E","$patch":"delete"}],"$setElementOrder/env":[{"name":"E"}]}]}}',
      POD.replace('"containers":[', '"containers":[{"name":"new","image":"n:1","env":[{"name":"E"}]},')],
    ['a value of another type replaces the live one', POD, '{"spec":{"containers":"none"}}', POD.replace(/"containers":\[.*\],"volumes"/, '"containers":"none","volumes"')],
    ['an empty patch changes nothing', POD, '{}', POD],
  ]);
});

describe('apimachinery strategicpatch cases (MergeItem schema)', () => {
  table('MergeItem', [
    ['unique scalars when merging lists', '{"mergingIntList":[1,2]}', '{"mergingIntList":[2,3]}', '{"mergingIntList":[1,2,3]}'],
    ['delete map from nested map', '{"simpleMap":{"key1":"1","key2":"1"}}', '{"simpleMap":{"$patch":"delete"}}', '{"simpleMap":{}}'],
    ['delete all items from merging list', '{"mergingList":[{"name":"1"},{"name":"2"}]}', '{"mergingList":[{"$patch":"replace"}]}', '{"mergingList":[]}'],
    ['merge empty merging lists', '{"mergingList":[]}', '{"mergingList":[]}', '{"mergingList":[]}'],
    ['delete all keys from map', '{"name":"1","value":"1"}', '{"$patch":"replace"}', '{}'],
    ['add key and delete all keys from map', '{"name":"1","value":"1"}', '{"other":"a","$patch":"replace"}', '{"other":"a"}'],
    ['de-duplicate entries in a merging list (deletion removes every match)', '{"mergingList":[{"name":"1"},{"name":"1"},{"name":"2","value":"a"},{"name":"3"},{"name":"3"}]}',
      '{"mergingList":[{"name":"1","$patch":"delete"},{"name":"3","$patch":"delete"}]}', '{"mergingList":[{"name":"2","value":"a"}]}'],
    ['retainKeys map can add a field when no retainKeys directive present', '{"retainKeysMap":{"name":"foo"}}', '{"retainKeysMap":{"value":"bar"}}', '{"retainKeysMap":{"name":"foo","value":"bar"}}'],
    ['retainKeys map can delete a field when no retainKeys directive present', '{"retainKeysMap":{"name":"foo","value":"a"}}', '{"retainKeysMap":{"value":null}}', '{"retainKeysMap":{"name":"foo"}}'],
    ['retainKeys map merge an empty map', '{"retainKeysMap":{"name":"foo","value":"a"}}', '{"retainKeysMap":{}}', '{"retainKeysMap":{"name":"foo","value":"a"}}'],
    ['retainKeys list can change a field', '{"retainKeysMergingList":[{"name":"bar"},{"name":"foo","value":"a"}]}', '{"retainKeysMergingList":[{"name":"foo","value":"b"}]}',
      '{"retainKeysMergingList":[{"name":"bar"},{"name":"foo","value":"b"}]}'],
    ['retainKeys directive clears unlisted keys', '{"retainKeysMap":{"name":"foo","value":"a","other":"b"}}', '{"retainKeysMap":{"$retainKeys":["name","value"],"value":"c"}}',
      '{"retainKeysMap":{"name":"foo","value":"c"}}'],
    ['preserve the order from the patch in a merging list', '{"mergingList":[{"name":"1"},{"name":"2","value":"b"},{"name":"3"}]}',
      '{"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"},{"name":"2","other":"x"}]}',
      '{"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"},{"name":"2","value":"b","other":"x"}]}'],
    ['preserve the order from the patch in a merging list 2', '{"mergingList":[{"name":"1"},{"name":"2","value":"b"},{"name":"3"}]}',
      '{"mergingList":[{"name":"3","value":"c"},{"name":"1","value":"a"}]}',
      '{"mergingList":[{"name":"2","value":"b"},{"name":"3","value":"c"},{"name":"1","value":"a"}]}'],
    ['preserve the order from the patch in a merging int list', '{"mergingIntList":[1,2,3]}', '{"mergingIntList":[3,1,2]}', '{"mergingIntList":[3,1,2]}'],
    ['preserve the order from the patch in a merging int list 2', '{"mergingIntList":[1,2,3]}', '{"mergingIntList":[3,1]}', '{"mergingIntList":[2,3,1]}'],
    ['$setElementOrder contains an item that is not in the list to be merged', '{"mergingList":[{"name":"1"},{"name":"3"}]}',
      '{"$setElementOrder/mergingList":[{"name":"3"},{"name":"2"},{"name":"1"}],"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]}',
      '{"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]}'],
    ['$setElementOrder contains an item that is not in the int list', '{"mergingIntList":[1,3]}', '{"$setElementOrder/mergingIntList":[3,2,1]}', '{"mergingIntList":[3,1]}'],
    ['delete items in lists of scalars', '{"mergingIntList":[1,2,3,4]}', '{"$setElementOrder/mergingIntList":[1,2],"$deleteFromPrimitiveList/mergingIntList":[3]}', '{"mergingIntList":[1,2,4]}'],
    ['delete all duplicate items in lists of scalars', '{"mergingIntList":[1,2,3,3,4]}', '{"$setElementOrder/mergingIntList":[1,2],"$deleteFromPrimitiveList/mergingIntList":[3]}', '{"mergingIntList":[1,2,4]}'],
    ['merge lists of maps', '{"mergingList":[{"name":"1","other":"a"},{"name":"2","value":"2","other":"b"}]}',
      '{"$setElementOrder/mergingList":[{"name":"4"},{"name":"1"},{"name":"2"},{"name":"3"}],"mergingList":[{"name":"4","value":"4"},{"name":"3","value":"3"}]}',
      '{"mergingList":[{"name":"4","value":"4"},{"name":"1","other":"a"},{"name":"2","value":"2","other":"b"},{"name":"3","value":"3"}]}'],
    ['add field to map in merging list', '{"mergingList":[{"name":"1","other":"a"},{"name":"2","value":"2","other":"b"}]}',
      '{"$setElementOrder/mergingList":[{"name":"1"},{"name":"2"}],"mergingList":[{"name":"1","value":"1"}]}',
      '{"mergingList":[{"name":"1","value":"1","other":"a"},{"name":"2","value":"2","other":"b"}]}'],
    ['replace list of scalars', '{"nonMergingIntList":[1,2]}', '{"nonMergingIntList":[2,3]}', '{"nonMergingIntList":[2,3]}'],
    ['a replace-strategy map is taken whole', '{"replacingItem":{"a":1,"b":{"c":1}}}', '{"replacingItem":{"b":{"d":2}}}', '{"replacingItem":{"b":{"d":2}}}'],
    ['a merging list in a non-merging list is not merged', '{"nonMergingList":[{"name":"1","mergingList":[{"name":"a"}]}]}', '{"nonMergingList":[{"name":"1","mergingList":[{"name":"b"}]}]}',
      '{"nonMergingList":[{"name":"1","mergingList":[{"name":"b"}]}]}'],
    ['nested merging lists merge', '{"mergingList":[{"name":"1","mergingList":[{"name":"a"}]}]}', '{"mergingList":[{"name":"1","mergingList":[{"name":"b"}]}]}',
      '{"mergingList":[{"name":"1","mergingList":[{"name":"b"},{"name":"a"}]}]}'],
    ['$deleteFromPrimitiveList on a list that is not live is ignored', '{}', '{"$deleteFromPrimitiveList/mergingIntList":[1]}', '{}'],
    ['$deleteFromPrimitiveList on a non-merging list replaces it (as upstream)', '{"nonMergingIntList":[1,2]}', '{"$deleteFromPrimitiveList/nonMergingIntList":[1]}', '{"nonMergingIntList":[1]}'],
  ]);

  it('without schema knowledge, maps merge and lists are replaced', () => {
    assert.deepEqual(applyStrategic(j('{"a":{"b":1,"c":[1,2]}}'), j('{"a":{"d":2,"c":[3]}}'), undefined), j('{"a":{"b":1,"c":[3],"d":2}}'));
  });
});

describe('strategic merge patch errors', () => {
  const rows: [string, string, string, string, PatchError['kind'], string][] = [
    ['$retainKeys is not a list', '{"retainKeysMap":{"name":"a"}}', '{"retainKeysMap":{"$retainKeys":"name"}}', 'MergeItem', 'badDirective', 'invalid patch format of retainKeys'],
    ['a patch key missing from $retainKeys', '{"retainKeysMap":{"name":"a"}}', '{"retainKeysMap":{"$retainKeys":["name"],"value":"b"}}', 'MergeItem', 'badDirective', 'invalid patch format of retainKeys'],
    ['$setElementOrder without a list name', '{}', '{"$setElementOrderx":[1]}', 'MergeItem', 'badDirective', 'invalid patch format of setElementOrder list'],
    ['$deleteFromPrimitiveList without a list name', '{"mergingIntList":[1]}', '{"$deleteFromPrimitiveListx":[1]}', 'MergeItem', 'badDirective', 'invalid patch format of primitive list'],
    ['a list of lists', '{"mergingIntList":[[1]]}', '{"mergingIntList":[[2]]}', 'MergeItem', 'unprocessable', 'lists of lists are not supported'],
    ['a missing merge key', '{"mergingList":[{"name":"1","value":"a"}]}', '{"mergingList":[{"value":"b"}]}', 'MergeItem', 'internal', 'map: map[value:b] does not contain declared merge key: name'],
    ['a deletion without the merge key', '{"mergingList":[{"name":"1"}]}', '{"mergingList":[{"$patch":"delete"}]}', 'MergeItem', 'internal', 'map: map[$patch:delete] does not contain declared merge key: name'],
    ['$setElementOrder disagrees with the patch list', '{"mergingList":[{"name":"1"},{"name":"3"},{"name":"2"}]}',
      '{"$setElementOrder/mergingList":[{"name":"1"},{"name":"2"},{"name":"3"}],"mergingList":[{"name":"3","value":"3"},{"name":"1","value":"1"}]}', 'MergeItem', 'internal',
      "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n"],
    ['$setElementOrder disagrees with the int patch list', '{"mergingIntList":[1,3,2]}', '{"$setElementOrder/mergingIntList":[1,2,3],"mergingIntList":[3,1]}', 'MergeItem', 'internal',
      "The order in patch list:\n[3 1]\n doesn't match $setElementOrder list:\n[1 2 3]\n"],
    ['$setElementOrder is not a list', '{}', '{"$setElementOrder/mergingList":"x"}', 'MergeItem', 'internal', 'expected a []interface {}, but received a string'],
    ['$patch: merge in a list', '{"mergingList":[{"name":"1"}]}', '{"mergingList":[{"$patch":"merge"}]}', 'MergeItem', 'internal', 'merging lists cannot yet be specified in the patch'],
    ['an unknown $patch in a list', '{"mergingList":[{"name":"1"}]}', '{"mergingList":[{"$patch":"frob","name":"1"}]}', 'MergeItem', 'internal', 'unknown patch type: frob in map: map[$patch:frob name:1]'],
    ['$patch: merge in a map', '{"simpleMap":{"a":"1"}}', '{"simpleMap":{"$patch":"merge","b":"2"}}', 'MergeItem', 'internal', 'unknown patch type: merge in map: map[$patch:merge b:2]'],
    ['list element types differ', '{"mergingIntList":[1]}', '{"mergingIntList":["a"]}', 'MergeItem', 'internal', 'list element types are not identical: [[1] [a]]'],
  ];
  for (const [name, original, patch, kind, errKind, message] of rows) {
    it(name, () =>
      assert.throws(() => applyStrategic(j(original), j(patch), metaFor(kind)), (e: unknown) => {
        assert.ok(e instanceof PatchError, String(e));
        assert.deepEqual([e.kind, e.message], [errKind, message]);
        return true;
      }));
  }

  it('Statuses: 400 with the text, 422 generic, 500 with the text and no reason', () => {
    const s400 = patchErrorToStatus(new PatchError('badDirective', 'invalid patch format of retainKeys')).status;
    assert.deepEqual([s400.code, s400.reason, s400.message], [400, 'BadRequest', 'invalid patch format of retainKeys']);
    const s422 = patchErrorToStatus(new PatchError('unprocessable', 'lists of lists are not supported')).status;
    assert.deepEqual([s422.code, s422.reason, s422.message, s422.details], [422, 'Invalid', 'the server rejected our request due to an error in our request', {}]);
    const s500 = patchErrorToStatus(new PatchError('internal', 'map: map[value:b] does not contain declared merge key: name')).status;
    assert.deepEqual(s500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'map: map[value:b] does not contain declared merge key: name', code: 500 });
  });

  const bodies: [string, string][] = [
    ['{"spec": ', 'unexpected end of JSON input'],
    ['[]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
  ];
  for (const [body, message] of bodies) {
    it(`400 body: ${body}`, () => assert.throws(() => decodeStrategicPatch(body), (e: unknown) => e instanceof PatchError && e.kind === 'malformed' && e.message === message));
  }
});
