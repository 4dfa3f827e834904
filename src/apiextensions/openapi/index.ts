// OpenAPI of custom resources: what /openapi/v2 and /openapi/v3 publish of each
// served version of every Established CustomResourceDefinition, as kube-apiserver
// v1.27's apiextensions OpenAPI controllers do (pkg/controller/openapi/builder).
//
//   names.ts    definition names (com.example.stable.v1.CronTab), operation ids, tags, descriptions
//   schema.ts   the version's openAPIV3Schema as published (v2 and v3 forms), the List schema
//   routes.ts   the paths and operations of one version (list, create, …, status, scale)
//   build.ts    a CRD → its published versions (routes + components) per spelling of its group
//   set.ts      the published CRDs between updates: unchanged CRDs are not rebuilt
//
// The seam: OpenAPIService.setCustomResources(crds) (src/openapi/service.ts) takes the
// CRDs and splices them into the served documents; nothing here serves HTTP.
export { definitionName } from './names.js';
export { isEstablished, publishedVersions, type PublishedVersion } from './build.js';
export { CustomResourceSet, type SetChange } from './set.js';
export { kindSchema, listSchema } from './schema.js';
