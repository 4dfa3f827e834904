// parseAgentArgs: the agent's command line (and its --config file) → one
// typed AgentConfig, as the kubelet v1.27 builds its configuration:
//
//   flags parsed (pflag)  ──► --help / --version: done, nothing else read
//        │
//   --config given? ── yes ─► file decoded strictly, SetDefaults over it
//        │ no                  (paths in it relative to its folder)
//        ▼
//   SetDefaults over nothing + the command line's legacy defaults
//        │
//   flags given on the command line set their fields (they win over the file;
//   feature gates merge per gate)
//        │
//   feature gates resolved → ValidateKubeletConfiguration → flag checks
//        │
//   typed views: eviction thresholds, reserved resources, log size
//
// Errors are AgentConfigError with kube's text; warnings (deprecated flags,
// GA gates set, ignored values) are returned for the CLI to print to stderr.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { parseQuantity } from '../../api/meta/quantity.js';
import { decodeKubeletConfigFile } from './decode.js';
import { applyLegacyDefaults, defaultFlags, defaultKubeletConfig } from './defaults.js';
import { aggregate, AgentConfigError } from './errors.js';
import { EvictionConfigError, parseThresholdConfig } from './eviction.js';
import { AGENT_FLAGS, type AgentFlag } from './flags.js';
import { mergeGates, resolveGates } from './gates.js';
import { parseFlagArgs, type FlagValue } from './pflag.js';
import { parseResourceList } from './resources.js';
import type { AgentConfig, AgentFlagsConfig, KubeletConfig } from './types.js';
import { parseNodeIps, validateAgentFlags, validateKubeletConfig } from './validate.js';

export interface ParseAgentOptions {
  /** Relative paths on the command line (and --config itself) start here. Default: process.cwd(). */
  readonly cwd?: string;
  /**
   * Accepted so the CLI can pass its environment; like the kubelet, the agent
   * reads no environment variable for its configuration.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Reads the --config file (tests pass a fake). Default: fs.readFileSync as UTF-8. */
  readonly readFile?: (path: string) => string;
}

export interface ParsedAgentArgs {
  readonly config: AgentConfig;
  /** For stderr, once each: deprecated flags used, GA gates set, values ignored. */
  readonly warnings: string[];
}

type Base = KubeletConfig & Omit<AgentFlagsConfig, 'nodeIps'>;

const FLAGS_BY_NAME = new Map<string, AgentFlag>(AGENT_FLAGS.map((f) => [f.name, f]));

export function parseAgentArgs(argv: readonly string[], opts: ParseAgentOptions = {}): ParsedAgentArgs {
  const cwd = opts.cwd ?? process.cwd();
  const readFile = opts.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const parsed = parseFlagArgs(AGENT_FLAGS, argv);
  const warnings = [...parsed.warnings];
  if (parsed.args.length > 0) throw new AgentConfigError('flag', `unknown command ${parsed.args[0]}`);

  const given = parsed.values;
  const early = given.get('help') === true || (given.get('version') !== undefined && given.get('version') !== false);
  const configArg = given.get('config') as string | undefined;
  const configFile = configArg ? resolve(cwd, configArg) : '';

  let kc: KubeletConfig;
  if (configFile && !early) {
    let text: string;
    try {
      text = readFile(configFile);
    } catch (err) {
      throw new AgentConfigError('file', `failed to load Kubelet config file ${configFile}, error failed to read kubelet config file ${JSON.stringify(configFile)}, error: ${(err as Error).message}`);
    }
    kc = defaultKubeletConfig(decodeKubeletConfigFile(text, configFile));
  } else {
    kc = defaultKubeletConfig();
    applyLegacyDefaults(kc);
  }
  const fileGates = kc.featureGates;
  const base: Base = { ...kc, ...defaultFlags() };

  for (const [name, value] of given) {
    const def = FLAGS_BY_NAME.get(name)!;
    setPath(base, def.field, flagToField(def, value, cwd));
  }
  base.configFile = configFile;
  if (early) return { config: finish(base, [], resolveGates({}), [], false), warnings };

  base.featureGates = mergeGates(fileGates, given.get('feature-gates') as Record<string, boolean> | undefined);
  const gates = resolveGates(base.featureGates);
  warnings.push(...gates.warnings);

  const errs = validateKubeletConfig(base, gates);
  if (errs.length) throw new AgentConfigError('validation', `failed to validate kubelet configuration, error: ${aggregate(errs)}`);
  const flagProblem = validateAgentFlags({ ...base, nodeIps: [] });
  if (flagProblem) throw new AgentConfigError('validation', `failed to validate kubelet flags: ${flagProblem}`);
  const nodeIps = parseNodeIps(base.nodeIp);
  if (typeof nodeIps === 'string') throw new AgentConfigError('validation', nodeIps);
  for (const ip of base.clusterDNS) if (isIP(ip) === 0) warnings.push(`Invalid clusterDNS IP, ignoring: ${ip}`);

  let thresholds;
  try {
    thresholds = parseThresholdConfig(base);
  } catch (err) {
    if (err instanceof EvictionConfigError) throw new AgentConfigError('validation', err.message);
    throw err;
  }
  return { config: finish(base, nodeIps, gates, thresholds, true), warnings };
}

