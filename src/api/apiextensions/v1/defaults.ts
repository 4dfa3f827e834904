// Server-side defaulting for apiextensions.svc.io/v1 as kube-apiserver v1.27
// applies it (SetDefaults_CustomResourceDefinitionSpec, SetDefaults_ServiceReference):
// singular is the kind in lower case, listKind the kind + "List", conversion
// None, and a conversion webhook's service port 443.
import { isObj, orSet, type Gates, type Json } from '../../core/v1/defaults.js';

export function defaultCustomResourceDefinition(crd: Json): void {
  const spec = crd.spec;
  if (!isObj(spec)) return;
  const names = spec.names;
  if (isObj(names) && typeof names.kind === 'string' && names.kind !== '') {
    const kind = names.kind;
    if (!names.singular) names.singular = kind.toLowerCase();
    if (!names.listKind) names.listKind = `${kind}List`;
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  const conversion = spec.conversion;
  if (isObj(conversion) && isObj(conversion.webhook) && isObj(conversion.webhook.clientConfig) && isObj(conversion.webhook.clientConfig.service)) {
    orSet(conversion.webhook.clientConfig.service, 'port', 443);
  }
}

/** The apiextensions.svc.io/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  CustomResourceDefinition: defaultCustomResourceDefinition,
};
