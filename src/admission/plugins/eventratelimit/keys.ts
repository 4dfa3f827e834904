// The bucket key of an Event request per limit type (kube's getServerKey,
// getNamespaceKey, getUserKey, getSourceAndObjectKey): Server one bucket
// (key ''), Namespace the request's namespace, User the user's name,
// SourceAndObject the event's source component and host and its involved
// object's kind, namespace, name, uid and apiVersion, joined with nothing
// between them (as kube does).
import type { AdmissionAttributes } from '../../../registry/admission.js';
import { isObject } from '../../../registry/object.js';
import type { LimitType } from './config.js';

export type KeyFunc = (a: AdmissionAttributes) => string;

const str = (o: Record<string, unknown> | undefined, k: string): string => {
  const v = o?.[k];
  return typeof v === 'string' ? v : '';
};

function sourceAndObjectKey(a: AdmissionAttributes): string {
  const e = a.object as Record<string, unknown> | undefined;
  if (!e) return '';
  const source = isObject(e.source) ? e.source : undefined;
  const involved = isObject(e.involvedObject) ? e.involvedObject : undefined;
  return [
    str(source, 'component'), str(source, 'host'),
    str(involved, 'kind'), str(involved, 'namespace'), str(involved, 'name'), str(involved, 'uid'), str(involved, 'apiVersion'),
  ].join('');
}

export const KEY_FUNCS: Readonly<Record<LimitType, KeyFunc>> = {
  Server: () => '',
  Namespace: (a) => a.namespace,
  User: (a) => a.user?.name ?? '',
  SourceAndObject: sourceAndObjectKey,
};