/** The AgentConfig with its typed views (not checked for --help/--version, which read nothing else). */
function finish(base: Base, nodeIps: string[], gates: AgentConfig['gates'], evictionThresholds: AgentConfig['evictionThresholds'], check: boolean): AgentConfig {
  const reserved = (flag: string, m: Record<string, string>) => {
    if (!check) return {};
    const r = parseResourceList(m);
    if (typeof r === 'string') throw new AgentConfigError('validation', `--${flag} value failed to parse: ${r}`);
    return r;
  };
  const size = parseQuantity(base.containerLogMaxSize);
  return {
    ...base,
    imageServiceEndpoint: base.imageServiceEndpoint || base.containerRuntimeEndpoint,
    nodeIps,
    gates,
    evictionThresholds,
    kubeReservedResources: reserved('svc-reserved', base.kubeReserved),
    systemReservedResources: reserved('system-reserved', base.systemReserved),
    containerLogMaxSizeBytes: size ? Number(size.nanos / 1_000_000_000n) : 0,
  };
}

/** The value a flag writes into its field. */
function flagToField(def: AgentFlag, value: FlagValue, cwd: string): unknown {
  if (def.path && typeof value === 'string' && value !== '' && !isAbsolute(value)) return resolve(cwd, value);
  if (def.name === 'vmodule') return parseVModule(value as string);
  return value;
}

/** `--vmodule pattern=N,...` as klog's flag reads it. */
function parseVModule(value: string): { filePattern: string; verbosity: number }[] {
  const out: { filePattern: string; verbosity: number }[] = [];
  for (const pat of value.split(',')) {
    if (pat === '') continue;
    const parts = pat.split('=');
    const fail = (why: string) => new AgentConfigError('flag', `invalid argument ${JSON.stringify(value)} for "--vmodule" flag: ${why}`);
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw fail(`${JSON.stringify(pat)} does not have the pattern=N format`);
    if (!/^\d+$/.test(parts[1]!) || Number(parts[1]) >= 2 ** 31) throw fail(`parsing verbosity in ${JSON.stringify(pat)}: strconv.ParseUint: parsing ${JSON.stringify(parts[1])}: invalid syntax`);
    out.push({ filePattern: parts[0]!, verbosity: Number(parts[1]) });
  }
  return out;
}

function setPath(target: object, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = target as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[keys[keys.length - 1]!] = value;
}

/** A field's value by dotted path (for the help's defaults). */
export function getPath(source: object, path: string): unknown {
  let o: unknown = source;
  for (const k of path.split('.')) o = (o as Record<string, unknown> | undefined)?.[k];
  return o;
}
