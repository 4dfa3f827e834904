// A profile's plugins from its configuration (kube's defaulting merge and
// the framework's multiPoint expansion): v1.27's default MultiPoint set less
// what multiPoint disables ("*" for all), plus what it enables; then each
// extension point's own enabled plugins first, followed by the multiPoint
// plugins implementing that point that it does not disable. Score weights:
// the score point's, else multiPoint's, else the default's, else 1.
import type { PluginSet, ProfileConfig } from './config.js';
import { SchedulerConfigError } from './config.js';
import type { Plugin } from './framework.js';
import { BUILT_IN, DEFAULT_PLUGINS, EXTENSION_POINTS, NOT_IMPLEMENTED, PLUGIN_FACTORIES, type PluginHandle } from './plugins/index.js';
import { Profile, type ScorePluginEntry } from './profile.js';

interface Entry {
  readonly name: string;
  readonly weight?: number;
}

function disables(set: PluginSet | undefined, name: string): boolean {
  return (set?.disabled ?? []).some((d) => d.name === name || d.name === '*');
}

function multiPoint(set: PluginSet | undefined): Entry[] {
  const custom = set?.enabled ?? [];
  const out: Entry[] = [];
  for (const d of DEFAULT_PLUGINS) {
    if (disables(set, d.name)) continue;
    const override = custom.find((c) => c.name === d.name);
    out.push(override ? { name: d.name, weight: override.weight ?? d.weight } : d);
  }
  for (const c of custom) if (!out.some((e) => e.name === c.name)) out.push(c);
  return out;
}

/** The names enabled at `point`: its own first, then multiPoint's that implement it and are not disabled there. */
function atPoint(point: 'filter' | 'score' | 'postFilter', mp: readonly Entry[], set: PluginSet | undefined): Entry[] {
  const out: Entry[] = [...(set?.enabled ?? [])];
  for (const e of mp) {
    if (!(EXTENSION_POINTS[e.name] ?? []).includes(point)) continue;
    if (disables(set, e.name) || out.some((o) => o.name === e.name)) continue;
    out.push(e);
  }
  return out;
}

export function buildProfile(cfg: ProfileConfig, handle: PluginHandle): Profile {
  const fail = (m: string) => new SchedulerConfigError(`creating profile for scheduler name ${cfg.schedulerName}: ${m}`);
  const plugins = cfg.plugins ?? {};
  const mp = multiPoint(plugins.multiPoint);
  const filters = atPoint('filter', mp, plugins.filter);
  const scores = atPoint('score', mp, plugins.score);
  const postFilter = atPoint('postFilter', mp, plugins.postFilter);
  const args = new Map((cfg.pluginConfig ?? []).map((c) => [c.name, c.args]));
  const made = new Map<string, Plugin>();
  const instance = (name: string, point: string): Plugin => {
    const have = made.get(name);
    if (have) return have;
    const factory = PLUGIN_FACTORIES[name];
    if (!factory) {
      if (NOT_IMPLEMENTED.has(name)) throw fail(`plugin ${JSON.stringify(name)} is not implemented by this scheduler`);
      throw fail(`${JSON.stringify(name)} does not exist`);
    }
    if (!(EXTENSION_POINTS[name] ?? []).includes(point as 'filter')) throw fail(`plugin ${JSON.stringify(name)} does not extend ${point} plugin`);
    const p = factory(args.get(name) ?? {}, handle);
    made.set(name, p);
    return p;
  };
  // Defaults that are not built here are left out (the volume plugins); named explicitly, they are refused.
  const explicit = new Set(Object.values(plugins).flatMap((s) => (s?.enabled ?? []).map((e) => e.name)));
  const usable = (e: Entry) => !BUILT_IN.has(e.name) && (explicit.has(e.name) || !NOT_IMPLEMENTED.has(e.name));
  const scoreEntries: ScorePluginEntry[] = scores.filter(usable).map((e) => {
    const weight = e.weight ?? mp.find((m) => m.name === e.name)?.weight ?? 1;
    return { plugin: instance(e.name, 'score'), weight: weight === 0 ? 1 : weight };
  });
  for (const p of postFilter) if (p.name !== 'DefaultPreemption' && usable(p)) instance(p.name, 'postFilter');
  return new Profile({
    schedulerName: cfg.schedulerName,
    filters: filters.filter(usable).map((e) => instance(e.name, 'filter')),
    scores: scoreEntries,
    preemption: postFilter.some((p) => p.name === 'DefaultPreemption'),
  });
}
