// The group/version/kind of a write body, found as Kubernetes' decoder finds
// it, and the bodies it refuses for not being of the endpoint's kind.
//
// Create and update (POST, PUT, /status, /scale, reviews) decode the body
// with the endpoint's kind as the default for what the body leaves out:
//
//   apiVersion/kind not strings, apiVersion with two slashes
//       400 the object provided is unrecognized (must be of type K): couldn't get version/kind; … (<summary>)
//   no kind                 → the endpoint's kind
//   no apiVersion           → the endpoint's group/version
//   a group but no version  → the endpoint's version when the group is its group, else
//       400 K in version "" cannot be handled as a URLK: Object 'apiVersion' is missing in '<body>'
//   a kind the server's scheme does not know in that version
//       400 K in version "v" cannot be handled as a URLK: no kind "K" is registered for version "g/v" in scheme "…"
//   a known kind of another type than the endpoint's
//       400 K in version "v" cannot be handled as a URLK: converting (v.K) to (pkg.URLK): unknown conversion
//   the endpoint's type in another version (autoscaling/v1 HPA to autoscaling/v2, a core Event to
//   events.svc.io): decoded, then
//       400 the API version in the data (g/v) does not match the expected API version (g/v2)
//
// The scheme is what kube-apiserver registers: every version of every
// built-in group (served or not), their list kinds and subresource kinds, the
// option kinds and WatchEvent in each, and the kinds registered regardless of
// version (Status, …). CustomResourceDefinitions and APIServices are served
// from other schemes (apiextensions-apiserver's, kube-aggregator's), which
// know only their own group. Groups are compared in the svc.io spelling; a
// message shows a group as the request spelled it.
//
// DELETE bodies decode as DeleteOptions (the default kind; meta.svc.io/v1 the
// default version; DeleteOptions in any version); anything else fails as
// Kubernetes' meta scheme fails it — there with a 500, here with a 400 (a
// client mistake; see the README's deliberate differences).
//
// Server-side apply compares the applied object's group/version/kind with
// the endpoint's and refuses any other, missing parts included:
//   400 invalid object type: <group>/<version>, Kind=<kind>
import { allResources } from '../api/catalog/index.js';
import { newBadRequest, type StatusError } from '../api/meta/index.js';
import { canonicalGroup } from './requestinfo.js';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The kind an endpoint decodes bodies as: group in svc.io spelling ('' for core); `spelledGroup` as the request spelled it. */
export interface EndpointKind extends GroupVersionKind {
  readonly spelledGroup: string;
  /**
   * A custom resource's endpoint: bodies decode as unstructured objects (any kind; the CRD's
   * validation refuses another kind or apiVersion), not through a scheme.
   */
  readonly custom?: boolean;
}

/** Kubernetes' schema.ParseGroupVersion: '' and '/' are empty, no slash is a core version, one splits, more is an error. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } | Error {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** schema.GroupVersion.String(): `group/version`, or the version alone for the core group. */
export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** schema.GroupVersionKind.String(): `group/version, Kind=kind` (`/v1, Kind=ConfigMap` for core). */
export function gvkString(k: GroupVersionKind): string {
  return `${k.group}/${k.version}, Kind=${k.kind}`;
}

/** Kubernetes' summarizeData: the first 30 bytes of a body, as text when it starts with `{`, else in hex. */
export function summarizeBody(raw: Uint8Array): string {
  const data = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, 30);
  const text = data[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return data.length > 30 ? `${text} ...` : text;
}

// ---- the schemes ----

const LEGACY_SCHEME = 'pkg/api/legacyscheme/scheme.go:30';
/** apiextensions-apiserver's scheme (k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go). */
const APIEXTENSIONS_SCHEME = 'pkg/apiserver/apiserver.go:56';
/** kube-aggregator's scheme (k8s.io/kube-aggregator/pkg/apiserver/scheme/scheme.go). */
const AGGREGATOR_SCHEME = 'pkg/apiserver/scheme/scheme.go:32';
/** The meta scheme DeleteOptions bodies are decoded with (k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go). */
const META_SCHEME = 'pkg/apis/meta/internalversion/scheme/register.go:27';

