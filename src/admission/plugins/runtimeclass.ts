// RuntimeClass (mutating and validating, default on): a new pod naming a
// RuntimeClass gets the class's overhead (a different overhead already set is
// refused) and its scheduling: the class's nodeSelector merged into the pod's
// (a conflicting value is refused) and its tolerations merged in. The
// validating step refuses an overhead that does not match the class, or one
// set without a class that defines it. A class that does not exist is 403.
import { isStatusError } from '../../api/meta/index.js';
import { quantityOf } from '../../api/meta/quantity.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { Getter, Json, MutatingAndValidatingPlugin } from './common.js';
import { admissionForbidden, andThen, isCoreWrite, listOf, specOf } from './common.js';
import { mergeTolerations } from './tolerations.js';

const MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
const WITHOUT_CLASS = 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';

/** Resource lists equal as Kubernetes compares them (quantities by value; absent and empty alike). */
function sameResources(a: unknown, b: unknown): boolean {
  const x = isObject(a) ? a : {};
  const y = isObject(b) ? b : {};
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) {
    if (!(k in x) || !(k in y)) return false;
    const qx = quantityOf(x[k]);
    const qy = quantityOf(y[k]);
    if (!qx || !qy || qx.nanos !== qy.nanos) return false;
  }
  return true;
}

const present = (v: unknown) => v !== undefined && v !== null;

export function runtimeClassPlugin(runtimeClasses: Getter): MutatingAndValidatingPlugin {
  type Prepared = { spec: Json; rc: ApiObject | undefined } | undefined;
  /** The pod's spec and its class (undefined when it names none): at once unless the class must be read. */
  function prepare(a: AdmissionAttributes): Prepared | Promise<Prepared> {
    if (!isCoreWrite(a, 'pods', ['CREATE'])) return undefined;
    const spec = specOf(a.object);
    if (!spec) return undefined;
    const name = spec.runtimeClassName;
    if (typeof name !== 'string') return { spec, rc: undefined };
    return readClass(a, spec, name);
  }
  async function readClass(a: AdmissionAttributes, spec: Json, name: string): Promise<Prepared> {
    try {
      return { spec, rc: await runtimeClasses().get('', name) };
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) throw admissionForbidden(a, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
      throw err;
    }
  }
  return {
    name: 'RuntimeClass',
    phase: 'mutating',
    admit(a) {
      return andThen(prepare(a), (p) => admitWith(a, p));
    },
    validate(a) {
      return andThen(prepare(a), (p) => validateWith(a, p));
    },
  };

  function admitWith(a: AdmissionAttributes, p: Prepared): void {
    if (!p?.rc) return;
    const { spec, rc } = p;
    const overhead = isObject(rc.overhead) ? rc.overhead : undefined;
    if (overhead) {
      if (present(spec.overhead) && !sameResources(overhead.podFixed, spec.overhead)) throw admissionForbidden(a, MISMATCH);
      if (present(overhead.podFixed)) spec.overhead = overhead.podFixed;
      else delete spec.overhead;
    }
    const scheduling = isObject(rc.scheduling) ? rc.scheduling : undefined;
    if (!scheduling) return;
    const classSelector = isObject(scheduling.nodeSelector) ? (scheduling.nodeSelector as Record<string, string>) : undefined;
    if (!isObject(spec.nodeSelector)) {
      if (classSelector) spec.nodeSelector = { ...classSelector };
    } else {
      const podSelector = spec.nodeSelector as Record<string, string>;
      for (const [key, value] of Object.entries(classSelector ?? {})) {
        const podValue = podSelector[key];
        if (podValue !== undefined && podValue !== value) {
          throw admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`);
        }
        podSelector[key] = value;
      }
    }
    const merged = mergeTolerations(listOf(spec, 'tolerations'), listOf(scheduling, 'tolerations'));
    if (merged.length > 0) spec.tolerations = merged;
    else delete spec.tolerations;
  }

  function validateWith(a: AdmissionAttributes, p: Prepared): void {
    if (!p) return;
    const overhead = p.rc && isObject(p.rc.overhead) ? p.rc.overhead : undefined;
    if (overhead) {
      if (!sameResources(overhead.podFixed, p.spec.overhead)) throw admissionForbidden(a, MISMATCH);
    } else if (present(p.spec.overhead)) {
      throw admissionForbidden(a, WITHOUT_CLASS);
    }
  }
}
