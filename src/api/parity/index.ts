// Parity of built-in kinds with the official OpenAPI documents, for every API
// group's parity.test.ts: reference.ts finds the documents, compare.ts
// compares shared types one at a time, transcripts.ts finds real objects,
// suite.ts puts them together as node:test suites.
export { REFERENCE_DIR, REFERENCE_RELEASES, documentName, loadDocument, type ReferenceRelease } from './reference.js';
export { componentDifferences, shortName, type CompareOptions } from './compare.js';
export { transcriptObjects, type FoundObject } from './transcripts.js';
export { parityTests, versionDifferences, type ParitySpec, type VersionKinds } from './suite.js';
