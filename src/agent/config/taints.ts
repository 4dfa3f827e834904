// `--register-with-taints key=value:Effect,key2:Effect` as kube's taints flag
// parses it (pkg/util/taints), with kube's error texts.
import { labelValueErrors, qualifiedNameErrors } from '../../api/meta/validation.js';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export class TaintError extends Error {}

/** One `key[=value]:Effect` (or a bare key, which kube accepts at parse and rejects at validation for its empty effect). */
export function parseTaint(spec: string): Taint {
  const parts = spec.split(':');
  let key: string;
  let value: string | undefined;
  let effect = '';
  if (parts.length === 1) key = parts[0]!;
  else if (parts.length === 2) {
    effect = parts[1]!;
    checkEffect(effect);
    const kv = parts[0]!.split('=');
    if (kv.length > 2) throw new TaintError(`invalid taint spec: ${spec}`);
    key = kv[0]!;
    if (kv.length === 2) {
      value = kv[1]!;
      const errs = labelValueErrors(value);
      if (errs.length) throw new TaintError(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
    }
  } else throw new TaintError(`invalid taint spec: ${spec}`);
  const errs = qualifiedNameErrors(key);
  if (errs.length) throw new TaintError(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
  return value === undefined ? { key, effect } : { key, value, effect };
}

function checkEffect(effect: string): void {
  if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) throw new TaintError(`invalid taint effect: ${effect}, unsupported taint effect`);
}

/** The flag's value: comma-separated taints; an empty value is no taints. */
export function parseTaints(text: string): Taint[] {
  if (text.trim() === '') return [];
  return text.split(',').map(parseTaint);
}

/** utiltaints.CheckTaintValidation: key qualified, value a label value, a known effect. */
export function taintProblem(t: Taint): string | undefined {
  if (qualifiedNameErrors(t.key).length) return 'key';
  if (t.value !== undefined && labelValueErrors(t.value).length) return 'value';
  if (!(TAINT_EFFECTS as readonly string[]).includes(t.effect)) return 'effect';
  return undefined;
}

/** `key=value:Effect` as kube prints a taint. */
export const formatTaint = (t: Taint): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
