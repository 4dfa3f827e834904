// The query of /containerLogs as the kubelet reads it: v1 PodLogOptions from
// the query string (`tail` as the old name of tailLines, `tail=all` for all),
// a value that does not decode → 400 `{"message": "Unable to decode query."}`,
// options that do not validate → 422 `{"message": "Invalid request."}`.
import { queryBool } from '../../endpoints/requestinfo.js';
import { parseTimestamp } from '../logs/crilog.js';
import type { LogOptions } from '../logs/read.js';

export interface ContainerLogQuery extends LogOptions {
  readonly previous: boolean;
}

export class LogQueryError extends Error {
  override readonly name = 'LogQueryError';
  constructor(readonly code: 400 | 422, message: string) {
    super(message);
  }
}

const UNDECODABLE = '{"message": "Unable to decode query."}';
const INVALID = '{"message": "Invalid request."}';

export function parseLogQuery(q: URLSearchParams, nowMs: number = Date.now()): ContainerLogQuery {
  const params = new URLSearchParams(q);
  const tail = params.get('tail');
  if (tail) {
    if (tail === 'all') params.delete('tailLines');
    else params.set('tailLines', tail);
  }
  const int = (key: string): number | undefined => {
    const v = params.get(key);
    if (v === null) return undefined;
    if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new LogQueryError(400, UNDECODABLE);
    return Number(v);
  };
  const tailLines = int('tailLines');
  const limitBytes = int('limitBytes');
  const sinceSeconds = int('sinceSeconds');
  const sinceTimeText = params.get('sinceTime');
  let sinceTimeNs: bigint | undefined;
  if (sinceTimeText !== null && sinceTimeText !== '') {
    try {
      sinceTimeNs = parseTimestamp(sinceTimeText);
    } catch {
      throw new LogQueryError(400, UNDECODABLE);
    }
  }
  if ((tailLines !== undefined && tailLines < 0) || (limitBytes !== undefined && limitBytes < 1)
    || (sinceSeconds !== undefined && sinceTimeNs !== undefined) || (sinceSeconds !== undefined && sinceSeconds < 1)) {
    throw new LogQueryError(422, INVALID);
  }
  // kube: since = now - sinceSeconds; a later sinceTime wins
  let sinceNs = sinceSeconds !== undefined ? BigInt(nowMs - sinceSeconds * 1000) * 1_000_000n : undefined;
  if (sinceTimeNs !== undefined && (sinceNs === undefined || sinceTimeNs > sinceNs)) sinceNs = sinceTimeNs;
  return {
    previous: queryBool(params, 'previous'),
    follow: queryBool(params, 'follow'),
    timestamps: queryBool(params, 'timestamps'),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
    ...(sinceNs !== undefined ? { sinceNs } : {}),
  };
}
