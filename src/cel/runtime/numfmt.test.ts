import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatFloatE, formatFloatF, formatFloatFixed, formatFloatG } from './numfmt.js';

test("Go's %g, 'f' shortest, %.Nf and %.Ne", () => {
  const g: [number, string][] = [
    [-1.23e4, '-12300'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [1e21, '1e+21'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [-0, '-0'],
    [NaN, 'NaN'],
    [-Infinity, '-Inf'],
    [1 / 3, '0.3333333333333333'],
    [5e-324, '5e-324'],
  ];
  for (const [x, want] of g) assert.equal(formatFloatG(x), want, `%g ${x}`);
  const f: [number, string][] = [
    [1e21, '1000000000000000000000'],
    [1e-9, '0.000000001'],
    [1.5, '1.5'],
    [3600, '3600'],
  ];
  for (const [x, want] of f) assert.equal(formatFloatF(x), want, `'f' ${x}`);
  const fixed: [number, number, string][] = [
    [2.5, 0, '2'],
    [3.5, 0, '4'],
    [0.125, 2, '0.12'],
    [0.375, 2, '0.38'],
    [1e22, 1, '10000000000000000000000.0'],
    [-0.0001, 2, '-0.00'],
    [0.1, 20, '0.10000000000000000555'],
  ];
  for (const [x, p, want] of fixed) assert.equal(formatFloatFixed(x, p), want, `%.${p}f ${x}`);
  const e: [number, number, string][] = [
    [1052.032911275, 6, '1.052033e+03'],
    [0, 3, '0.000e+00'],
    [9.9999999, 2, '1.00e+01'],
    [-5e-324, 2, '-4.94e-324'],
    [125, 1, '1.2e+02'],
  ];
  for (const [x, p, want] of e) assert.equal(formatFloatE(x, p), want, `%.${p}e ${x}`);
});
