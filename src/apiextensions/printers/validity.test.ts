// JSONPath checks for CRD validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../api/meta/govalue.js';
import { columnJSONPathError, validateSimpleJSONPath } from './validity.js';

describe('validateSimpleJSONPath (v1.27 CRD validation)', () => {
  const rows: [string, string[]][] = [
    ['.spec.replicas', []],
    ['.', []],
    ['', ['spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "": must not be empty']],
    ['spec.replicas', ['spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .']],
  ];
  for (const [p, want] of rows) it(JSON.stringify(p), () => assert.deepEqual(validateSimpleJSONPath(p, 'spec.versions[0].additionalPrinterColumns[0].JSONPath').map(renderCause), want));
});

describe('columnJSONPathError', () => {
  const rows: [string, string | undefined][] = [
    ['.spec.replicas', undefined],
    ['.status.conditions[?(@.type=="Ready")].status', undefined],
    ['.metadata.labels.app\\.kubernetes\\.io/name', undefined],
    ['.spec.ports[', 'unterminated array'],
    ['.spec.#', undefined],
    ['.spec.a{', "unrecognized character in action: U+007B '{'"],
    ['.a[?(@.x)', 'unclosed array expect ]'],
    ['. "x', 'unterminated quoted string'],
  ];
  for (const [p, want] of rows) it(p, () => assert.equal(columnJSONPathError(p), want));
});