const OPTION_KINDS = ['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions'];
/** Registered by kind name alone: any apiVersion creates them. */
const UNVERSIONED_KINDS = ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList'];
const META_GROUP = 'meta.svc.io';

/** A registered Go type: its name as Go prints it (`v1.Secret`) and the internal type it converts to (`/Secret`). */
interface RegisteredType {
  readonly goType: string;
  readonly internal: string;
}

interface Scheme {
  readonly name: string;
  /** By `group/version/kind`, group in svc.io spelling. */
  readonly types: Map<string, RegisteredType>;
  /** By kind name (the unversioned kinds). */
  readonly unversioned: Map<string, RegisteredType>;
}

const typeKey = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;

function schemeNameOf(group: string): string {
  if (group === 'apiextensions.svc.io') return APIEXTENSIONS_SCHEME;
  if (group === 'apiregistration.svc.io') return AGGREGATOR_SCHEME;
  return LEGACY_SCHEME;
}

let schemes: Map<string, Scheme> | undefined;

function newScheme(name: string): Scheme {
  const s: Scheme = { name, types: new Map(), unversioned: new Map() };
  for (const kind of UNVERSIONED_KINDS) s.unversioned.set(kind, { goType: `v1.${kind}`, internal: `${META_GROUP}/${kind}` });
  return s;
}

/** The schemes kube-apiserver decodes built-in bodies with, from the catalogue (built once). */
function allSchemes(): Map<string, Scheme> {
  if (schemes) return schemes;
  const out = new Map<string, Scheme>();
  const schemeOf = (group: string) => {
    const name = schemeNameOf(group);
    let s = out.get(name);
    if (!s) out.set(name, (s = newScheme(name)));
    return s;
  };
  const add = (group: string, version: string, kind: string, t: RegisteredType) => {
    const types = schemeOf(group).types;
    if (!types.has(typeKey(group, version, kind))) types.set(typeKey(group, version, kind), t);
  };
  const addOptions = (s: Scheme, group: string, version: string) => {
    for (const kind of OPTION_KINDS) {
      if (!s.types.has(typeKey(group, version, kind))) s.types.set(typeKey(group, version, kind), { goType: `v1.${kind}`, internal: `${META_GROUP}/${kind}` });
    }
  };
  for (const r of allResources()) {
    const internalGroup = r.sharesStorageWith?.group ?? r.group;
    const internalKind = r.sharesStorageWith?.kind ?? r.kind;
    add(r.group, r.version, r.kind, { goType: `${r.version}.${r.kind}`, internal: `${internalGroup}/${internalKind}` });
    add(r.group, r.version, r.listKind, { goType: `${r.version}.${r.listKind}`, internal: `${internalGroup}/${internalKind}List` });
    addOptions(schemeOf(r.group), r.group, r.version);
    for (const sub of r.subresources) {
      const g = sub.group ?? r.group;
      const v = sub.version ?? r.version;
      add(g, v, sub.kind, { goType: `${v}.${sub.kind}`, internal: `${g}/${sub.kind}` });
      addOptions(schemeOf(g), g, v);
    }
  }
  // The core group also registers List; apiextensions-apiserver adds the option kinds to core v1.
  add('', 'v1', 'List', { goType: 'v1.List', internal: '/List' });
  addOptions(schemeOf('apiextensions.svc.io'), '', 'v1');
  schemes = out;
  return out;
}

/** The type a scheme creates for a group/version/kind (group in svc.io spelling), if any. */
function registered(scheme: Scheme, group: string, version: string, kind: string): RegisteredType | undefined {
  return scheme.types.get(typeKey(group, version, kind)) ?? scheme.unversioned.get(kind);
}

/** The Go package of an internal type's group (`core`, `apps`, `rbac`, `apiserverinternal`). */
function internalPackage(group: string): string {
  if (group === '') return 'core';
  if (group === 'internal.apiserver.svc.io') return 'apiserverinternal';
  return group.split('.')[0]!;
}

// ---- create and update bodies ----

