// Command-line flags in the style of Go's pflag (as kube-apiserver takes
// them): --name=value, --name value, boolean --name / --name=false, Go
// durations (1m30s), key=value maps (--runtime-config) that merge when the
// flag is repeated, string slices (comma-separated) and string arrays (one
// value each) that add up when the flag is repeated (the first use replaces
// the default). Unknown or malformed flags throw a FlagError whose
// message says what is wrong; the entry point prints it and exits 1.
import { DurationError, parseGoDuration } from '../api/meta/goduration.js';

export type FlagType = 'string' | 'int' | 'bool' | 'duration' | 'strings' | 'stringArray' | 'map';

export interface FlagSpec {
  readonly name: string;
  readonly type: FlagType;
  readonly help: string;
  readonly default?: string | number | boolean | readonly string[];
  /** pflag's MarkDeprecated message: using the flag prints `Flag --<name> has been deprecated, <message>`. */
  readonly deprecated?: string;
}

export type FlagValue = string | number | boolean | string[] | Record<string, string>;

export class FlagError extends Error {
  override readonly name = 'FlagError';
}

export interface Parsed {
  readonly values: Map<string, FlagValue>;
  readonly args: string[];
  /** pflag's lines for the deprecated flags used, once per flag, for stderr. */
  readonly warnings: string[];
}

/** pflag's notice for a deprecated flag that is set. */
export function deprecatedFlagWarning(name: string, message: string): string {
  return `Flag --${name} has been deprecated, ${message}`;
}

/** Parses a Go duration ("300ms", "1m30s", "0") into milliseconds. */
export function parseDuration(s: string): number {
  try {
    return parseGoDuration(s);
  } catch (err) {
    if (err instanceof DurationError) throw new FlagError(`invalid duration ${JSON.stringify(s)} (examples: 30s, 1m30s, 500ms)`);
    throw err;
  }
}

/**
 * `k1=v1,k2,k3=v3` as kube's ConfigurationMap reads it: items split on commas
 * (empty ones skipped), key and value trimmed, a key without `=` gets ''.
 */
export function parseMap(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of raw.split(',')) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) out[item.trim()] = '';
    else out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  return out;
}

function convert(spec: FlagSpec, raw: string): FlagValue {
  switch (spec.type) {
    case 'string':
      return raw;
    case 'strings':
      return raw === '' ? [] : raw.split(',');
    case 'stringArray':
      return [raw];
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw new FlagError(`invalid value ${JSON.stringify(raw)} for --${spec.name}: must be an integer`);
      return Number(raw);
    }
    case 'bool': {
      if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(raw)) return true;
      if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(raw)) return false;
      throw new FlagError(`invalid value ${JSON.stringify(raw)} for --${spec.name}: must be true or false`);
    }
    case 'map':
      return parseMap(raw);
    case 'duration':
      try {
        return parseDuration(raw);
      } catch (err) {
        throw new FlagError(`invalid value for --${spec.name}: ${(err as Error).message}`);
      }
  }
}

export function parseFlags(specs: readonly FlagSpec[], argv: readonly string[]): Parsed {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const values = new Map<string, FlagValue>();
  for (const s of specs) if (s.default !== undefined) values.set(s.name, (Array.isArray(s.default) ? [...s.default] : s.default) as FlagValue);
  const args: string[] = [];
  const warnings: string[] = [];
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      args.push(a);
      continue;
    }
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const spec = byName.get(name);
    if (!spec) throw new FlagError(`unknown flag: --${name}`);
    let raw: string;
    if (eq >= 0) raw = body.slice(eq + 1);
    else if (spec.type === 'bool') raw = 'true';
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
      raw = argv[++i]!;
    }
    const value = convert(spec, raw);
    const prev = values.get(name);
    const repeated = given.has(name);
    if (spec.deprecated !== undefined && !repeated) warnings.push(deprecatedFlagWarning(name, spec.deprecated));
    given.add(name);
    // A repeated map flag adds to the earlier pairs (a later key wins); repeated lists add up.
    if (spec.type === 'map' && typeof prev === 'object' && !Array.isArray(prev)) values.set(name, { ...prev, ...(value as Record<string, string>) });
    else if ((spec.type === 'strings' || spec.type === 'stringArray') && repeated && Array.isArray(prev)) values.set(name, [...prev, ...(value as string[])]);
    else values.set(name, value);
  }
  return { values, args, warnings };
}

export function usage(specs: readonly FlagSpec[]): string {
  return specs
    .map((s) => `  --${s.name}${s.type === 'bool' ? '' : ` ${s.type === 'map' ? 'mapStringString' : s.type}`}\n      ${s.help}${s.default !== undefined && s.default !== '' ? ` (default ${JSON.stringify(s.default)})` : ''}${s.deprecated !== undefined ? ` (DEPRECATED: ${s.deprecated})` : ''}`)
    .join('\n');
}
