// Go's RE2 syntax in JavaScript: schema patterns are Go regular expressions,
// and some of their syntax has no JavaScript spelling — flag groups
// ((?i), (?s), (?m), (?i:…)), \A and \z, POSIX classes ([[:alpha:]]), \Q…\E.
// `re2ToJs` rewrites those into an equivalent JavaScript source and flags
// (a flag group anywhere sets the flag for the whole pattern: close enough
// for the patterns CRDs carry, which put it first); everything else is kept.
// src/schema/validate.ts compiles patterns with `new RegExp(p, 'u')`, which
// throws on (?i): it should compile `re2ToJs(p)` instead.

const POSIX: { [name: string]: string } = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

const escapeLiteral = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** The JavaScript source and flags that match what the RE2 `pattern` matches. */
export function re2ToJs(pattern: string): { source: string; flags: string } {
  const flags = new Set<string>();
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === 'A') (out += '^'), i++;
      else if (n === 'z') (out += '$(?![\\s\\S])'), i++;
      else if (n === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const lit = pattern.slice(i + 2, end < 0 ? undefined : end);
        out += escapeLiteral(lit);
        i = end < 0 ? pattern.length : end + 1;
      } else (out += c + (n ?? '')), i++;
      continue;
    }
    if (c === '[' && pattern.startsWith('[:', i)) {
      // inside a class (RE2 knows them nowhere else); negated ones are left as written
      const m = /^\[:([a-z]+):\]/.exec(pattern.slice(i));
      if (m && POSIX[m[1]!] !== undefined) {
        out += POSIX[m[1]!];
        i += m[0].length - 1;
        continue;
      }
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const m = /^\(\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(pattern.slice(i));
      if (m) {
        for (const f of m[1]!) if (f !== 'U') flags.add(f);
        out += m[3] === ':' ? '(?:' : '';
        i += m[0].length - 1;
        continue;
      }
      if (pattern.startsWith('(?P<', i)) {
        out += '(?<';
        i += 3;
        continue;
      }
    }
    out += c;
  }
  return { source: out, flags: [...flags].sort().join('') };
}
