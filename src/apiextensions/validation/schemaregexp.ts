// Whether a schema `pattern` compiles as Go's regexp (RE2) compiles it, with
// Go's error text where we can tell: RE2 refuses Perl's lookarounds and
// backreferences, which JavaScript accepts; other syntax errors are found by
// JavaScript's parser (on the pattern rewritten by ../structural/re2.ts) and
// worded as RE2 words the common ones.
import { re2ToJs } from '../structural/re2.js';

/** Go's regexp.Compile error for `pattern`, or undefined when it compiles. */
export function regexpError(pattern: string): string | undefined {
  const perl = perlOnly(pattern);
  if (perl !== undefined) return perl;
  const js = re2ToJs(pattern);
  try {
    new RegExp(js.source, `${js.flags}u`);
    return undefined;
  } catch {
    try {
      new RegExp(js.source, js.flags);
      return undefined; // JavaScript's unicode mode is stricter than RE2 on some escapes
    } catch {
      return goWording(pattern);
    }
  }
}

/** RE2's refusal of Perl-only syntax (lookarounds, backreferences), escapes and classes skipped properly. */
function perlOnly(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      if (n >= '1' && n <= '9') return `error parsing regexp: invalid escape sequence: \`\\${n}\``;
      i++;
    } else if (c === '[') {
      // a class: its first ] (after an optional ^) is literal; escapes inside are skipped
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(') {
      const m = /^\(\?(<[=!]|[=!])/.exec(pattern.slice(i));
      if (m) return `error parsing regexp: invalid or unsupported Perl syntax: \`${m[0]}\``;
    }
  }
  return undefined;
}

function goWording(pattern: string): string {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return `error parsing regexp: unexpected ): \`${pattern}\``;
      depth--;
    }
  }
  if (depth > 0) return `error parsing regexp: missing closing ): \`${pattern}\``;
  if (/(^|[^\\])\[[^\]]*$/.test(pattern)) return `error parsing regexp: missing closing ]: \`${pattern.slice(pattern.lastIndexOf('['))}\``;
  const rep = /(^|[|(])([*+?])/.exec(pattern);
  if (rep) return `error parsing regexp: missing argument to repetition operator: \`${rep[2]}\``;
  return `error parsing regexp: invalid pattern: \`${pattern}\``;
}
