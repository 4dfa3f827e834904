// The real CRDs of ../shared/reference/crds (cert-manager, prometheus-operator):
// every printer column parses and prints, and list-type maps with one and two
// key fields report duplicates as Kubernetes does.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderCause } from '../../api/meta/govalue.js';
import { parseGoYaml } from '../../endpoints/yaml.js';
import type { Schema } from '../../schema/model.js';
import { validateListTypes } from './index.js';
import { columnsForVersion, tableConvertor } from '../printers/index.js';
import type { CustomResourceDefinition } from '../types.js';

const dir = fileURLToPath(new URL('../../../../../shared/reference/crds/', import.meta.url));
const crds = new Map<string, CustomResourceDefinition>();
for (const sub of ['cert-manager', 'prometheus-operator']) {
  for (const f of readdirSync(join(dir, sub)).filter((n) => n.endsWith('.yaml'))) crds.set(f, parseGoYaml(readFileSync(join(dir, sub, f), 'utf8')) as CustomResourceDefinition);
}

describe('real CRDs: printer columns', () => {
  it('finds the sixteen CRDs', () => assert.equal(crds.size, 16));
  for (const [file, crd] of crds) {
    for (const v of crd.spec.versions) {
      it(`${file} ${v.name}: every column parses`, () => {
        const cols = columnsForVersion(v);
        const p = tableConvertor(cols);
        assert.equal(p.error, undefined);
        assert.equal(p.columns.length, cols.length + 1);
      });
    }
  }

  it('a cert-manager Certificate row', () => {
    const v = crds.get('cert-manager.io_certificates.yaml')!.spec.versions.find((x) => x.name === 'v1')!;
    const cert = {
      apiVersion: 'cert-manager.io/v1', kind: 'Certificate',
      metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { secretName: 'web-tls', issuerRef: { name: 'letsencrypt' } },
      status: { conditions: [{ type: 'Issuing', status: 'False' }, { type: 'Ready', status: 'True', message: 'Certificate is up to date and has not expired' }], notAfter: '2026-04-01T00:00:00Z' },
    };
    const p = tableConvertor(columnsForVersion(v));
    assert.deepEqual(p.columns.map((c) => `${c.name}/${c.type}/${c.priority}`), ['Name/string/0', 'Ready/string/0', 'Secret/string/0', 'Issuer/string/1', 'Status/string/1', 'Expiration/string/1', 'Age/date/0']);
    assert.deepEqual(p.row(cert, { now: Date.parse('2026-01-03T00:00:00Z') }).cells, ['web', 'True', 'web-tls', 'letsencrypt', 'Certificate is up to date and has not expired', '2026-04-01T00:00:00Z', '2d']);
  });
});

describe('real CRDs: list-type maps', () => {
  const schema = crds.get('monitoring.coreos.com_prometheuses.yaml')!.spec.versions[0]!.schema!.openAPIV3Schema as Schema;
  it('ports by containerPort and protocol (containers themselves are an atomic list)', () => {
    const prom = {
      spec: {
        containers: [
          { name: 'a', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 80, protocol: 'UDP' }, { containerPort: 80, protocol: 'TCP', name: 'x' }] },
          { name: 'a' },
        ],
      },
    };
    assert.deepEqual(validateListTypes(schema, prom).map(renderCause), [
      'spec.containers[0].ports[2]: Duplicate value: map[string]interface {}{"containerPort":80, "protocol":"TCP"}',
    ]);
  });
});
