// SecurityContextDeny (validating, off by default, deprecated in v1.27 in
// favour of PodSecurity): refuses a pod that sets supplementalGroups,
// seLinuxOptions, runAsUser or fsGroup in its security context, or
// seLinuxOptions or runAsUser in an init container's or container's; on
// create and update. Building it logs kube's deprecation warning.
import type { AdmissionPlugin } from '../../registry/admission.js';
import { newForbidden } from '../../api/meta/index.js';
import { isObject } from '../../registry/object.js';
import type { Json } from './common.js';
import { isCoreWrite, listOf, specOf } from './common.js';

export const SECURITY_CONTEXT_DENY_WARNING = 'SecurityContextDeny admission controller is deprecated. Please remove this controller from your configuration files and scripts. See https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny for more information.';

const set = (o: Json, k: string) => o[k] !== undefined && o[k] !== null;

/** The pod-level fields, in kube's order, with the Go names its messages use. */
const POD_FIELDS = [['supplementalGroups', 'SupplementalGroups'], ['seLinuxOptions', 'SELinuxOptions'], ['runAsUser', 'RunAsUser'], ['fsGroup', 'FSGroup']] as const;

/** The first forbidden setting, as kube checks them in order; undefined when none. */
function problem(spec: Json): string | undefined {
  const psc = isObject(spec.securityContext) ? spec.securityContext : undefined;
  if (psc) {
    for (const [f, goName] of POD_FIELDS) if (set(psc, f)) return `pod.Spec.SecurityContext.${goName} is forbidden`;
  }
  for (const c of [...listOf(spec, 'initContainers'), ...listOf(spec, 'containers')]) {
    const sc = isObject(c.securityContext) ? c.securityContext : undefined;
    if (sc && set(sc, 'seLinuxOptions')) return 'SecurityContext.SELinuxOptions is forbidden';
    if (sc && set(sc, 'runAsUser')) return 'SecurityContext.RunAsUser is forbidden';
  }
  return undefined;
}

export function securityContextDeny(log: (line: string) => void = (l) => console.warn(`W svc: ${l}`)): AdmissionPlugin {
  log(SECURITY_CONTEXT_DENY_WARNING);
  return {
    name: 'SecurityContextDeny',
    phase: 'validating',
    admit(a) {
      if (!isCoreWrite(a, 'pods')) return;
      const spec = specOf(a.object);
      const p = spec && problem(spec);
      if (p) throw newForbidden({ group: '', resource: 'pods' }, a.object!.metadata.name ?? '', p);
    },
  };
}
