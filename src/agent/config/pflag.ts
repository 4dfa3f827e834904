// A pflag-like parser for the agent's flags, as the kubelet's flag set takes
// them: `--flag=value`, `--flag value`, bools `--flag` / `--flag=false`,
// shorthands `-v 2` / `-v=2` / `-v2`, `--` ending the flags, `_` read as `-`
// (kube's word-separator normalization). Each kind sets as its pflag Value
// does: string slices and maps replace their default on the first use and
// add up on later ones. Errors carry pflag's texts.
import { isIP } from 'node:net';
import { DurationError, parseGoDuration } from '../../api/meta/goduration.js';
import { AgentConfigError } from './errors.js';
import { parseTaints, TaintError, type Taint } from './taints.js';

export type FlagKind =
  | 'string' | 'bool' | 'int32' | 'int64' | 'float' | 'duration' | 'ip'
  | 'strings' // StringSlice: comma-separated (CSV), adds up when repeated
  | 'map' // MapStringString: k=v,k2=v2
  | 'langleMap' // LangleSeparatedMapStringString: k<v,k2<v2
  | 'multimap' // ColonSeparatedMultimapStringString: k:v,k:v2 (repeatable)
  | 'boolMap' // MapStringBool: k=true,k2=false
  | 'taints'
  | 'version'; // bool or "raw"

export type FlagValue = string | boolean | number | string[] | Record<string, string> | Record<string, string[]> | Record<string, boolean> | Taint[];

export interface FlagDef {
  readonly name: string;
  /** Other spellings that set the same value (kube's names for ours). */
  readonly aliases?: readonly string[];
  readonly shorthand?: string;
  readonly kind: FlagKind;
  readonly help: string;
  /** pflag's Deprecated text: printed as `Flag --x has been deprecated, <text>` when used. */
  readonly deprecated?: string;
  /** The default as the help shows it (kube's text). */
  readonly defaultText?: string;
}

export interface ParsedFlags {
  /** Final value of each flag given, by canonical name, in the order first given. */
  readonly values: Map<string, FlagValue>;
  /** Positional arguments. */
  readonly args: string[];
  /** Deprecation warnings, once per flag, in the order met. */
  readonly warnings: string[];
}

const flagError = (message: string) => new AgentConfigError('flag', message);

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function parseGoBool(s: string): boolean {
  if (GO_TRUE.has(s)) return true;
  if (GO_FALSE.has(s)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(s)}: invalid syntax`);
}

function parseGoInt(s: string, bits: 32 | 64): number {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)$/.exec(s);
  if (!m) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  const body = m[2]!;
  const n = /^0\d/.test(body) ? parseInt(body, 8) : Number(body);
  const v = m[1] === '-' ? -n : n;
  const max = bits === 32 ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(v) || v > max || v < -max - 1) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
  return v;
}

function parseGoFloat(s: string): number {
  if (!/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|[Ii]nf(inity)?|NaN)$/.test(s)) throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s.replace(/^([+-]?)[Ii]nf(inity)?$/, '$1Infinity'));
}

/** encoding/csv's reading of one record, as pflag's string slices read their value. */
function readCsv(s: string): string[] {
  if (s === '') return [];
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (s[i] === '"') {
      i++;
      for (;;) {
        if (i >= s.length) throw new Error(`parse error on line 1, column ${s.length + 1}: extraneous or missing " in quoted-field`);
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += s[i++];
      }
      if (i < s.length && s[i] !== ',') throw new Error(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
    } else {
      const end = s.indexOf(',', i);
      field = end < 0 ? s.slice(i) : s.slice(i, end);
      if (field.includes('"')) throw new Error(`parse error on line 1, column ${i + field.indexOf('"') + 1}: bare " in non-quoted-field`);
      i = end < 0 ? s.length : end;
    }
    out.push(field);
    if (i >= s.length) return out;
    i++; // the comma
  }
}

function splitPairs(value: string, sep: string, valueType = 'string'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of value.split(',')) {
    const s = raw.trim();
    if (s === '') continue;
    const at = s.indexOf(sep);
    if (at < 0) throw new Error(`malformed pair, expect string${sep}${valueType}`);
    out[s.slice(0, at).trim()] = s.slice(at + 1).trim();
  }
  return out;
}

function multimap(value: string, prev: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = { ...prev };
  for (const pair of value.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf(':');
    if (at < 0) throw new Error('malformed pair, expect string:string');
    const k = pair.slice(0, at).trim();
    out[k] = [...(out[k] ?? []), pair.slice(at + 1).trim()];
  }
  return out;
}