/** What decoding found: the body's group/version/kind (group as the body spelled it). */
export interface DecodedKind extends GroupVersionKind {
  /** The group in svc.io spelling. */
  readonly canonicalGroup: string;
  /** The body is in the endpoint's group and version (else only its type is the endpoint's). */
  readonly sameVersion: boolean;
}

/** apiVersion and kind as Kubernetes' meta factory reads them; a string or an Error worded as Go's JSON decoder. */
function interpret(body: Record<string, unknown>): { apiVersion: string; kind: string } | Error {
  let apiVersion = '';
  let kind = '';
  for (const key of Object.keys(body)) {
    if (key !== 'apiVersion' && key !== 'kind') continue;
    const v = body[key];
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') return new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(v)} into Go struct field .${key} of type string`);
    if (key === 'apiVersion') apiVersion = v;
    else kind = v;
  }
  return { apiVersion, kind };
}

function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  return 'object';
}

/** How a body's kind resolved: a decoded kind, or why not (Kubernetes' decoder error, and the kind to name in the message). */
type Resolution =
  | { readonly decoded: DecodedKind; readonly error?: undefined }
  | { readonly decoded?: undefined; readonly error: string; readonly kind?: string; readonly version?: string };

function resolveKind(body: Record<string, unknown>, raw: Uint8Array, endpoint: EndpointKind, defaults: EndpointKind): Resolution {
  const read = interpret(body);
  const gv = read instanceof Error ? read : parseGroupVersion(read.apiVersion);
  if (read instanceof Error) return { error: read.message };
  if (gv instanceof Error) return { error: gv.message };
  const kind = read.kind || defaults.kind;
  let { group, version } = gv;
  if (version === '' && group === '') {
    group = defaults.spelledGroup;
    version = defaults.version;
  } else if (version === '' && canonicalGroup(group) === defaults.group) {
    version = defaults.version;
  }
  if (version === '') return { error: `Object 'apiVersion' is missing in '${Buffer.from(raw).toString('utf8')}'`, kind, version };
  const canonical = canonicalGroup(group);
  if (endpoint.custom) return { decoded: { group, version, kind, canonicalGroup: canonical, sameVersion: canonical !== endpoint.group || version === endpoint.version } };
  const scheme = allSchemes().get(schemeNameOf(endpoint.group))!;
  const found = registered(scheme, canonical, version, kind);
  if (!found) {
    return { error: `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(groupVersionString(group, version))} in scheme ${JSON.stringify(scheme.name)}`, kind, version };
  }
  const target = registered(scheme, endpoint.group, endpoint.version, endpoint.kind);
  const targetInternal = target?.internal ?? `${endpoint.group}/${endpoint.kind}`;
  if (found.internal !== targetInternal) {
    const [internalGroup, internalKind] = splitInternal(targetInternal);
    return { error: `converting (${found.goType}) to (${internalPackage(internalGroup)}.${internalKind}): unknown conversion`, kind, version };
  }
  return { decoded: { group, version, kind, canonicalGroup: canonical, sameVersion: canonical === endpoint.group && version === endpoint.version } };
}

/**
 * The group/version/kind of a create or update body, with the endpoint's as
 * defaults; throws Kubernetes' 400 when the body is of no kind the scheme
 * knows or of another type than the endpoint's. A body of the endpoint's
 * type in another version is returned (`sameVersion` false): decode it as
 * that version, then refuse it with apiVersionMismatch.
 */
export function decodeBodyKind(body: Record<string, unknown>, raw: Uint8Array, endpoint: EndpointKind): DecodedKind {
  const r = resolveKind(body, raw, endpoint, endpoint);
  if (r.decoded) return r.decoded;
  if (r.kind === undefined) throw newBadRequest(`the object provided is unrecognized (must be of type ${endpoint.kind}): ${r.error} (${summarizeBody(raw)})`);
  throw newBadRequest(`${r.kind} in version ${JSON.stringify(r.version)} cannot be handled as a ${endpoint.kind}: ${r.error}`);
}

