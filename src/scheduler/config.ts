// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, or the
// kubescheduler.config.svc.io/v1 spelling) read from a YAML or JSON file:
// profiles by schedulerName, each with plugins enabled/disabled per
// extension point (multiPoint, filter, score, postFilter; "*" disables every
// default) and score weights, plus pluginConfig args; the queue's backoffs.
// Errors name the file and the field, in kube's field-error words.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_SCHEDULER_NAME } from './pods.js';

/** v1 and the deprecated v1beta3 (same shape and default weights in v1.27), in both spellings. */
export const SCHEDULER_CONFIG_VERSIONS = [
  'kubescheduler.config.k8s.io/v1', 'kubescheduler.config.svc.io/v1', 'kubescheduler.config.k8s.io/v1beta3', 'kubescheduler.config.svc.io/v1beta3',
] as const;

export interface PluginRef {
  readonly name: string;
  readonly weight?: number;
}

export interface PluginSet {
  readonly enabled?: readonly PluginRef[];
  readonly disabled?: readonly PluginRef[];
}

export const EXTENSION_POINT_NAMES = [
  'multiPoint', 'preEnqueue', 'queueSort', 'preFilter', 'filter', 'postFilter', 'preScore', 'score', 'reserve', 'permit', 'preBind', 'bind', 'postBind',
] as const;
export type ExtensionPointName = (typeof EXTENSION_POINT_NAMES)[number];

export interface ProfileConfig {
  readonly schedulerName: string;
  readonly plugins?: Partial<Record<ExtensionPointName, PluginSet>>;
  readonly pluginConfig?: readonly { readonly name: string; readonly args: Record<string, unknown> }[];
}

export interface SchedulerConfig {
  readonly profiles: readonly ProfileConfig[];
  readonly podInitialBackoffSeconds: number;
  readonly podMaxBackoffSeconds: number;
  /** The share of the nodes a cycle looks for feasible ones in (0: kube's adaptive default). */
  readonly percentageOfNodesToScore: number;
}

export const DEFAULT_SCHEDULER_CONFIG: SchedulerConfig = {
  profiles: [{ schedulerName: DEFAULT_SCHEDULER_NAME }],
  podInitialBackoffSeconds: 1,
  podMaxBackoffSeconds: 10,
  percentageOfNodesToScore: 0,
};

export class SchedulerConfigError extends Error {
  override readonly name = 'SchedulerConfigError';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readSchedulerConfig(path: string): SchedulerConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new SchedulerConfigError(`${path}: ${(err as Error).message}`);
  }
  return parseSchedulerConfig(text, path);
}

function pluginSet(v: unknown, field: string, fail: (m: string) => Error): PluginSet {
  if (!isRecord(v)) throw fail(`${field}: must be an object`);
  const list = (k: 'enabled' | 'disabled'): PluginRef[] | undefined => {
    const raw = v[k];
    if (raw === undefined || raw === null) return undefined;
    if (!Array.isArray(raw)) throw fail(`${field}.${k}: must be a list`);
    return raw.map((p, i) => {
      const f = `${field}.${k}[${i}]`;
      if (!isRecord(p)) throw fail(`${f}: must be an object`);
      if (typeof p.name !== 'string' || p.name === '') throw fail(`${f}.name: Required value`);
      if (p.weight !== undefined && p.weight !== null) {
        if (typeof p.weight !== 'number' || !Number.isInteger(p.weight)) throw fail(`${f}.weight: must be an integer`);
        if (p.weight < 0) throw fail(`${f}.weight: Invalid value: ${p.weight}: must be a non-negative integer`);
        return { name: p.name, weight: p.weight };
      }
      return { name: p.name };
    });
  };
  const enabled = list('enabled');
  const disabled = list('disabled');
  return { ...(enabled ? { enabled } : {}), ...(disabled ? { disabled } : {}) };
}

