// What pods and PVs refer to, as kube's podutil / pvutil visitors list it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, pvSecretNames } from './references.js';

const pod = (spec: Record<string, unknown>): ApiObject => ({ metadata: { name: 'web', namespace: 'ns' }, spec });
const pv = (spec: Record<string, unknown>): ApiObject => ({ metadata: { name: 'vol' }, spec: { claimRef: { namespace: 'claims', name: 'c' }, ...spec } });

describe('podSecretNames', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['image pull secrets', { imagePullSecrets: [{ name: 'pull' }, { name: '' }] }, ['pull']],
    ['container envFrom and env, every container kind', {
      initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'init-env' } }] }],
      containers: [{ name: 'c', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'key', key: 'k' } } }, { name: 'B', value: 'x' }] }],
      ephemeralContainers: [{ name: 'e', envFrom: [{ secretRef: { name: 'debug' } }, { configMapRef: { name: 'not-a-secret' } }] }],
    }, ['init-env', 'key', 'debug']],
    ['volume sources', {
      volumes: [
        { name: 'a', secret: { secretName: 'vol-secret' } },
        { name: 'b', projected: { sources: [{ secret: { name: 'proj' } }, { configMap: { name: 'cm' } }, { serviceAccountToken: { path: 't' } }] } },
        { name: 'c', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi' } } },
        { name: 'd', azureFile: { secretName: 'azure', shareName: 's' } },
        { name: 'e', cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } } },
        { name: 'f', rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'rbd' } } },
        { name: 'g', iscsi: { targetPortal: 'p', iqn: 'q', lun: 0, secretRef: { name: 'iscsi' } } },
        { name: 'h', flexVolume: { driver: 'x', secretRef: { name: 'flex' } } },
        { name: 'i', cinder: { volumeID: 'v', secretRef: { name: 'cinder' } } },
        { name: 'j', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'scaleio' } } },
        { name: 'k', storageos: { secretRef: { name: 'storageos' } } },
        { name: 'l', configMap: { name: 'cm' } },
      ],
    }, ['vol-secret', 'proj', 'csi', 'azure', 'ceph', 'rbd', 'iscsi', 'flex', 'cinder', 'scaleio', 'storageos']],
    ['repeats once', { imagePullSecrets: [{ name: 's' }], volumes: [{ name: 'v', secret: { secretName: 's' } }] }, ['s']],
    ['nothing', {}, []],
  ];
  for (const [name, spec, want] of cases) it(name, () => assert.deepEqual(podSecretNames(pod(spec)), want));
});

describe('podConfigMapNames', () => {
  it('envFrom, env, configMap and projected volumes of every container kind', () => {
    assert.deepEqual(podConfigMapNames(pod({
      containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'env' } }], env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'key', key: 'k' } } }] }],
      ephemeralContainers: [{ name: 'e', env: [{ name: 'B', valueFrom: { configMapKeyRef: { name: 'debug', key: 'k' } } }] }],
      volumes: [{ name: 'v', configMap: { name: 'vol' } }, { name: 'p', projected: { sources: [{ configMap: { name: 'proj' } }, { secret: { name: 's' } }] } }],
    })), ['env', 'key', 'debug', 'vol', 'proj']);
  });
});

describe('claims', () => {
  it('PVC volumes by claim name, ephemeral volumes as <pod>-<volume>', () => {
    assert.deepEqual(podClaimNames(pod({
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'pvc-1' } }, { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }, { name: 'x', emptyDir: {} }],
    })), ['pvc-1', 'web-scratch']);
  });
  it('resource claims by name, template claims as <pod>-<claim> (v1.27)', () => {
    assert.deepEqual(podResourceClaimNames(pod({
      resourceClaims: [{ name: 'gpu', source: { resourceClaimName: 'shared-gpu' } }, { name: 'fpga', source: { resourceClaimTemplateName: 't' } }],
    })), ['shared-gpu', 'web-fpga']);
  });
});

describe('pvSecretNames', () => {
  const cases: [string, Record<string, unknown>, { namespace: string; name: string; kubeletVisible: boolean }[]][] = [
    ['azureFile in its secretNamespace', { azureFile: { secretName: 'az', shareName: 's', secretNamespace: 'other' } }, [{ namespace: 'other', name: 'az', kubeletVisible: true }]],
    ['azureFile in the claim namespace', { azureFile: { secretName: 'az', shareName: 's' } }, [{ namespace: 'claims', name: 'az', kubeletVisible: true }]],
    ['cephfs without a namespace: the claim namespace', { cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } } }, [{ namespace: 'claims', name: 'ceph', kubeletVisible: true }]],
    ['rbd with a namespace', { rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'rbd', namespace: 'sec' } } }, [{ namespace: 'sec', name: 'rbd', kubeletVisible: true }]],
    ['cinder keeps its own (empty) namespace', { cinder: { volumeID: 'v', secretRef: { name: 'c' } } }, [{ namespace: '', name: 'c', kubeletVisible: true }]],
    ['csi: controller secrets are not kubelet-visible', {
      csi: {
        driver: 'd', volumeHandle: 'h',
        controllerPublishSecretRef: { name: 'cp', namespace: 'x' }, controllerExpandSecretRef: { name: 'ce', namespace: 'x' },
        nodePublishSecretRef: { name: 'np', namespace: 'x' }, nodeStageSecretRef: { name: 'ns', namespace: 'x' }, nodeExpandSecretRef: { name: 'ne', namespace: 'x' },
      },
    }, [
      { namespace: 'x', name: 'cp', kubeletVisible: false }, { namespace: 'x', name: 'ce', kubeletVisible: false },
      { namespace: 'x', name: 'np', kubeletVisible: true }, { namespace: 'x', name: 'ns', kubeletVisible: true }, { namespace: 'x', name: 'ne', kubeletVisible: true },
    ]],
    ['empty names skipped', { iscsi: { targetPortal: 'p', iqn: 'q', lun: 0, secretRef: { name: '' } } }, []],
    ['hostPath: none', { hostPath: { path: '/x' } }, []],
  ];
  for (const [name, spec, want] of cases) it(name, () => assert.deepEqual(pvSecretNames(pv(spec)), want));
});