/**
 * A JSON or merge patch's result decodes into the endpoint's type with no
 * default but that type's own (a missing kind is the endpoint's, a missing
 * apiVersion its group's internal version); the decoder's error when it does
 * not, which Kubernetes reports as 422 on `patch`.
 */
export function patchedKindError(patched: Record<string, unknown>, endpoint: EndpointKind): string | undefined {
  const json = Buffer.from(JSON.stringify(patched));
  return resolveKind(patched, json, endpoint, { ...endpoint, spelledGroup: endpoint.group }).error;
}

function splitInternal(internal: string): [string, string] {
  const slash = internal.lastIndexOf('/');
  return [internal.slice(0, slash), internal.slice(slash + 1)];
}

/** A body of the endpoint's type in another version: 400, as Kubernetes refuses it after decoding. */
export function apiVersionMismatch(decoded: GroupVersionKind, endpoint: EndpointKind): StatusError {
  return newBadRequest(`the API version in the data (${groupVersionString(decoded.group, decoded.version)}) does not match the expected API version (${groupVersionString(endpoint.spelledGroup, endpoint.version)})`);
}

// ---- DELETE bodies ----

/** The meta scheme DeleteOptions bodies decode with: meta.svc.io/v1 and v1beta1 kinds; DeleteOptions, CreateOptions, UpdateOptions in any version. */
const META_V1_KINDS = new Set([...OPTION_KINDS, 'Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']);
const META_V1BETA1_KINDS = new Set(['Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']);
const META_UNVERSIONED = new Set(['DeleteOptions', 'CreateOptions', 'UpdateOptions', ...UNVERSIONED_KINDS]);

/**
 * Checks a DELETE body is DeleteOptions (missing kind and apiVersion default
 * to meta's DeleteOptions, `metaGroup` as the request spells meta's group).
 * Kubernetes answers the failures 500 with these messages; here they are 400.
 */
export function checkDeleteOptionsKind(body: Record<string, unknown>, raw: Uint8Array, metaGroup: string): void {
  const read = interpret(body);
  const gv = read instanceof Error ? read : parseGroupVersion(read.apiVersion);
  if (read instanceof Error) throw newBadRequest(read.message);
  if (gv instanceof Error) throw newBadRequest(gv.message);
  const kind = read.kind || 'DeleteOptions';
  let { group, version } = gv;
  if (version === '' && (group === '' || canonicalGroup(group) === META_GROUP)) {
    group = group || metaGroup;
    version = 'v1';
  }
  if (version === '') throw newBadRequest(`Object 'apiVersion' is missing in '${Buffer.from(raw).toString('utf8')}'`);
  if (kind === 'DeleteOptions') return;
  const g = canonicalGroup(group);
  const known = META_UNVERSIONED.has(kind) || (g === META_GROUP && ((version === 'v1' && META_V1_KINDS.has(kind)) || (version === 'v1beta1' && META_V1BETA1_KINDS.has(kind))));
  if (!known) throw newBadRequest(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(groupVersionString(group, version))} in scheme ${JSON.stringify(META_SCHEME)}`);
  throw newBadRequest(`converting (v1.${kind}) to (v1.DeleteOptions): unknown conversion`);
}

// ---- server-side apply ----

/** The applied object's group/version/kind as Kubernetes reads it from unstructured content: an unparsable apiVersion empties it all. */
export function appliedKind(config: Record<string, unknown>): GroupVersionKind {
  const apiVersion = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  const kind = typeof config.kind === 'string' ? config.kind : '';
  const gv = parseGroupVersion(apiVersion);
  if (gv instanceof Error) return { group: '', version: '', kind: '' };
  return { ...gv, kind };
}

/** Apply refuses an object of any other group/version/kind than the endpoint's (either group spelling is the group). */
export function checkAppliedKind(config: Record<string, unknown>, endpoint: GroupVersionKind): void {
  const k = appliedKind(config);
  if (canonicalGroup(k.group) !== endpoint.group || k.version !== endpoint.version || k.kind !== endpoint.kind) {
    throw newBadRequest(`invalid object type: ${gvkString(k)}`);
  }
}
