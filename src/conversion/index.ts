// Conversion between the versions of a kind that v1.27 serves in more than
// one (or, for Event, in two groups sharing one storage). Pure functions over
// JSON objects; every conversion goes through the kind's storage version, as
// Kubernetes' go through its internal version:
//
//   from ──toStorage──▶ storage version ──normalize──▶ ──fromStorage──▶ to
//
//   HorizontalPodAutoscaler     autoscaling/v2 ◀▶ v1          (autoscaling.ts)
//   PriorityLevelConfiguration  flowcontrol v1beta3 ◀▶ v1beta2 (flowcontrol.ts)
//   FlowSchema                  flowcontrol v1beta3 ◀▶ v1beta2 (same fields)
//   Event                       core v1 ◀▶ events.svc.io/v1   (events.ts)
//   SelfSubjectReview           authentication v1beta1 ◀▶ v1alpha1 (same fields; never stored)
//
// Any other kind converts only to its own version (identity). Groups are in
// the svc.io spelling ('' for core); a k8s.io spelling is accepted and the
// result's apiVersion is always svc.io-spelled.
//
// Defaults are not applied here. Kubernetes defaults a body in its request
// version on decode and an object in its storage version on every decode
// from storage, so a write in another version is: request defaults → convert
// → storage-version defaults → store (a behavior that came in through the v1
// annotation is filled by the v2 defaulter then). Reads need no defaulting.
import { toSvcGroup } from '../api/catalog/index.js';
import { hpaV1ToV2, hpaV2Normalize, hpaV2ToV1 } from './autoscaling.js';
import { coreEventToEventsV1, eventsV1ToCoreEvent } from './events.js';
import { priorityLevelV1beta2ToV1beta3, priorityLevelV1beta3ToV1beta2 } from './flowcontrol.js';

type Obj = Record<string, unknown>;
type Step = (o: Obj) => Obj;

export interface GroupVersion {
  /** svc.io spelling; '' for core. */
  readonly group: string;
  readonly version: string;
}

export interface KindConversion {
  readonly kind: string;
  /** The version objects are stored in, through which every conversion goes. */
  readonly storage: GroupVersion;
  /** The kind's other served versions, with the conversions to and from the storage version. */
  readonly others: readonly (GroupVersion & { readonly toStorage: Step; readonly fromStorage: Step })[];
  /** What decoding and encoding in the storage version itself changes, if anything. */
  readonly normalize?: Step;
}

/** The same fields under the same names: only apiVersion changes. */
const same: Step = (o) => o;

const FLOWCONTROL = 'flowcontrol.apiserver.svc.io';

const CONVERSIONS: readonly KindConversion[] = [
  {
    kind: 'HorizontalPodAutoscaler',
    storage: { group: 'autoscaling', version: 'v2' },
    others: [{ group: 'autoscaling', version: 'v1', toStorage: hpaV1ToV2, fromStorage: hpaV2ToV1 }],
    normalize: hpaV2Normalize,
  },
  {
    kind: 'PriorityLevelConfiguration',
    storage: { group: FLOWCONTROL, version: 'v1beta3' },
    others: [{ group: FLOWCONTROL, version: 'v1beta2', toStorage: priorityLevelV1beta2ToV1beta3, fromStorage: priorityLevelV1beta3ToV1beta2 }],
  },
  {
    kind: 'FlowSchema',
    storage: { group: FLOWCONTROL, version: 'v1beta3' },
    others: [{ group: FLOWCONTROL, version: 'v1beta2', toStorage: same, fromStorage: same }],
  },
  {
    kind: 'Event',
    storage: { group: '', version: 'v1' },
    others: [{ group: 'events.svc.io', version: 'v1', toStorage: eventsV1ToCoreEvent, fromStorage: coreEventToEventsV1 }],
  },
  {
    kind: 'SelfSubjectReview',
    storage: { group: 'authentication.svc.io', version: 'v1beta1' },
    others: [{ group: 'authentication.svc.io', version: 'v1alpha1', toStorage: same, fromStorage: same }],
  },
];

/** Every kind with more than one served version, and how its versions convert. */
export function kindConversions(): readonly KindConversion[] {
  return CONVERSIONS;
}

/** A conversion this module does not know: a kind or version pair that is not served together. */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

const sameGV = (a: GroupVersion, b: GroupVersion) => a.group === b.group && a.version === b.version;
const gvText = (gv: GroupVersion) => (gv.group === '' ? gv.version : `${gv.group}/${gv.version}`);
const canonical = (group: string, version: string): GroupVersion => ({ group: toSvcGroup(group), version });

/** The steps from one version to another; throws ConversionError for a pair not served together. */
function route(kind: string, from: GroupVersion, to: GroupVersion): Step[] {
  const entry = CONVERSIONS.find((c) => c.kind === kind && (sameGV(c.storage, from) || c.others.some((o) => sameGV(o, from))));
  const other = (gv: GroupVersion) => entry?.others.find((o) => sameGV(o, gv));
  if (!entry || !(sameGV(entry.storage, to) || other(to))) {
    if (sameGV(from, to)) return [];
    throw new ConversionError(`no conversion of ${kind} from ${gvText(from)} to ${gvText(to)}: not versions of one stored kind`);
  }
  const steps: Step[] = [];
  const a = other(from);
  if (a) steps.push(a.toStorage);
  if (entry.normalize) steps.push(entry.normalize);
  const b = other(to);
  if (b) steps.push(b.fromStorage);
  return steps;
}

/**
 * Whether an object of `kind` must be rewritten (beyond its apiVersion) to go
 * from one version to the other. Throws ConversionError for a pair not served
 * together.
 */
export function needsConversion(fromGroup: string, fromVersion: string, toGroup: string, toVersion: string, kind: string): boolean {
  return route(kind, canonical(fromGroup, fromVersion), canonical(toGroup, toVersion)).some((s) => s !== same);
}

/** Group and version of an apiVersion ("v1" is the core group), in the svc.io spelling. */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : canonical(apiVersion.slice(0, slash), apiVersion.slice(slash + 1));
}

/**
 * `obj` (which names its own apiVersion and kind) in the target version: a
 * new object, never sharing parts with `obj`, with kind and apiVersion (svc.io
 * spelling) first. Throws ConversionError for a pair not served together.
 */
export function convert(obj: Record<string, unknown>, to: { group: string; version: string; kind: string }): Record<string, unknown> {
  const { apiVersion, kind, ...body } = obj;
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new ConversionError('cannot convert an object without apiVersion');
  if (typeof kind !== 'string' || kind === '') throw new ConversionError('cannot convert an object without kind');
  const from = parseApiVersion(apiVersion);
  const target = canonical(to.group, to.version);
  if (kind !== to.kind) throw new ConversionError(`no conversion of ${kind} (${gvText(from)}) to ${to.kind} (${gvText(target)})`);
  let out: Obj = structuredClone(body);
  for (const step of route(kind, from, target)) out = step(out);
  return { kind, apiVersion: gvText(target), ...out };
}
