// PodNodeSelector (mutating and validating, off by default): a new pod's
// nodeSelector is merged with its namespace's node selector — the annotation
// scheduler.alpha.kubernetes.io/node-selector (or the svc.io spelling), else
// the configuration's clusterDefaultNodeSelector — a conflicting pod selector
// is refused; and, when the configuration whitelists selectors for the
// namespace, the pod's selector must stay within it.
import { parse as parseYaml } from 'yaml';
import { newForbidden, newInternalError } from '../../api/meta/index.js';
import { labelValueErrors, qualifiedNameErrors } from '../../api/meta/validation.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import { isObject } from '../../registry/object.js';
import type { Getter, MutatingAndValidatingPlugin } from './common.js';
import { isCoreWrite, plainError, specOf } from './common.js';

export const NODE_SELECTOR_ANNOTATIONS = ['scheduler.alpha.kubernetes.io/node-selector', 'scheduler.alpha.svc.io/node-selector'] as const;

type Labels = Record<string, string>;

/**
 * The plugin's configuration file (YAML or JSON), as kube reads it:
 * `podNodeSelectorPluginConfig: {clusterDefaultNodeSelector: "k=v", <namespace>: "k=v,…"}`.
 * No file, or one kube could not decode, is an empty configuration.
 */
export function parsePodNodeSelectorConfig(text: string | undefined): Record<string, string> {
  if (!text) return {};
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return {};
  }
  const m = isObject(doc) ? (doc.podNodeSelectorPluginConfig ?? doc.PodNodeSelectorPluginConfig) : undefined;
  if (!isObject(m)) return {};
  return Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** Go's fmt %s of a []string: "[a b]". */
const goSlice = (xs: string[]) => `[${xs.join(' ')}]`;

/** kube's labels.ConvertSelectorToLabelsMap: "k=v,k2=v2" (errors as Go renders them: no field path). */
export function selectorToLabels(selector: string): Labels {
  const out: Labels = {};
  if (selector === '') return out;
  for (const part of selector.split(',')) {
    const kv = part.split('=');
    if (kv.length !== 2) throw plainError(`invalid selector: ${goSlice(kv)}`);
    const key = kv[0]!.trim();
    const keyErrs = qualifiedNameErrors(key);
    if (keyErrs.length) throw plainError(`: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`);
    const value = kv[1]!.trim();
    const valueErrs = labelValueErrors(value);
    if (valueErrs.length) throw plainError(`[${key}]: Invalid value: ${JSON.stringify(value)}: ${valueErrs.join('; ')}`);
    out[key] = value;
  }
  return out;
}

/** Two label sets disagree on a key both have. */
export function labelsConflict(a: Labels, b: Labels): boolean {
  return Object.entries(a).some(([k, v]) => k in b && b[k] !== v);
}

const isSubset = (sub: Labels, sup: Labels) => Object.keys(sup).length === 0 || Object.entries(sub).every(([k, v]) => sup[k] === v);

export function podNodeSelector(namespaces: Getter, config: Record<string, string> = {}): MutatingAndValidatingPlugin {
  async function namespaceSelector(name: string): Promise<Labels> {
    let ns;
    try {
      ns = await namespaces().get('', name);
    } catch {
      // kube looks it up again and reports any failure as "does not exist", an internal error.
      throw newInternalError(new Error(`namespace ${name} does not exist`));
    }
    let selector: Labels = {};
    let found = false;
    for (const key of NODE_SELECTOR_ANNOTATIONS) {
      const text = ns.metadata.annotations?.[key];
      if (text === undefined) continue;
      const labels = selectorToLabels(text);
      if (labelsConflict(selector, labels)) throw plainError(`${name} annotations' node label selectors conflict`);
      selector = { ...selector, ...labels };
      found = true;
    }
    return found ? selector : selectorToLabels(config.clusterDefaultNodeSelector ?? '');
  }

  const podSelector = (a: AdmissionAttributes): Labels => {
    const s = specOf(a.object)?.nodeSelector;
    return isObject(s) ? (s as Labels) : {};
  };
  const conflict = (a: AdmissionAttributes) => newForbidden({ group: '', resource: 'pods' }, a.object!.metadata.name ?? '', 'pod node label selector conflicts with its namespace node label selector');

  async function validate(a: AdmissionAttributes): Promise<void> {
    if (!isCoreWrite(a, 'pods', ['CREATE'])) return;
    if (labelsConflict(await namespaceSelector(a.namespace), podSelector(a))) throw conflict(a);
    const whitelist = selectorToLabels(config[a.namespace] ?? '');
    if (!isSubset(podSelector(a), whitelist)) {
      throw newForbidden({ group: '', resource: 'pods' }, a.object!.metadata.name ?? '', 'pod node label selector labels conflict with its namespace whitelist');
    }
  }

  return {
    name: 'PodNodeSelector',
    phase: 'mutating',
    async admit(a) {
      if (!isCoreWrite(a, 'pods', ['CREATE'])) return;
      const nsSelector = await namespaceSelector(a.namespace);
      const own = podSelector(a);
      if (labelsConflict(nsSelector, own)) throw conflict(a);
      const spec = specOf(a.object)!;
      const merged = { ...nsSelector, ...own };
      if (Object.keys(merged).length > 0) spec.nodeSelector = merged;
      else delete spec.nodeSelector; // an empty map is omitted, as Go writes it
      await validate(a);
    },
    validate,
  };
}

