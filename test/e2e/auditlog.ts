// Shared by the audit e2e tests: the policy they run with, the audit options
// of a test server, the JSON log file read back.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAuditOptions, type AuditOptions } from '../../src/audit/options.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Ev = Record<string, any>;

export const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: [/healthz*, /readyz*, /livez*]
- level: Metadata
  namespaces: [lvl-metadata]
- level: Request
  namespaces: [lvl-request]
- level: RequestResponse
  namespaces: [lvl-requestresponse]
- level: RequestResponse
  omitManagedFields: true
  resources:
  - group: ""
    resources: [configmaps]
- level: Request
  resources:
  - group: ""
    resources: [secrets]
  omitStages: []
- level: Metadata
`;

export function auditOptions(dir: string, log: Partial<AuditOptions['log']> = {}, policy = POLICY): AuditOptions {
  const d = defaultAuditOptions();
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, policy);
  return { ...d, policyFile, log: { ...d.log, path: join(dir, 'audit.log'), ...log } };
}

export function readLog(file: string): Ev[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Ev);
}

