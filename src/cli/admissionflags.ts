// The admission flags of kube-apiserver v1.27: --enable-admission-plugins,
// --disable-admission-plugins (comma lists; the order in the flag does not
// matter, plugins run in kube's fixed order) and
// --admission-control-config-file. Unknown names and a name in both lists are
// flag errors with kube's messages; the configuration file is read at start.
// --admission-control (deprecated, as in kube) names exactly the plugins that
// run: the others are disabled; it excludes the two lists.
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
  {
    name: 'admission-control', type: 'strings',
    deprecated: 'Use --enable-admission-plugins or --disable-admission-plugins instead. Will be removed in a future version.',
    help: 'Admission is divided into two phases. In the first phase, only mutating admission plugins run. In the second phase, only validating admission plugins run. ' +
      'The names in the below list may represent a validating plugin, a mutating plugin, or both. The order of plugins in which they are passed to this flag does not matter. ' +
      `Comma-delimited list of: ${names}.`,
  },
];

/** --admission-control: exactly these plugins on (kube's computePluginNames), or its errors. */
function admissionControl(only: readonly string[], listsGiven: boolean): { flags: AdmissionFlags; errs: string[] } {
  const errs: string[] = [];
  if (listsGiven) errs.push('admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive');
  const known = new Set(ALL_ORDERED_PLUGINS);
  for (const n of only) if (!known.has(n)) errs.push(`admission-control plugin ${JSON.stringify(n)} is unknown`);
  const on = new Set(only);
  return { flags: { enable: [...only], disable: ALL_ORDERED_PLUGINS.filter((n) => !on.has(n)).sort() }, errs };
}

export function admissionOptions(v: Map<string, FlagValue>): { admission: AdmissionFlags } {
  const list = (k: string) => ((v.get(k) as string[] | undefined) ?? []).map((s) => s.trim()).filter((s) => s !== '');
  const configFile = (v.get('admission-control-config-file') as string | undefined) || undefined;
  const file = configFile ? { configFile } : {};
  if (v.get('admission-control') !== undefined) {
    const { flags, errs } = admissionControl(list('admission-control'), v.get('enable-admission-plugins') !== undefined || v.get('disable-admission-plugins') !== undefined);
    if (errs.length > 0) throw new FlagError(errs.join('; '));
    return { admission: { ...flags, ...file } };
  }
  const admission: AdmissionFlags = { enable: list('enable-admission-plugins'), disable: list('disable-admission-plugins'), ...file };
  const errs = validateAdmissionFlags(admission);
  if (errs.length > 0) throw new FlagError(errs.join('; '));
  return { admission };
}
