// The smallest valid body of each kind whose validation needs more than a
// name, for tests that create one object of every resource.
import { TEST_CA_PEM, TEST_CSR_SPEC } from '../../src/api/certificates/testing.js';

const labels = { app: 'rt' };
const podSpec = { containers: [{ name: 'c', image: 'busybox' }] };
const template = { metadata: { labels }, spec: podSpec };
const selector = { matchLabels: labels };
const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };

/** Extra fields by `<group>/<resource>` (svc.io spelling; '' for core). */
export const MINIMAL_BODIES: Readonly<Record<string, Record<string, unknown>>> = {
  '/pods': { spec: podSpec },
  '/podtemplates': { template },
  '/services': { spec: { ports: [{ port: 80 }] } },
  '/events': { involvedObject: { kind: 'Pod', name: 'p', namespace: 'rest' }, reason: 'Test', type: 'Normal' },
  'events.svc.io/events': { eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'svc.io/test', reportingInstance: 'i', action: 'Test', reason: 'Test', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: 'rest' } },
  'apps/deployments': { spec: { selector, template } },
  'apps/replicasets': { spec: { selector, template } },
  'apps/daemonsets': { spec: { selector, template } },
  'apps/statefulsets': { spec: { selector, template, serviceName: 'rt' } },
  'batch/jobs': { spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } },
  'batch/cronjobs': { spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } } } },
  'rbac.authorization.svc.io/rolebindings': { roleRef },
  'rbac.authorization.svc.io/clusterrolebindings': { roleRef },
  'certificates.svc.io/certificatesigningrequests': { spec: TEST_CSR_SPEC },
  'certificates.svc.io/clustertrustbundles': { spec: { trustBundle: TEST_CA_PEM } },
};