export function parseSchedulerConfig(text: string, file = '<config>'): SchedulerConfig {
  const fail = (m: string) => new SchedulerConfigError(`${file}: ${m}`);
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw fail(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(doc)) throw fail('a KubeSchedulerConfiguration must be an object');
  if (!doc.apiVersion) throw fail("Object 'apiVersion' is missing");
  if (!doc.kind) throw fail("Object 'Kind' is missing");
  if (!(SCHEDULER_CONFIG_VERSIONS as readonly unknown[]).includes(doc.apiVersion) || doc.kind !== 'KubeSchedulerConfiguration') {
    throw fail(`no kind ${JSON.stringify(doc.kind)} is registered for version ${JSON.stringify(doc.apiVersion)} (want kind "KubeSchedulerConfiguration" in ${SCHEDULER_CONFIG_VERSIONS.join(', ')})`);
  }
  const seconds = (k: string, dflt: number): number => {
    const v = doc[k];
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw fail(`${k}: Invalid value: ${JSON.stringify(v)}: must be greater than 0`);
    return v;
  };
  const podInitialBackoffSeconds = seconds('podInitialBackoffSeconds', 1);
  const podMaxBackoffSeconds = seconds('podMaxBackoffSeconds', 10);
  if (podMaxBackoffSeconds < podInitialBackoffSeconds) throw fail(`podMaxBackoffSeconds: Invalid value: ${podMaxBackoffSeconds}: must be greater than or equal to PodInitialBackoffSeconds`);
  const pct = doc.percentageOfNodesToScore;
  if (pct !== undefined && pct !== null && (typeof pct !== 'number' || !Number.isInteger(pct) || pct < 0 || pct > 100)) {
    throw fail(`percentageOfNodesToScore: Invalid value: ${JSON.stringify(pct)}: not in valid range [0-100]`);
  }
  const rawProfiles = doc.profiles ?? [{}];
  if (!Array.isArray(rawProfiles)) throw fail('profiles: must be a list');
  if (rawProfiles.length === 0) throw fail('profiles: Required value');
  const names = new Set<string>();
  const profiles = rawProfiles.map((p: unknown, i): ProfileConfig => {
    const f = `profiles[${i}]`;
    if (!isRecord(p)) throw fail(`${f}: must be an object`);
    const schedulerName = p.schedulerName === undefined || p.schedulerName === null ? DEFAULT_SCHEDULER_NAME : p.schedulerName;
    if (typeof schedulerName !== 'string' || schedulerName === '') throw fail(`${f}.schedulerName: Required value`);
    if (names.has(schedulerName)) throw fail(`${f}.schedulerName: Duplicate value: ${JSON.stringify(schedulerName)}`);
    names.add(schedulerName);
    let plugins: Partial<Record<ExtensionPointName, PluginSet>> | undefined;
    if (p.plugins !== undefined && p.plugins !== null) {
      if (!isRecord(p.plugins)) throw fail(`${f}.plugins: must be an object`);
      plugins = {};
      for (const [k, v] of Object.entries(p.plugins)) {
        if (!(EXTENSION_POINT_NAMES as readonly string[]).includes(k)) throw fail(`${f}.plugins: unknown field ${JSON.stringify(k)}`);
        if (v !== null) plugins[k as ExtensionPointName] = pluginSet(v, `${f}.plugins.${k}`, fail);
      }
    }
    const rawConfig = p.pluginConfig ?? [];
    if (!Array.isArray(rawConfig)) throw fail(`${f}.pluginConfig: must be a list`);
    const seen = new Set<string>();
    const pluginConfig = rawConfig.map((c: unknown, j) => {
      const cf = `${f}.pluginConfig[${j}]`;
      if (!isRecord(c)) throw fail(`${cf}: must be an object`);
      if (typeof c.name !== 'string' || c.name === '') throw fail(`${cf}.name: Required value`);
      if (seen.has(c.name)) throw fail(`${cf}: Duplicate value: ${JSON.stringify(c.name)}`);
      seen.add(c.name);
      if (c.args !== undefined && c.args !== null && !isRecord(c.args)) throw fail(`${cf}.args: must be an object`);
      return { name: c.name, args: (c.args as Record<string, unknown> | undefined) ?? {} };
    });
    return { schedulerName, ...(plugins ? { plugins } : {}), ...(pluginConfig.length > 0 ? { pluginConfig } : {}) };
  });
  return { profiles, podInitialBackoffSeconds, podMaxBackoffSeconds, percentageOfNodesToScore: typeof pct === 'number' ? pct : 0 };
}
