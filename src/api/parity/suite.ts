// The parity suite every API group runs (one parity.test.ts per group calls
// parityTests): for each served version,
//   - the kinds are exactly the catalogue's kinds of that group-version, and
//     each kind's id is `<package>.<Kind>`;
//   - against each reference release (v1.26.1 and v1.28.0, which bracket our
//     v1.27), every difference is listed in `intended` with its reason, and
//     every listed difference still occurs;
//   - objects of those kinds in the golden transcripts validate and have no
//     unknown fields.
// A difference is written `<release> <version> <difference>` (compare.ts),
// `<release>` may be `*` for both releases; a release that has no document
// for the version gives the one difference `<release> <version>: no document`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { group as catalogueGroup } from '../catalog/index.js';
import type { S } from '../../schema/dsl.js';
import type { Schema } from '../../schema/model.js';
import { collectComponents } from '../../schema/openapi.js';
import { unknownFields } from '../../schema/unknown.js';
import { validate } from '../../schema/validate.js';
import { componentDifferences, DEFAULT_SKIP } from './compare.js';
import { loadDocument, REFERENCE_DIR, REFERENCE_RELEASES } from './reference.js';
import { transcriptObjects } from './transcripts.js';

export interface VersionKinds {
  /** The OpenAPI package of the version's own types, e.g. `io.k8s.api.rbac.v1`. */
  package: string;
  kinds: Readonly<Record<string, S>>;
  /** Shared types, by id, whose comparison waits for another group's description, with the reason. */
  deferred?: Readonly<Record<string, string>>;
}

export interface ParitySpec {
  /** The group's name in either spelling (`rbac.authorization.svc.io` or `rbac.authorization.k8s.io`). */
  group: string;
  versions: Readonly<Record<string, VersionKinds>>;
  /** Every intended difference, with its reason. */
  intended: Readonly<Record<string, string>>;
}

/** Every difference of one version against both releases, as `<release> <version> <difference>`. */
export function versionDifferences(k8sGroup: string, version: string, v: VersionKinds): string[] {
  const out: string[] = [];
  for (const release of REFERENCE_RELEASES) {
    const doc = loadDocument(release, k8sGroup, version);
    if (doc === undefined) {
      out.push(`${release} ${version}: no document`);
      continue;
    }
    const diffs = componentDifferences(Object.values(v.kinds).map((k) => k.schema), doc, { package: v.package, skip: [...DEFAULT_SKIP, ...Object.keys(v.deferred ?? {})] });
    for (const d of diffs) out.push(`${release} ${version} ${d}`);
  }
  return out;
}

/** Whether `d` (`<release> <rest>`) is listed, exactly or with `*` for its release. */
const listed = (intended: Readonly<Record<string, string>>, d: string) => d in intended || `*${d.slice(d.indexOf(' '))}` in intended;

export function parityTests(spec: ParitySpec): void {
  const info = catalogueGroup(spec.group);
  if (info === undefined) throw new Error(`parity: no catalogue group ${spec.group}`);
  const k8sGroup = info.k8sName;
  describe(`${k8sGroup} kinds`, () => {
    for (const [version, v] of Object.entries(spec.versions)) {
      it(`${version}: the catalogue's kinds, each with its component id`, () => {
        const served = info.versions.find((x) => x.version === version);
        assert.ok(served, `the catalogue does not serve ${version}`);
        assert.deepEqual(Object.keys(v.kinds).sort(), [...new Set(served.resources.map((r) => r.kind))].sort());
        for (const [name, k] of Object.entries(v.kinds)) assert.equal(k.schema.id, `${v.package}.${name}`);
        const used = new Map<string, Schema>();
        for (const k of Object.values(v.kinds)) collectComponents(k.schema, used);
        assert.deepEqual(Object.keys(v.deferred ?? {}).filter((id) => !used.has(id)), [], 'deferred types that no kind uses');
      });
    }
  });

  const skip = REFERENCE_DIR ? false : 'the reference (../shared/reference) is not beside the repository';
  describe(`${k8sGroup} parity with the v1.26.1 and v1.28.0 documents`, { skip }, () => {
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

  describe(`${k8sGroup} objects in the golden transcripts`, { skip }, () => {
    for (const [version, v] of Object.entries(spec.versions)) {
      it(`${version}: validate with no unknown fields`, () => {
        for (const found of transcriptObjects(`${k8sGroup}/${version}`, Object.keys(v.kinds))) {
          const schema = v.kinds[found.kind]!.schema;
          assert.deepEqual(validate(schema, found.object), [], found.where);
          assert.deepEqual(unknownFields(schema, found.object), [], found.where);
        }
      });
    }
  });
}
