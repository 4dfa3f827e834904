// The admission flags of kube-apiserver v1.27: --enable-admission-plugins,
// --disable-admission-plugins (comma lists; the order in the flag does not
// matter, plugins run in kube's fixed order) and
// --admission-control-config-file. Unknown names and a name in both lists are
// flag errors with kube's messages; the configuration file is read at start.
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import { ALL_ORDERED_PLUGINS, serverDefaultPlugins, validateAdmissionFlags, type AdmissionFlags } from '../admission/chain.js';

const names = [...ALL_ORDERED_PLUGINS].sort().join(', ');

export const ADMISSION_FLAGS: FlagSpec[] = [
  {
    name: 'enable-admission-plugins', type: 'strings',
    help: `admission plugins that should be enabled in addition to default enabled ones (${serverDefaultPlugins().join(', ')}). ` +
      `Comma-delimited list of admission plugins: ${names}. The order of plugins in this flag does not matter.`,
  },
  {
    name: 'disable-admission-plugins', type: 'strings',
    help: `admission plugins that should be disabled although they are in the default enabled plugins list. Comma-delimited list of admission plugins: ${names}. ` +
      'The order of plugins in this flag does not matter.',
  },
  { name: 'admission-control-config-file', type: 'string', help: 'File with admission control configuration (an AdmissionConfiguration, YAML or JSON).' },
];

export function admissionOptions(v: Map<string, FlagValue>): { admission: AdmissionFlags } {
  const list = (k: string) => ((v.get(k) as string[] | undefined) ?? []).map((s) => s.trim()).filter((s) => s !== '');
  const configFile = (v.get('admission-control-config-file') as string | undefined) || undefined;
  const admission: AdmissionFlags = { enable: list('enable-admission-plugins'), disable: list('disable-admission-plugins'), ...(configFile ? { configFile } : {}) };
  const errs = validateAdmissionFlags(admission);
  if (errs.length > 0) throw new FlagError(errs.join('; '));
  return { admission };
}
