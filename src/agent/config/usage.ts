// `svc agent -h`: the synopsis and every flag with its type, default and
// deprecation, in pflag's layout.
import { applyLegacyDefaults, defaultFlags, defaultKubeletConfig } from './defaults.js';
import { formatGoDuration } from '../../api/meta/goduration.js';
import { AGENT_FLAGS, type AgentFlag } from './flags.js';
import { getPath } from './parse.js';
import type { FlagKind } from './pflag.js';
import { formatTaint, type Taint } from './taints.js';

const TYPE_NAME: Record<FlagKind, string> = {
  string: 'string', bool: '', int32: 'int32', int64: 'int', float: 'float', duration: 'duration', ip: 'ip', strings: 'strings',
  map: 'mapStringString', langleMap: 'mapStringString', multimap: 'colonSeparatedMultimapStringString', boolMap: 'mapStringBool',
  taints: '[]api.Taint', version: 'version[=true]',
};

const SYNOPSIS = `The node agent registers the node with the API server (by hostname, --hostname-override) and keeps the
containers of its pods running and healthy through the container runtime (CRI). Pods come from the API
server (pods bound to this node), from a folder of static pod files (--pod-manifest-path, checked every
--file-check-frequency) and from an HTTP endpoint (--manifest-url, every --http-check-frequency).
Without --svcconfig the agent runs standalone: static pods only.

Usage:
  svc agent [flags]

Flags:`;

function defaultText(f: AgentFlag, defaults: object): string {
  const v = getPath(defaults, f.field);
  if (v === undefined || v === null || v === '' || v === false || v === 0 && f.kind !== 'int32' && f.kind !== 'int64') return '';
  switch (f.kind) {
    case 'duration':
      return formatGoDuration(v as number);
    case 'string':
      return JSON.stringify(v);
    case 'strings':
      return (v as string[]).length ? `[${(v as string[]).join(',')}]` : '';
    case 'map':
    case 'langleMap': {
      const sep = f.kind === 'map' ? '=' : '<';
      const entries = Object.entries(v as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1));
      return entries.map(([k, x]) => `${k}${sep}${x}`).join(',');
    }
    case 'multimap':
    case 'boolMap':
      return Object.keys(v as object).length ? JSON.stringify(v) : '';
    case 'taints':
      return (v as Taint[]).map(formatTaint).join(',');
    case 'int32':
    case 'int64':
      return v === 0 ? '' : String(v);
    default:
      return String(v);
  }
}

export function agentUsage(): string {
  const kc = defaultKubeletConfig();
  applyLegacyDefaults(kc);
  const defaults = { ...kc, ...defaultFlags() };
  const lines = [...AGENT_FLAGS]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => {
      const names = [f.name, ...(f.aliases ?? [])].map((n) => `--${n}`).join(', ');
      const head = `  ${f.shorthand ? `-${f.shorthand}, ` : '    '}${names}${TYPE_NAME[f.kind] ? ` ${TYPE_NAME[f.kind]}` : ''}`;
      const def = defaultText(f, defaults);
      const note = f.deprecated ? ` (DEPRECATED: ${f.deprecated})` : '';
      return `${head}\n        ${f.help}${def ? ` (default ${def})` : ''}${note}`;
    });
  return `${SYNOPSIS}\n${lines.join('\n')}\n`;
}
