// Pods: graceful deletion (default 30 s) once bound to a node; an unbound
// pod is deleted at once, as Kubernetes does without a node agent.
import { baseStrategy, type Strategy } from '../strategy.js';
import { isObject } from '../object.js';
import { subdomainName } from './names.js';
import { podQOSClass } from './podqos.js';

export const pods: Strategy = baseStrategy({
  namespaced: true,
  validateName: subdomainName,
  hasStatus: true,
  returnDeletedObject: true,
  gracefulDeletion: true,
  prepareForCreate(obj) {
    obj.status = { phase: 'Pending', qosClass: podQOSClass(obj) };
  },
  gracePeriod(obj, requested) {
    const spec = isObject(obj.spec) ? obj.spec : {};
    if (!spec.nodeName) return 0;
    if (requested !== undefined) return Math.max(0, requested);
    return typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
  },
});
