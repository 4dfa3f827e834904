// The plugins' configuration (kube's webhook/config): a
// WebhookAdmissionConfiguration (apiserver.config.k8s.io/v1, or v1alpha1's
// WebhookAdmission; the svc.io spellings too) naming the connection
// credentials file the callbacks authenticate with, `kubeConfigFile`, which
// must be an absolute path. No configuration: no credentials.
import { isAbsolute } from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface WebhookAdmissionConfig {
  /** The connection credentials file (kubeconfig format), chosen by host name per call; undefined: none. */
  readonly kubeConfigFile?: string;
}

export class WebhookConfigError extends Error {
  override readonly name = 'WebhookConfigError';
}

const KINDS: Readonly<Record<string, string>> = { v1: 'WebhookAdmissionConfiguration', v1alpha1: 'WebhookAdmission' };
const GROUPS = new Set(['apiserver.config.k8s.io', 'apiserver.config.svc.io']);

/** Parses the configuration given in the AdmissionConfiguration (an embedded object, or the text of its file). */
export function parseWebhookAdmissionConfig(config: unknown): WebhookAdmissionConfig {
  if (config === undefined || config === null) return {};
  let v: unknown = config;
  if (typeof config === 'string') {
    try {
      v = parseYaml(config);
    } catch (err) {
      throw new WebhookConfigError(`couldn't decode webhook admission configuration: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new WebhookConfigError('couldn\'t decode webhook admission configuration: not an object');
  const o = v as Record<string, unknown>;
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const slash = av.indexOf('/');
  const group = av.slice(0, Math.max(slash, 0));
  const version = av.slice(slash + 1);
  if (!GROUPS.has(group) || KINDS[version] === undefined || o.kind !== KINDS[version]) {
    throw new WebhookConfigError(`couldn't decode webhook admission configuration: no kind ${JSON.stringify(o.kind ?? '')} is registered for version ${JSON.stringify(av)}`);
  }
  const file = o.kubeConfigFile;
  if (file === undefined || file === null || file === '') return {};
  if (typeof file !== 'string') throw new WebhookConfigError('kubeConfigFile must be a string');
  if (!isAbsolute(file)) throw new WebhookConfigError(`kubeConfigFile ${JSON.stringify(file)} must be an absolute file path`);
  return { kubeConfigFile: file };
}
