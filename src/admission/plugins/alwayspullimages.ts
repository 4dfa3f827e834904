// AlwaysPullImages (off by default): every container of a pod (init, regular,
// ephemeral) gets imagePullPolicy Always on create, and on an update that
// brings an image the pod did not have; so an image on a node can only be used
// by whoever may pull it. The validating step refuses a pod that reaches it
// with another policy (a later mutation changed it back).
import type { AdmissionAttributes } from '../../registry/admission.js';
import { errorBody, notSupported } from '../../api/meta/index.js';
import type { MutatingAndValidatingPlugin } from './common.js';
import { admissionForbidden, isCoreWrite, plainError, podContainers, specOf } from './common.js';
import { aggregateErrors } from '../../api/meta/index.js';

/** An update whose containers use only images the old pod already had. */
function updateWithNoNewImages(a: AdmissionAttributes): boolean {
  if (a.operation !== 'UPDATE' || !a.oldObject) return false;
  const old = new Set(podContainers(specOf(a.oldObject)).map(({ container }) => container.image));
  return podContainers(specOf(a.object)).every(({ container }) => old.has(container.image));
}

const applies = (a: AdmissionAttributes) => isCoreWrite(a, 'pods') && !updateWithNoNewImages(a);

export function alwaysPullImages(): MutatingAndValidatingPlugin {
  return {
    name: 'AlwaysPullImages',
    phase: 'mutating',
    admit(a) {
      if (!applies(a)) return;
      for (const { container } of podContainers(specOf(a.object))) container.imagePullPolicy = 'Always';
    },
    validate(a) {
      if (!applies(a)) return;
      const problems: string[] = [];
      for (const { container, path } of podContainers(specOf(a.object))) {
        if (container.imagePullPolicy === 'Always') continue;
        const fe = notSupported(`${path}.imagePullPolicy`, container.imagePullPolicy ?? '', ['Always']);
        problems.push(admissionForbidden(a, `${fe.field}: ${errorBody(fe)}`).message);
      }
      // kube returns an aggregate of Forbidden errors, which is no API status: a 500 with their text.
      if (problems.length > 0) throw plainError(aggregateErrors(problems));
    },
  };
}
