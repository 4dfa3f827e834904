// The OpenAPI component names of core/v1 types.

/** The component name of a core/v1 type, e.g. core('PodSpec') is io.k8s.api.core.v1.PodSpec. */
export const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** The OpenAPI package of core/v1, as the parity suite names it. */
export const CORE_PACKAGE = 'io.k8s.api.core.v1';
