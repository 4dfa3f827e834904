// Microbenchmark of request-time rule validation (not a test; run
// `node dist/src/apiextensions/cel/bench.js`): a ~50-property schema with 5
// rules, a valid object; prints µs per validate() call.
import type { JSONSchemaProps } from '../types.js';
import { compileCrdRules } from './validator.js';

const props: Record<string, JSONSchemaProps> = {};
const spec: Record<string, unknown> = {};
for (let i = 0; i < 40; i++) {
  props[`f${i}`] = i % 2 ? { type: 'string', maxLength: 64 } : { type: 'integer' };
  spec[`f${i}`] = i % 2 ? `value-${i}` : i;
}
props.minReplicas = { type: 'integer' };
props.maxReplicas = { type: 'integer' };
props.image = { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule: "self.startsWith('registry.example/')", message: 'bad registry' }] };
props.ports = { type: 'array', maxItems: 10, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(p, p > 0 && p < 65536)' }] };
props.mode = { type: 'string', enum: ['a', 'b'] };
props.labels = { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 30 } };
props.paused = { type: 'boolean' };
props.ratio = { type: 'number' };
Object.assign(spec, { minReplicas: 1, maxReplicas: 3, image: 'registry.example/app', ports: [80, 443], mode: 'a', labels: { a: 'b' }, paused: false, ratio: 0.5 });
const schema: JSONSchemaProps = {
  type: 'object',
  'x-kubernetes-validations': [{ rule: "self.metadata.name.size() <= 63" }],
  properties: {
    spec: {
      type: 'object',
      properties: props,
      'x-kubernetes-validations': [
        { rule: 'self.minReplicas <= self.maxReplicas', message: 'min above max' },
        { rule: "!has(self.mode) || self.mode != 'b' || self.paused" },
      ],
    },
  },
};
const obj = { apiVersion: 'x.example/v1', kind: 'X', metadata: { name: 'bench', namespace: 'default' }, spec };

const v = compileCrdRules(schema)!;
const check = v.validate(obj, undefined);
if (check.errors.length) throw new Error(JSON.stringify(check.errors));
const bad = v.validate({ ...obj, spec: { ...spec, image: 'elsewhere/app', ports: [0], minReplicas: 9 } }, undefined);
if (bad.errors.length !== 3) throw new Error(`expected 3 failures, got ${JSON.stringify(bad.errors)}`);
for (let i = 0; i < 20_000; i++) v.validate(obj, undefined);
const N = 200_000;
const t0 = process.hrtime.bigint();
for (let i = 0; i < N; i++) v.validate(obj, undefined);
const t1 = process.hrtime.bigint();
const t2 = process.hrtime.bigint();
for (let i = 0; i < N / 10; i++) v.validate(obj, obj);
const t3 = process.hrtime.bigint();
console.log(`create: ${(Number(t1 - t0) / N / 1000).toFixed(2)} µs/validate (5 rules, ${Object.keys(props).length} spec properties)`);
console.log(`update: ${(Number(t3 - t2) / (N / 10) / 1000).toFixed(2)} µs/validate`);
