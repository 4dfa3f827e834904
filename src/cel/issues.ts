// Issues: the errors a parse or a check reports, and cel-go's rendering of
// them (common.Errors.ToDisplayString):
//
//   ERROR: <input>:1:5: undeclared reference to 'a' (in container '')
//    | x + a
//    | ....^
//
// A location is a code point offset into the expression (-1 when there is
// none, shown as `:-1:0:`); lines are 1-based, columns 0-based internally and
// printed 1-based. The report sorts issues by line and column (stably), keeps
// the first 100 and counts the rest.

export interface Issue {
  message: string;
  /** Code point offset into the source; -1 when the issue has no location. */
  offset: number;
  /** The expression node the issue is about (0 when none). */
  exprId: number;
}

/** cel-go reports at most this many errors (common.Errors maxErrorsToReport). */
export const MAX_REPORTED_ISSUES = 100;

/** Where lines start, in code points; [0] is 0. */
export function lineOffsetsOf(text: string, surrogates = hasSurrogates(text)): number[] {
  const out = [0];
  const pairs = surrogates;
  let i = text.indexOf('\n');
  while (i >= 0) {
    out.push(pairs ? codePointIndex(text, i + 1) : i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return out;
}

const SURROGATE = /[\uD800-\uDFFF]/;
export function hasSurrogates(text: string): boolean {
  return SURROGATE.test(text);
}

/** The code point index of a UTF-16 index. */
export function codePointIndex(text: string, unitIndex: number): number {
  let cp = 0;
  for (let i = 0; i < unitIndex; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < unitIndex) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    cp++;
  }
  return cp;
}

/** UTF-16 index → code point index, fastest for increasing indexes. */
export function codePointMapper(text: string): (unitIndex: number) => number {
  let unit = 0;
  let cp = 0;
  return (target: number) => {
    if (target < unit) {
      unit = 0;
      cp = 0;
    }
    while (unit < target) {
      const c = text.charCodeAt(unit);
      unit += c >= 0xd800 && c <= 0xdbff && unit + 1 < text.length ? 2 : 1;
      cp++;
    }
    return cp;
  };
}

export interface Location {
  /** 1-based; -1 when there is no location. */
  line: number;
  /** 0-based, in code points; -1 when there is no location. */
  column: number;
}

/** Line and column of a code point offset (cel-go SourceInfo.GetLocationByOffset). */
export function locationOf(offset: number, lineOffsets: readonly number[]): Location {
  if (offset < 0) return { line: -1, column: -1 };
  let lo = 0;
  let hi = lineOffsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineOffsets[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - lineOffsets[lo] };
}

/** The offset of a line and column; -1 when the line does not exist. */
export function offsetOf(line: number, column: number, lineOffsets: readonly number[]): number {
  if (line < 1 || line > lineOffsets.length) return -1;
  return lineOffsets[line - 1] + column;
}

/** cel-go's display of a list of issues against the expression text. */
export function formatIssues(issues: readonly Issue[], source: string, description = '<input>'): string {
  const lineOffsets = lineOffsetsOf(source);
  const located = issues.map((issue, index) => ({ issue, index, loc: locationOf(issue.offset, lineOffsets) }));
  located.sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column || a.index - b.index);
  const out: string[] = [];
  const shown = Math.min(located.length, MAX_REPORTED_ISSUES);
  for (let i = 0; i < shown; i++) {
    const { issue, loc } = located[i];
    out.push(formatOne(issue.message, loc, source, lineOffsets, description));
  }
  if (located.length > MAX_REPORTED_ISSUES) {
    out.push(`${located.length - MAX_REPORTED_ISSUES} more errors were truncated`);
  }
  return out.join('\n');
}

const MAX_SNIPPET = 16384;

function formatOne(message: string, loc: Location, source: string, lineOffsets: readonly number[], description: string): string {
  let result = `ERROR: ${description}:${loc.line}:${loc.column + 1}: ${message}`;
  const snippet = snippetOf(source, loc.line, lineOffsets);
  if (snippet !== undefined && utf8Length(snippet) <= MAX_SNIPPET) {
    const line = snippet.replace(/\t/g, ' ');
    let ind = '';
    const cps = Array.from(line);
    let i = 0;
    for (; i < loc.column && i < cps.length; i++) ind += (cps[i].codePointAt(0) as number) > 0x7f ? '\uff0e' : '.';
    ind += i < cps.length && (cps[i].codePointAt(0) as number) > 0x7f ? '\uff3e' : '^';
    result += '\n | ' + line + '\n | ' + ind;
  }
  return result;
}

function snippetOf(source: string, line: number, lineOffsets: readonly number[]): string | undefined {
  if (line < 1 || line > lineOffsets.length) return undefined;
  const lines = source.split('\n');
  return lines[line - 1];
}

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
