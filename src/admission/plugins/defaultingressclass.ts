// DefaultIngressClass (mutating, default on): a new Ingress that names no class
// (neither spec.ingressClassName nor the kubernetes.io/ingress.class
// annotation) gets the IngressClass annotated
// ingressclass.kubernetes.io/is-default-class "true" (or the svc.io spelling);
// of several defaults the newest; with none it keeps no class.
import type { ApiObject } from '../../registry/object.js';
import type { AdmissionPlugin } from '../../registry/admission.js';
import type { Lister } from './common.js';
import { newestOf, specOf, subresourceOf } from './common.js';

export const DEFAULT_INGRESS_CLASS_ANNOTATIONS = ['ingressclass.kubernetes.io/is-default-class', 'ingressclass.svc.io/is-default-class'] as const;
export const INGRESS_CLASS_ANNOTATIONS = ['kubernetes.io/ingress.class', 'svc.io/ingress.class'] as const;

export function isDefaultIngressClass(ic: ApiObject): boolean {
  return DEFAULT_INGRESS_CLASS_ANNOTATIONS.some((k) => ic.metadata.annotations?.[k] === 'true');
}

export function defaultIngressClassPlugin(ingressClasses: Lister): AdmissionPlugin {
  return {
    name: 'DefaultIngressClass',
    phase: 'mutating',
    admit(a) {
      if (a.operation !== 'CREATE' || a.resource.group !== 'networking.svc.io' || a.resource.resource !== 'ingresses' || subresourceOf(a) !== '' || !a.object) return;
      const obj = a.object;
      const spec = specOf(obj);
      if (spec?.ingressClassName !== undefined && spec.ingressClassName !== null) return;
      if (INGRESS_CLASS_ANNOTATIONS.some((k) => obj.metadata.annotations?.[k] !== undefined)) return;
      return ingressClasses().list('').then(({ items }) => {
        const def = newestOf(items.filter(isDefaultIngressClass));
        if (!def) return;
        obj.spec = { ...(spec ?? {}), ingressClassName: def.metadata.name };
      });
    },
  };
}
