// kube-controller-manager's `endpointslicemirroring` controller: the Endpoints
// of selector-less Services mirrored into EndpointSlices. `reconciler.ts` the
// plan, `controller.ts` the controller (on the endpointslice folder's loop,
// tracker and writer).
export { startEndpointSliceMirroringController, EndpointSliceMirroringController, shouldMirror, type EndpointSliceMirroringOptions } from './controller.js';
