// $(VAR) references in a command, expanded as the kubelet expands an exec
// probe's command (ExpandContainerCommandOnlyStatic): only the container's
// literal `env` values are known — a variable set through valueFrom counts
// as the empty string, an unknown reference stays as written; `$$` is a `$`.

/** Expands `$(NAME)` in `input` with `lookup`; an unknown name keeps its `$(NAME)` text. */
export function expandReferences(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      i++;
      continue;
    }
    const next = input[i + 1]!;
    if (next === '$') {
      out += '$';
      i += 2;
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += '$(';
        i += 2;
      } else {
        const name = input.slice(i + 2, close);
        out += lookup(name) ?? `$(${name})`;
        i = close + 1;
      }
    } else {
      out += '$' + next;
      i += 2;
    }
  }
  return out;
}

/** The container's `env` as the probe sees it: each name's literal `value` (later entries win), "" for valueFrom ones. */
export function staticEnv(env: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(env)) return out;
  for (const e of env) {
    if (typeof e !== 'object' || e === null) continue;
    const { name, value } = e as { name?: unknown; value?: unknown };
    if (typeof name === 'string') out.set(name, typeof value === 'string' ? value : '');
  }
  return out;
}

/** An exec probe's command with the container's static env expanded. */
export function expandCommand(command: readonly string[], env: unknown): string[] {
  const vars = staticEnv(env);
  return command.map((c) => expandReferences(c, (n) => vars.get(n)));
}
