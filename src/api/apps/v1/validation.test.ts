// apps/v1 validation: exact kube-apiserver v1.27 causes per kind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import type { FieldError } from '../../meta/field.js';
import { STATEFULSET_SPEC_FORBIDDEN, validateDaemonSet, validateDeployment, validateDeploymentUpdate, validateReplicaSet, validateStatefulSet, validateStatefulSetUpdate } from './validation.js';

type O = { [k: string]: unknown };
const template = (labels: O = { app: 'web' }, spec: O = {}): O => ({
  metadata: { labels },
  spec: { containers: [{ name: 'app', image: 'img', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', ...spec },
});
const deploy = (spec: O = {}): O => ({
  metadata: { name: 'd', namespace: 'n' },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: template(), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }, progressDeadlineSeconds: 600, revisionHistoryLimit: 10, ...spec },
});
const rows = (list: [string, () => FieldError[], string[]][]) => {
  for (const [name, errs, want] of list) it(name, () => assert.deepEqual(errs().map(renderCause), want));
};

describe('Deployment', () => {
  rows([
    ['valid', () => validateDeployment(deploy()), []],
    ['selector must match template labels', () => validateDeployment(deploy({ selector: { matchLabels: { app: 'other' } } })), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']],
    ['selector required (and then nothing matches)', () => validateDeployment(deploy({ selector: undefined })), ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']],
    ['empty selector', () => validateDeployment(deploy({ selector: {} })), ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']],
    ['replicas ≥ 0', () => validateDeployment(deploy({ replicas: -1 })), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    ['template restartPolicy Always', () => validateDeployment(deploy({ template: template({ app: 'web' }, { restartPolicy: 'Never' }) })), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    ['Recreate with rollingUpdate', () => validateDeployment(deploy({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } })), ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]],
    ['maxSurge and maxUnavailable both 0', () => validateDeployment(deploy({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } })), ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0']],
    ['maxUnavailable percent', () => validateDeployment(deploy({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '150%' } } })), ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%']],
    ['bad percent', () => validateDeployment(deploy({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 'x', maxUnavailable: 1 } } })), [
      `spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]],
    ['progressDeadlineSeconds > minReadySeconds', () => validateDeployment(deploy({ minReadySeconds: 600 })), ['spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds']],
    ['selector immutable', () => validateDeploymentUpdate(deploy({ selector: { matchLabels: { app: 'web', x: 'y' } }, template: template({ app: 'web', x: 'y' }) }), deploy()), [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "x":"y"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]],
  ]);
});

describe('ReplicaSet, StatefulSet, DaemonSet', () => {
  const ss = (spec: O = {}): O => ({ spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: template(), podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, serviceName: 's', ...spec } });
  const ds = (spec: O = {}): O => ({ spec: { selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10, ...spec } });
  rows([
    ['replicaset mismatch', () => validateReplicaSet({ spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template: template() } }), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']],
    ['statefulset valid', () => validateStatefulSet(ss()), []],
    ['statefulset podManagementPolicy', () => validateStatefulSet(ss({ podManagementPolicy: 'Fast' })), ["spec.podManagementPolicy: Invalid value: \"Fast\": must be 'OrderedReady' or 'Parallel'"]],
    ['statefulset claim templates count as volumes', () => validateStatefulSet(ss({ volumeClaimTemplates: [{ metadata: { name: 'data' } }], template: template({ app: 'web' }, { containers: [{ name: 'app', image: 'i', imagePullPolicy: 'Always', terminationMessagePolicy: 'File', volumeMounts: [{ name: 'data', mountPath: '/d' }] }] }) })), []],
    ['statefulset spec update', () => validateStatefulSetUpdate(ss({ serviceName: 'other' }), ss()), [`spec: Forbidden: ${STATEFULSET_SPEC_FORBIDDEN}`]],
    ['daemonset valid', () => validateDaemonSet(ds()), []],
    ['daemonset surge and unavailable', () => validateDaemonSet(ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } })), ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero']],
    ['daemonset restartPolicy', () => validateDaemonSet(ds({ template: template({ app: 'web' }, { restartPolicy: 'OnFailure' }) })), ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']],
  ]);
});