/** The value after one Set, given the value so far (undefined on the first use: defaults are replaced). */
function setValue(def: FlagDef, raw: string, prev: FlagValue | undefined): FlagValue {
  switch (def.kind) {
    case 'string':
      return raw;
    case 'bool':
      return parseGoBool(raw);
    case 'version':
      return raw === 'raw' ? 'raw' : parseGoBool(raw);
    case 'int32':
      return parseGoInt(raw, 32);
    case 'int64':
      return parseGoInt(raw, 64);
    case 'float':
      return parseGoFloat(raw);
    case 'duration':
      try {
        return parseGoDuration(raw);
      } catch (err) {
        if (err instanceof DurationError) throw new Error(err.message);
        throw err;
      }
    case 'ip':
      if (raw !== '' && isIP(raw) === 0) throw new Error(`${JSON.stringify(raw)} is not a valid IP address`);
      return raw;
    case 'strings':
      return [...((prev as string[] | undefined) ?? []), ...readCsv(raw)];
    case 'map':
      return { ...((prev as Record<string, string> | undefined) ?? {}), ...splitPairs(raw, '=') };
    case 'langleMap':
      return { ...((prev as Record<string, string> | undefined) ?? {}), ...splitPairs(raw, '<') };
    case 'boolMap': {
      const out: Record<string, boolean> = { ...((prev as Record<string, boolean> | undefined) ?? {}) };
      for (const [k, v] of Object.entries(splitPairs(raw, '=', 'bool'))) {
        try {
          out[k] = parseGoBool(v);
        } catch (err) {
          throw new Error(`invalid value of ${k}: ${v}, err: ${(err as Error).message}`);
        }
      }
      return out;
    }
    case 'multimap':
      return multimap(raw, (prev as Record<string, string[]> | undefined) ?? {});
    case 'taints':
      try {
        return parseTaints(raw);
      } catch (err) {
        if (err instanceof TaintError) throw new Error(err.message);
        throw err;
      }
  }
}

/** Kinds that take no argument when written bare (`--flag`). */
const NO_ARG: Partial<Record<FlagKind, string>> = { bool: 'true', version: 'true' };

export function parseFlagArgs(defs: readonly FlagDef[], argv: readonly string[]): ParsedFlags {
  const byName = new Map<string, FlagDef>();
  const byShort = new Map<string, FlagDef>();
  for (const d of defs) {
    for (const n of [d.name, ...(d.aliases ?? [])]) {
      if (byName.has(n)) throw new Error(`flag redefined: ${n}`); // a programming error
      byName.set(n, d);
    }
    if (d.shorthand) byShort.set(d.shorthand, d);
  }
  const values = new Map<string, FlagValue>();
  const args: string[] = [];
  const warnings: string[] = [];
  const warned = new Set<string>();

  const set = (def: FlagDef, typed: string, raw: string) => {
    let value: FlagValue;
    try {
      value = setValue(def, raw, values.get(def.name));
    } catch (err) {
      const shown = def.shorthand ? `-${def.shorthand}, --${def.name}` : `--${typed}`;
      throw flagError(`invalid argument ${JSON.stringify(raw)} for ${JSON.stringify(shown)} flag: ${(err as Error).message}`);
    }
    values.set(def.name, value);
    if (def.deprecated && !warned.has(typed)) {
      warned.add(typed);
      warnings.push(`Flag --${typed} has been deprecated, ${def.deprecated}`);
    }
  };

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (a.length < 2 || a[0] !== '-') {
      args.push(a);
      continue;
    }
    if (a.startsWith('--')) {
      const body = a.slice(2);
      if (body === '' || body[0] === '-' || body[0] === '=') throw flagError(`bad flag syntax: ${a}`);
      const eq = body.indexOf('=');
      const typed = (eq >= 0 ? body.slice(0, eq) : body).replaceAll('_', '-');
      const def = byName.get(typed);
      if (!def) throw flagError(`unknown flag: --${typed}`);
      let raw: string;
      if (eq >= 0) raw = body.slice(eq + 1);
      else if (NO_ARG[def.kind] !== undefined) raw = NO_ARG[def.kind]!;
      else if (i + 1 < argv.length) raw = argv[++i]!;
      else throw flagError(`flag needs an argument: --${typed}`);
      set(def, typed, raw);
      continue;
    }
    // shorthand: -v 2, -v=2, -v2, -h
    const c = a[1]!;
    const def = byShort.get(c);
    if (!def) throw flagError(`unknown shorthand flag: '${c}' in ${a}`);
    let raw: string;
    if (a.length > 2 && a[2] === '=') raw = a.slice(3);
    else if (NO_ARG[def.kind] !== undefined) {
      if (a.length > 2) throw flagError(`unknown shorthand flag: '${a[2]}' in ${a}`);
      raw = NO_ARG[def.kind]!;
    } else if (a.length > 2) raw = a.slice(2);
    else if (i + 1 < argv.length) raw = argv[++i]!;
    else throw flagError(`flag needs an argument: '${c}' in -${c}`);
    set(def, def.name, raw);
  }
  return { values, args, warnings };
}
