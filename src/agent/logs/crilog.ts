// One line of a CRI container log file, as the runtime writes it and kube's
// kuberuntime/logs parses it:
//
//   <RFC3339Nano timestamp> <stdout|stderr> <tags> <content>\n
//
// tags are `:`-separated; the first is `P` (a partial line: the runtime cut a
// long line, and the next entry continues it) or `F` (the line is full). A
// full entry's content keeps its newline; a partial entry's trailing newline
// (the file's line separator) is dropped, so joining entries in order gives
// back the container's output.

export type LogStream = 'stdout' | 'stderr';

export interface LogEntry {
  /** The timestamp as written (for output, reformatted by `formatTimestamp`). */
  readonly timestamp: string;
  /** Nanoseconds since the epoch, for since-filters. */
  readonly timeNs: bigint;
  readonly stream: LogStream;
  readonly partial: boolean;
  /** The content; ends with '\n' for a full line read with its separator. */
  readonly content: Buffer;
}

export class LogParseError extends Error {
  override readonly name = 'LogParseError';
}

const SPACE = 0x20;
const NL = 0x0a;
const TS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Parses one line (with or without its trailing newline); throws LogParseError with kube's wording. */
export function parseCriLine(line: Buffer): LogEntry {
  let rest = line;
  const field = (what: string): string => {
    const i = rest.indexOf(SPACE);
    if (i < 0) throw new LogParseError(`${what} is not found`);
    const v = rest.subarray(0, i).toString('latin1');
    rest = rest.subarray(i + 1);
    return v;
  };
  const timestamp = field('timestamp');
  const timeNs = parseTimestamp(timestamp);
  const stream = field('stream type');
  if (stream !== 'stdout' && stream !== 'stderr') throw new LogParseError(`unexpected stream type "${stream}"`);
  const tags = field('log tag');
  const partial = tags.split(':')[0] === 'P';
  let content = rest;
  if (partial && content.length > 0 && content[content.length - 1] === NL) content = content.subarray(0, content.length - 1);
  return { timestamp, timeNs, stream, partial, content };
}

/** RFC3339 with up to nine fraction digits → nanoseconds since the epoch. */
export function parseTimestamp(ts: string): bigint {
  const m = TS.exec(ts);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new LogParseError(`parsing time "${ts}" as RFC3339Nano failed`);
  return BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** Go's time.Format(RFC3339Nano) of a parsed timestamp: trailing fraction zeros (and a bare '.') dropped. */
export function formatTimestamp(ts: string): string {
  const m = TS.exec(ts);
  if (!m) return ts;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return `${m[1]}${frac ? `.${frac}` : ''}${m[3]}`;
}

/** One entry in the runtime's format (what a runtime writes; tests and tools). */
export function formatCriLine(time: Date | string, stream: LogStream, partial: boolean, content: string): string {
  const ts = typeof time === 'string' ? time : time.toISOString();
  return `${ts} ${stream} ${partial ? 'P' : 'F'} ${content}\n`;
}
