// Work estimation (kube's flowcontrol/request, v1.27): how many seats a
// request occupies, and for how long after its handler ends.
//  - list: one seat per 100 objects it will process (from the cache: the
//    stored count; with a selector: stored + limit; from storage: 2 × limit),
//    between 1 and 10 seats; an unknown count costs 1 seat.
//  - watch: a list's estimate when it asks for its initial events
//    (sendInitialEvents, the WatchList gate), else 1 seat.
//  - create, update, patch, delete: 1 seat; with 10 or more watchers of the
//    resource, ceil(watchers / 10) final seats (at most 10) held for the time
//    their events take, 5 ms of seat time per 10 watchers.
//  - anything else: 1 seat.
import type { RequestInfo } from '../endpoints/requestinfo.js';
import type { WorkEstimate } from './queueset.js';

export const MINIMUM_SEATS = 1;
export const MAXIMUM_SEATS = 10;
export const OBJECTS_PER_SEAT = 100;
export const WATCHES_PER_SEAT = 10;
export const EVENT_ADDITIONAL_DURATION_MS = 5;

export interface ResourceCounts {
  /** How many objects the resource holds (undefined: not known). */
  objects(group: string, resource: string): number | undefined;
  /** How many watchers the resource has. */
  watchers(group: string, resource: string): number;
}

const MIN: WorkEstimate = { initialSeats: MINIMUM_SEATS, finalSeats: 0, additionalLatencyMs: 0 };
const MUTATING = new Set(['create', 'update', 'patch', 'delete']);

const clampSeats = (n: number) => Math.min(MAXIMUM_SEATS, Math.max(MINIMUM_SEATS, n));

function listEstimate(info: RequestInfo & { isResourceRequest: true }, query: URLSearchParams, counts: ResourceCounts): WorkEstimate {
  const stored = counts.objects(info.apiGroup, info.resource);
  if (stored === undefined) return MIN;
  const rv = query.get('resourceVersion');
  const limitParam = Number(query.get('limit') ?? '0');
  const limit = limitParam > 0 && limitParam < stored ? limitParam : stored;
  // kube's shouldDelegateList, negated: a watch's initial events, or a resourceVersion without continue,
  // without a limit (unless "0") and not Exact, are served from the watch cache
  const fromCache = info.verb === 'watch' ||
    (rv !== null && rv !== '' && !query.get('continue') && !(limitParam > 0 && rv !== '0') && query.get('resourceVersionMatch') !== 'Exact');
  const selector = (query.get('labelSelector') ?? '') !== '' || (query.get('fieldSelector') ?? '') !== '';
  const processed = fromCache ? stored : selector ? stored + limit : 2 * limit;
  return { initialSeats: clampSeats(Math.ceil(processed / OBJECTS_PER_SEAT)), finalSeats: 0, additionalLatencyMs: 0 };
}

export function estimateWork(info: RequestInfo, query: URLSearchParams, counts: ResourceCounts, watchList: boolean): WorkEstimate {
  if (!info.isResourceRequest) return MIN;
  if (info.verb === 'list') return listEstimate(info, query, counts);
  if (info.verb === 'watch') return watchList && query.get('sendInitialEvents') === 'true' ? listEstimate(info, query, counts) : MIN;
  if (MUTATING.has(info.verb)) {
    const watchers = counts.watchers(info.apiGroup, info.resource);
    if (watchers < WATCHES_PER_SEAT) return MIN;
    const needed = Math.ceil(watchers / WATCHES_PER_SEAT);
    const finalWorkMs = needed * EVENT_ADDITIONAL_DURATION_MS;
    const finalSeats = Math.min(needed, MAXIMUM_SEATS);
    return { initialSeats: MINIMUM_SEATS, finalSeats, additionalLatencyMs: finalWorkMs / finalSeats };
  }
  return MIN;
}
