// Server-side defaulting for discovery.svc.io/v1 as kube-apiserver v1.27
// applies it: each EndpointSlice port gets name "" and protocol TCP when unset.
import { each, orSet, type Gates, type Json } from '../../core/v1/defaults.js';

export function defaultEndpointSlice(slice: Json): void {
  for (const port of each(slice, 'ports')) {
    orSet(port, 'name', '');
    orSet(port, 'protocol', 'TCP');
  }
}

/** The discovery.svc.io/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  EndpointSlice: defaultEndpointSlice,
};
