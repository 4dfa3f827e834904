// kube-controller-manager's `endpointslice` controller, and what the endpoint
// controllers share (kube's staging/src/k8s.io/endpointslice):
//   types.ts        the fields read and written; labels, annotations, targets
//   pods.ts         readiness, membership, port resolution
//   membership.ts   which services a pod change concerns
//   triggertime.ts  endpoints.kubernetes.io/last-change-trigger-time
//   endpointset.ts  desired endpoints by identity; port-set keys
//   slices.ts       a pod's endpoint, a new slice, labels, owners
//   reconciler.ts   the packing plan (create / update / delete)
//   stale.ts        our writes the informer has not shown yet
//   writer.ts       a plan written; the slice informer's handlers
//   loop.ts         authorized start, informers synced, one work queue
//   controller.ts   the controller
export { startEndpointSliceController, EndpointSliceController, type EndpointSliceControllerOptions } from './controller.js';
