// The golden callbacks of the webhook-* scenarios (shared/reference/transcripts/
// golden/<scenario>.callbacks.json): the AdmissionReviews kube-apiserver sent
// the scenario webhook and what it answered. The scenario tool's `compare`
// does not check them, so this replays each scenario with the tool's own
// runner, takes the lines the scenario webhook logged meanwhile, normalises
// them with the transcript as shared/tools/webhook/callbacks.mjs does, and
// compares them field by field with the golden ones (placeholders matched by
// a consistent renaming, as `compare` does).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Lib = Record<string, any>;
const lib = async (shared: string, file: string): Promise<Lib> => (await import(pathToFileURL(join(shared, 'tools/scenario/lib', file)).href)) as Lib;

export interface CallbacksCheck {
  readonly shared: string;
  readonly server: string;
  readonly token: string;
  /** The scenario webhook's --log file. */
  readonly log: string;
  readonly maps: readonly string[];
}

/** Differences between our callbacks and the golden ones, as `<scenario> / callback[i] <path>: <what>`. */
export async function compareCallbacks(c: CallbacksCheck, scenarios: readonly string[]): Promise<string[]> {
  const [{ makeClient }, { runScenario }, { normalise, canonicalManagedFields }, { unify }, { parseMaps, rewrite }] = await Promise.all(
    ['http.mjs', 'runner.mjs', 'normalise.mjs', 'compare.mjs', 'mapping.mjs'].map((f) => lib(c.shared, f)),
  );
  const map = parseMaps(c.maps);
  const client = makeClient({ server: c.server, token: c.token });
  const lines = () => readFileSync(c.log, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const out: string[] = [];
  try {
    for (const name of scenarios) {
      const goldenFile = join(c.shared, `reference/transcripts/golden/${name}.callbacks.json`);
      if (!existsSync(goldenFile)) continue;
      const scenario = JSON.parse(readFileSync(join(c.shared, `reference/transcripts/scenarios/${name}.json`), 'utf8'));
      const before = lines().length;
      const raw = await runScenario(client, scenario, { map });
      const entries = lines().slice(before).map((l) => JSON.parse(l));
      // callbacks.mjs: each callback a pseudo step after the transcript's, normalised together with it
      const pseudo = entries.map((e: any, i: number) => ({
        name: `callback[${i + 1}]`,
        request: { method: 'POST', path: e.query ? `${e.path}?${e.query}` : e.path, headers: {}, body: e.review },
        response: { status: 200, headers: {}, body: e.answer },
      }));
      const mine = (normalise([...raw, ...pseudo], { server: c.server }) as any[]).slice(raw.length)
        .map((s, i) => canonicalManagedFields({ path: s.request.path, rule: entries[i].rule, review: s.request.body, answer: s.response.body }));
      const golden = canonicalManagedFields(rewrite(JSON.parse(readFileSync(goldenFile, 'utf8')).callbacks, map)) as any[];
      const ctx = { g2o: new Map(), o2g: new Map() };
      const diff = (where: string, g: unknown, o: unknown): void => {
        if (typeof g === 'string' && typeof o === 'string') {
          if (!unify(g, o, ctx)) out.push(`${where}: ${JSON.stringify(o)}, golden ${JSON.stringify(g)}`);
        } else if (Array.isArray(g) && Array.isArray(o)) {
          if (g.length !== o.length) out.push(`${where}: ${o.length} items, golden ${g.length}`);
          else g.forEach((v, i) => diff(`${where}[${i}]`, v, o[i]));
        } else if (g && o && typeof g === 'object' && typeof o === 'object' && !Array.isArray(g) && !Array.isArray(o)) {
          for (const k of new Set([...Object.keys(g), ...Object.keys(o)])) {
            const gv = (g as Record<string, unknown>)[k];
            const ov = (o as Record<string, unknown>)[k];
            if (gv === undefined || ov === undefined) {
              if (gv !== ov) out.push(`${where}.${k}: ${ov === undefined ? 'missing' : JSON.stringify(ov)}, golden ${gv === undefined ? 'none' : JSON.stringify(gv)}`);
            } else diff(`${where}.${k}`, gv, ov);
          }
        } else if (JSON.stringify(g) !== JSON.stringify(o)) out.push(`${where}: ${JSON.stringify(o)}, golden ${JSON.stringify(g)}`);
      };
      if (mine.length !== golden.length) {
        out.push(`${name}: ${mine.length} callbacks (${mine.map((m) => m.path).join(', ')}), golden ${golden.length} (${golden.map((g) => g.path).join(', ')})`);
        continue;
      }
      golden.forEach((g, i) => diff(`${name} / callback[${i + 1}] ${g.path}`, g, mine[i]));
    }
  } finally {
    client.close();
  }
  return out;
}
