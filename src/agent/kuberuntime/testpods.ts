// Pods for the runtime manager's tests.
import type { Container, Pod, PodSpec } from './types.js';

export function testPod(spec: Partial<PodSpec> = {}, meta: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: { name: 'web', namespace: 'ns1', uid: 'uid-1', ...meta },
    spec: { containers: [testContainer()], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', enableServiceLinks: true, ...spec },
  };
}

export function testContainer(c: Partial<Container> = {}): Container {
  return { name: 'app', image: 'svc.local/busybox:1.35', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', ...c };
}
