// Field paths and field sets (structured-merge-diff's `fieldpath` package),
// in three modules: path.ts (path elements: order, FieldsV1 spelling,
// conflict printing), fieldset.ts (FieldSet, a trie of paths, and its
// algebra) and fieldsv1.ts (the FieldsV1 encoding Kubernetes stores in
// managedFields). Import from here.
export * from './path.js';
export { FieldSet, type Entry } from './fieldset.js';
export { encodedFieldsV1JSON, fromFieldsV1, toFieldsV1, type FieldsV1 } from './fieldsv1.js';
