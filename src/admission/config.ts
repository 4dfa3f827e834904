// The --admission-control-config-file: an AdmissionConfiguration
// (apiserver.config.svc.io/v1 or the k8s.io spelling, or the deprecated
// apiserver.svc.io/v1alpha1 / apiserver.k8s.io/v1alpha1) in YAML or JSON,
// whose plugins[] name a plugin and give its own configuration embedded
// (`configuration`) or in a file (`path`, relative to the configuration
// file's directory). As kube: a plugin's configuration is read only when the
// plugin is enabled; entries for other plugins are ignored; the first entry
// of a name counts; an embedded configuration wins over a path. A file
// without apiVersion/kind that holds one of the two legacy unversioned
// configurations (`imagePolicy`, `podNodeSelectorPluginConfig`) is that
// configuration for ImagePolicyWebhook and PodNodeSelector.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

export const ADMISSION_CONFIGURATION_VERSIONS = [
  'apiserver.config.svc.io/v1', 'apiserver.config.k8s.io/v1',
  'apiserver.svc.io/v1alpha1', 'apiserver.k8s.io/v1alpha1',
] as const;

export interface AdmissionPluginConfiguration {
  readonly name: string;
  /** Absolute (resolved against the configuration file's directory). */
  readonly path?: string;
  readonly configuration?: Record<string, unknown>;
}

export interface AdmissionConfiguration {
  readonly plugins: readonly AdmissionPluginConfiguration[];
}

/** A bad configuration file; the message names the file and the field. */
export class AdmissionConfigError extends Error {
  override readonly name = 'AdmissionConfigError';
}

const LEGACY_UNVERSIONED: Record<string, string> = { imagePolicy: 'ImagePolicyWebhook', podNodeSelectorPluginConfig: 'PodNodeSelector' };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseDocument(text: string, file: string): unknown {
  try {
    return parseYaml(text);
  } catch (err) {
    throw new AdmissionConfigError(`${file}: error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

/**
 * Parses an AdmissionConfiguration read from `file` (used for the messages and
 * to resolve relative paths). `legacyFor` are the enabled plugins a legacy
 * unversioned file applies to.
 */
export function parseAdmissionConfiguration(text: string, file: string, legacyFor: readonly string[] = []): AdmissionConfiguration {
  const doc = parseDocument(text, file);
  const fail = (msg: string) => new AdmissionConfigError(`${file}: ${msg}`);
  if (!isRecord(doc)) throw fail('an AdmissionConfiguration must be an object');
  const apiVersion = doc.apiVersion;
  const kind = doc.kind;
  if (apiVersion === undefined || apiVersion === '' || kind === undefined || kind === '') {
    const legacy = Object.keys(LEGACY_UNVERSIONED).filter((k) => k in doc).map((k) => LEGACY_UNVERSIONED[k]!);
    if (legacy.length > 0) {
      return { plugins: legacyFor.filter((n) => n === 'ImagePolicyWebhook' || n === 'PodNodeSelector').map((name) => ({ name, path: file })) };
    }
    throw fail(`Object '${apiVersion === undefined || apiVersion === '' ? 'apiVersion' : 'Kind'}' is missing`);
  }
  if (typeof apiVersion !== 'string') throw fail('apiVersion: must be a string');
  if (typeof kind !== 'string') throw fail('kind: must be a string');
  if (!(ADMISSION_CONFIGURATION_VERSIONS as readonly string[]).includes(apiVersion) || kind !== 'AdmissionConfiguration') {
    throw fail(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} (want kind "AdmissionConfiguration" in ${ADMISSION_CONFIGURATION_VERSIONS.join(', ')})`);
  }
  const raw = doc.plugins ?? [];
  if (!Array.isArray(raw)) throw fail('plugins: must be a list');
  const base = dirname(file);
  const plugins = raw.map((entry: unknown, i): AdmissionPluginConfiguration => {
    const field = `plugins[${i}]`;
    if (!isRecord(entry)) throw fail(`${field}: must be an object`);
    if (typeof entry.name !== 'string' || entry.name === '') throw fail(`${field}.name: Required value: a plugin name`);
    if (entry.path !== undefined && entry.path !== null && typeof entry.path !== 'string') throw fail(`${field}.path: must be a string`);
    if (entry.configuration !== undefined && entry.configuration !== null && !isRecord(entry.configuration)) throw fail(`${field}.configuration: must be an object`);
    const path = typeof entry.path === 'string' && entry.path !== '' ? (isAbsolute(entry.path) ? entry.path : join(base, entry.path)) : undefined;
    return {
      name: entry.name,
      ...(path !== undefined ? { path } : {}),
      ...(isRecord(entry.configuration) ? { configuration: entry.configuration } : {}),
    };
  });
  return { plugins };
}

/** The configuration file, read (kube's message when it cannot be). */
export function readAdmissionConfiguration(file: string, legacyFor: readonly string[] = []): AdmissionConfiguration {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AdmissionConfigError(`unable to read admission control configuration from ${JSON.stringify(file)} [${(err as Error).message}]`);
  }
  return parseAdmissionConfiguration(text, file, legacyFor);
}

/**
 * One plugin's configuration: the embedded object, else the parsed content of
 * its file, else undefined (no entry, or an entry with neither).
 */
export function pluginConfiguration(cfg: AdmissionConfiguration, name: string): unknown {
  const entry = cfg.plugins.find((p) => p.name === name);
  if (!entry) return undefined;
  if (entry.configuration !== undefined) return entry.configuration;
  if (entry.path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(entry.path, 'utf8');
  } catch (err) {
    throw new AdmissionConfigError(`couldn't open admission plugin configuration ${entry.path} (plugin ${name}): ${(err as Error).message}`);
  }
  return parseDocument(text, entry.path) ?? undefined;
}
