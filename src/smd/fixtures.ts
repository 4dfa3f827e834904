// Small schemas for the apply tests: a Deployment-like kind whose spec holds
// one list or map of every topology the engine distinguishes.
import { bool, int32, list, mapOf, obj, ref, str } from '../schema/dsl.js';
import { kind, LabelSelector } from '../schema/common.js';
import type { Schema } from '../schema/model.js';

const Port = obj({ containerPort: int32().required(), protocol: str().default('TCP'), name: str() });

const Container = obj({
  name: str().required(),
  image: str(),
  ports: list(Port).map('containerPort', 'protocol'),
  args: list(str()),
});

/** Kind "Thing", apiVersion v1: metadata (ObjectMeta) and a spec of every topology. */
export const Thing: Schema = kind({
  spec: obj({
    replicas: int32(),
    paused: bool(),
    /** map-type atomic struct */
    selector: ref(LabelSelector),
    /** patch-strategy merge + merge key → map list keyed by name */
    containers: list(Container).patch('merge', 'name'),
    /** patch-strategy merge without key over scalars → set */
    tags: list(str()).patch('merge'),
    /** list-type set */
    hosts: list(str()).set(),
    /** no markers → atomic list */
    args: list(str()),
    /** granular map */
    config: mapOf(str()),
    /** map-type atomic map */
    frozen: mapOf(str()).atomic(),
  }),
}).schema;
