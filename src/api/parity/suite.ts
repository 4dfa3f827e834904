// The parity suite every API group runs (one parity.test.ts per group calls
// parityTests): for each served version,
//   - the kinds are the catalogue's kinds of that group-version, plus any
//     subresource kinds it owns (autoscaling/v1 Scale, policy/v1 Eviction),
//     and each kind's id is `<package>.<Kind>`;
//   - against each reference release (v1.26.1 and v1.28.0, which bracket our
//     v1.27), every difference is listed in `intended` with its reason, and
//     every listed difference still occurs; a subresource kind is compared in
//     the document of the first group-version that serves it (Scale and
//     Eviction appear only in the documents of their parents, e.g. core/v1);
//   - each shared type is compared once, by the group that owns it: core/v1
//     types that core's kinds use are compared by core's suite, and other
//     groups check only their uses of them (which type, markers at the use);
//     types are taken as written at their definitions (meta/v1's, core/v1's
//     `definitions`, and a version's own), so that a use overriding a marker
//     (a Deployment's retainKeys strategy) is not taken for the type;
//   - objects of those kinds that the server answered or sent in the golden
//     transcripts validate and have no unknown fields (requests are left out:
//     some carry unknown or invalid fields on purpose).
// A difference is written `<release> <version> <difference>` (compare.ts),
// `<release>` may be `*` for both releases; a release that has no document
// for the version gives the one difference `<release> <version>: no document`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allResources, group as catalogueGroup, type GroupInfo } from '../catalog/index.js';
import type { S } from '../../schema/dsl.js';
import type { Schema } from '../../schema/model.js';
import { collectComponents } from '../../schema/openapi.js';
import { unknownFields } from '../../schema/unknown.js';
import { validate } from '../../schema/validate.js';
import * as common from '../../schema/common.js';
import { CORE_PACKAGE, definitions as coreDefinitions, kinds as coreKinds } from '../core/v1/index.js';
import { componentDifferences, DEFAULT_SKIP } from './compare.js';
import { loadDocument, REFERENCE_DIR, REFERENCE_RELEASES } from './reference.js';
import { apiVersionOf, transcriptObjects } from './transcripts.js';

export interface VersionKinds {
  /** The OpenAPI package of the version's own types, e.g. `io.k8s.api.rbac.v1`. */
  package: string;
  kinds: Readonly<Record<string, S>>;
  /** Shared types, by id, whose comparison waits for another group's description, with the reason. */
  deferred?: Readonly<Record<string, string>>;
  /** The version's own types as written at their definitions, when a use of one overrides a marker (core/v1's are always known). */
  definitions?: readonly S[];
}

export interface ParitySpec {
  /** The group's name in either spelling (`rbac.authorization.svc.io` or `rbac.authorization.k8s.io`). */
  group: string;
  versions: Readonly<Record<string, VersionKinds>>;
  /** Every intended difference, with its reason. */
  intended: Readonly<Record<string, string>>;
}

function catalogueInfo(groupName: string): GroupInfo {
  const info = catalogueGroup(groupName);
  if (info === undefined) throw new Error(`parity: no catalogue group ${groupName}`);
  return info;
}

/** The kinds of the group-version's resources. */
function resourceKinds(info: GroupInfo, version: string): string[] {
  const served = info.versions.find((x) => x.version === version);
  return [...new Set((served?.resources ?? []).map((r) => r.kind))].sort();
}

/** Subresource kinds that belong to the group-version, each with the group-version (Kubernetes spelling) of its first parent. */
function subresourceKinds(info: GroupInfo, version: string): Map<string, { k8sGroup: string; version: string }> {
  const out = new Map<string, { k8sGroup: string; version: string }>();
  for (const r of allResources()) {
    for (const s of r.subresources) {
      if (s.group === info.name && s.version === version && !out.has(s.kind)) out.set(s.kind, { k8sGroup: catalogueInfo(r.group).k8sName, version: r.version });
    }
  }
  return out;
}

/** Shared types as written at their definitions: the meta/v1 pieces and core/v1's. */
const SHARED_DEFINITIONS: readonly S[] = [...common.definitionsOf(common), ...coreDefinitions];

/** The core/v1 types core's own parity test compares; other groups check only their uses of them. */
let coreCompared: readonly string[] | undefined;
function comparedByCore(): readonly string[] {
  if (coreCompared === undefined) {
    const used = new Map<string, Schema>();
    for (const k of Object.values(coreKinds)) collectComponents(k.schema, used);
    coreCompared = [...used.keys()].filter((id) => id.startsWith(`${CORE_PACKAGE}.`));
  }
  return coreCompared;
}

