// core/v1 parity with the official documents (src/api/parity), plus what that
// shared suite does not cover for the legacy group: that the transcripts hold
// core objects at all, TopologySelectorTerm (published only by
// storage.k8s.io), the few non-zero defaults the documents declare, and the
// protobuf numbers' uniqueness.
//
// v1.27 lies between the two documents. It added in-place pod resize
// (alpha): container resizePolicy, status resize, container statuses'
// allocatedResources and resources. v1.28 added sidecar containers
// (restartPolicy), host IPs, resource claim statuses, the PV phase transition
// time and the load balancer IP mode, and replaced the claim's resizeStatus
// with allocatedResourceStatuses; none of that is in v1.27.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectComponents } from '../../schema/openapi.js';
import { componentDifferences, loadDocument, parityTests, REFERENCE_DIR, REFERENCE_RELEASES, transcriptObjects } from '../parity/index.js';
import { CORE_PACKAGE, definitions, kinds as v1, PersistentVolumeSpec, TopologySelectorTerm } from './v1/index.js';

const NEW_IN_127 = 'new in v1.27 (InPlacePodVerticalScaling, alpha), so absent from the v1.26 document';
const RESIZE_STATUS = 'v1.28 replaced resizeStatus with allocatedResourceStatuses (RecoverVolumeExpansionFailure); v1.27 has resizeStatus';

parityTests({
  group: '',
  versions: { v1: { package: CORE_PACKAGE, kinds: v1 } },
  intended: {
    'v1.26.1 v1 Container resizePolicy: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1 EphemeralContainer resizePolicy: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1 ContainerResizePolicy: absent': NEW_IN_127,
    'v1.26.1 v1 ContainerStatus allocatedResources: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1 ContainerStatus resources: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1 PodStatus resize: extra: ours none, reference none': NEW_IN_127,
    'v1.28.0 v1 Container restartPolicy: missing: ours none, reference none': 'new in v1.28 (SidecarContainers); not in v1.27',
    'v1.28.0 v1 EphemeralContainer restartPolicy: missing: ours none, reference none': 'new in v1.28 (SidecarContainers); not in v1.27',
    'v1.28.0 v1 PodStatus hostIPs: missing: ours none, reference none': 'new in v1.28 (PodHostIPs); not in v1.27',
    'v1.28.0 v1 PodStatus resourceClaimStatuses: missing: ours none, reference none':
      'new in v1.28 (DynamicResourceAllocation claim statuses); not in v1.27',
    'v1.28.0 v1 PersistentVolumeStatus lastPhaseTransitionTime: missing: ours none, reference none':
      'new in v1.28 (PersistentVolumeLastPhaseTransitionTime); not in v1.27',
    'v1.28.0 v1 LoadBalancerIngress ipMode: missing: ours none, reference none': 'new after v1.27 (LoadBalancerIPMode); not in v1.27',
    'v1.28.0 v1 PersistentVolumeClaimStatus allocatedResourceStatuses: missing: ours none, reference none': RESIZE_STATUS,
    'v1.28.0 v1 PersistentVolumeClaimStatus resizeStatus: extra: ours none, reference none': RESIZE_STATUS,
  },
});

/** Every shared type the kinds use, by id (the kinds themselves included). */
const used = collectComponents({ properties: Object.fromEntries(Object.entries(v1).map(([k, s]) => [k, s.schema])) });

const skip = REFERENCE_DIR ? false : 'the reference (../shared/reference) is not beside the repository';

describe('core/v1 objects in the golden transcripts', { skip }, () => {
  // The suite validates them; this checks that it has something to validate.
  it('there are some, of the common kinds', () => {
    const seen = new Set(transcriptObjects('v1', Object.keys(v1)).map((f) => f.kind));
    for (const k of ['ConfigMap', 'Namespace', 'Pod', 'Secret', 'Service', 'ServiceAccount']) assert.ok(seen.has(k), `no ${k} in the transcripts`);
  });
});

describe('core/v1 pieces outside the core document', { skip }, () => {
  for (const release of REFERENCE_RELEASES) {
    it(`${release} TopologySelectorTerm (storage.k8s.io/v1)`, () => {
      const doc = loadDocument(release, 'storage.k8s.io', 'v1');
      assert.ok(doc);
      assert.deepEqual(componentDifferences([TopologySelectorTerm.schema], doc, { package: CORE_PACKAGE }), []);
    });
  }
  it('a use can override a marker of a shared type (claimRef is granular, ObjectReference atomic)', () => {
    const claimRef = PersistentVolumeSpec.schema.properties!.claimRef!;
    assert.equal(claimRef['x-kubernetes-map-type'], 'granular');
    assert.equal(claimRef.id, `${CORE_PACKAGE}.ObjectReference`);
  });
});

/** Defaults other than Go zero values (openapi-gen writes "", 0, false and {} for every non-pointer field). */
const meaningful = (v: unknown) => v !== undefined && v !== '' && v !== 0 && v !== false && !(typeof v === 'object' && v !== null && Object.keys(v).length === 0);

type WithProperties = { properties?: { [k: string]: { default?: unknown } } };

/** `component.property: default` for every meaningful default one level below each component. */
function defaultsOf(components: Iterable<[string, WithProperties]>): string[] {
  const out: string[] = [];
  for (const [id, c] of components) {
    for (const [p, s] of Object.entries(c.properties ?? {})) if (meaningful(s.default)) out.push(`${id}.${p}: ${JSON.stringify(s.default)}`);
  }
  return out.sort();
}

describe('core/v1 defaults', { skip }, () => {
  for (const release of REFERENCE_RELEASES) {
    it(`${release}: the meaningful defaults of the document, and no others`, () => {
      const table = loadDocument(release, '', 'v1')!.components!.schemas!;
      const theirs = [...used.keys()].flatMap((id): [string, WithProperties][] => (table[id] ? [[id, table[id] as WithProperties]] : []));
      assert.deepEqual(defaultsOf(used), defaultsOf(theirs));
    });
  }
});

describe('core/v1 protobuf numbers', () => {
  it('are unique within each type', () => {
    for (const [id, s] of used) {
      // Fields of an embedded Go struct (protoIn) are numbered within that struct's own message.
      const numbers = Object.values(s.properties ?? {}).flatMap((p) => (p.proto === undefined ? [] : [`${(p.protoIn ?? []).join('.')}:${p.proto}`]));
      assert.equal(new Set(numbers).size, numbers.length, id);
    }
  });
  it('Pod and its spec carry the numbers of generated.proto', () => {
    const spec = v1.Pod!.schema.properties!.spec!;
    assert.equal(spec.proto, 2);
    assert.equal(spec.properties!.containers!.proto, 2);
    assert.equal(spec.properties!.initContainers!.proto, 20);
    assert.equal(spec.properties!.ephemeralContainers!.proto, 34);
  });
});

describe('core/v1 definitions', () => {
  const ids = definitions.map((d) => d.schema.id!);
  it('one per id, covering every core type the kinds use', () => {
    assert.equal(new Set(ids).size, ids.length);
    const ours = [...used.keys()].filter((id) => id.startsWith(`${CORE_PACKAGE}.`));
    assert.deepEqual(ours.filter((id) => !ids.includes(id)), []);
  });
  it('are the definitions, not a use (ObjectReference is atomic, as claimRef is not)', () => {
    const ref = definitions.find((d) => d.schema.id === `${CORE_PACKAGE}.ObjectReference`)!;
    assert.equal(ref.schema['x-kubernetes-map-type'], 'atomic');
  });
});
