// kube-controller-manager's `endpoint` controller: Endpoints objects for
// Services with a selector. `desired.ts` what they should hold (addresses,
// ports, truncation), `repack.ts` kube's RepackSubsets, `controller.ts` the
// controller (informers, writes, events).
export { startEndpointsController, EndpointsController, type EndpointsControllerOptions } from './controller.js';