/** Every difference of one version against both releases, as `<release> <version> <difference>`. */
export function versionDifferences(k8sGroup: string, version: string, v: VersionKinds): string[] {
  const info = catalogueInfo(k8sGroup);
  const own = new Set(resourceKinds(info, version));
  const elsewhere = subresourceKinds(info, version);
  // Which document each kind is compared in: the version's own, or its parent's for a subresource kind.
  const byDocument = new Map<string, { k8sGroup: string; version: string; kinds: Schema[] }>();
  for (const [name, k] of Object.entries(v.kinds)) {
    const where = own.has(name) ? { k8sGroup, version } : elsewhere.get(name) ?? { k8sGroup, version };
    const key = `${where.k8sGroup}/${where.version}`;
    if (!byDocument.has(key)) byDocument.set(key, { ...where, kinds: [] });
    byDocument.get(key)!.kinds.push(k.schema);
  }
  const out: string[] = [];
  for (const release of REFERENCE_RELEASES) {
    for (const d of byDocument.values()) {
      const doc = loadDocument(release, d.k8sGroup, d.version);
      if (doc === undefined) {
        out.push(`${release} ${version}: no document${d.k8sGroup === k8sGroup && d.version === version ? '' : ` (${apiVersionOf(d.k8sGroup, d.version)})`}`);
        continue;
      }
      const diffs = componentDifferences(d.kinds, doc, {
        package: v.package,
        skip: [...DEFAULT_SKIP, ...(v.package === CORE_PACKAGE ? [] : comparedByCore()), ...Object.keys(v.deferred ?? {})],
        definitions: [...SHARED_DEFINITIONS, ...(v.definitions ?? [])].map((x) => x.schema),
      });
      for (const x of diffs) out.push(`${release} ${version} ${x}`);
    }
  }
  return out;
}

/** Whether `d` (`<release> <rest>`) is listed, exactly or with `*` for its release. */
const listed = (intended: Readonly<Record<string, string>>, d: string) => d in intended || `*${d.slice(d.indexOf(' '))}` in intended;

export function parityTests(spec: ParitySpec): void {
  const info = catalogueInfo(spec.group);
  const k8sGroup = info.k8sName;
  describe(`${k8sGroup || 'core'} kinds`, () => {
    for (const [version, v] of Object.entries(spec.versions)) {
      it(`${version}: the catalogue's kinds, each with its component id`, () => {
        assert.ok(info.versions.some((x) => x.version === version), `the catalogue does not serve ${version}`);
        const resources = resourceKinds(info, version);
        const subresources = subresourceKinds(info, version);
        assert.deepEqual(resources.filter((k) => !(k in v.kinds)), [], 'resource kinds without a schema');
        assert.deepEqual(Object.keys(v.kinds).filter((k) => !resources.includes(k) && !subresources.has(k)), [], 'kinds the catalogue does not serve here');
        for (const [name, k] of Object.entries(v.kinds)) assert.equal(k.schema.id, `${v.package}.${name}`);
        const used = new Map<string, Schema>();
        for (const k of Object.values(v.kinds)) collectComponents(k.schema, used);
        assert.deepEqual(Object.keys(v.deferred ?? {}).filter((id) => !used.has(id)), [], 'deferred types that no kind uses');
      });
    }
  });

  const skip = REFERENCE_DIR ? false : 'the reference (../shared/reference) is not beside the repository';
  describe(`${k8sGroup || 'core'} parity with the v1.26.1 and v1.28.0 documents`, { skip }, () => {
    for (const [version, v] of Object.entries(spec.versions)) {
      it(`${version}: every difference is intended`, () => {
        const diffs = versionDifferences(k8sGroup, version, v);
        assert.deepEqual(diffs.filter((d) => !listed(spec.intended, d)), []);
      });
    }
    it('every intended difference still occurs', () => {
      const all = Object.entries(spec.versions).flatMap(([version, v]) => versionDifferences(k8sGroup, version, v));
      const keys = new Set(all.flatMap((d) => [d, `*${d.slice(d.indexOf(' '))}`]));
      assert.deepEqual(Object.keys(spec.intended).filter((k) => !keys.has(k)), []);
    });
  });

  describe(`${k8sGroup || 'core'} objects in the golden transcripts`, { skip }, () => {
    for (const [version, v] of Object.entries(spec.versions)) {
      it(`${version}: validate with no unknown fields`, () => {
        for (const found of transcriptObjects(apiVersionOf(k8sGroup, version), Object.keys(v.kinds)).filter((f) => !f.where.includes('.request.'))) {
          const schema = v.kinds[found.kind]!.schema;
          assert.deepEqual(validate(schema, found.object), [], found.where);
          assert.deepEqual(unknownFields(schema, found.object), [], found.where);
        }
      });
    }
  });
}
