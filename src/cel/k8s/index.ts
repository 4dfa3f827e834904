// The Kubernetes side of the CEL engine:
//   schema.ts    structural schema → CEL type (kube's names and bounds)
//   convert.ts   JSON data → runtime values for double/bytes/timestamp/duration
//   formats.ts   the string formats' parsers (Go/strfmt durations, date-times, base64)
//   escaping.ts  property-name escaping
//   lists.ts     set/map list-type equality and concatenation (called by the interpreter)
//   gourl.ts     Go's net/url for the URL library
//   lib/         the libraries: lists, regex, urls, authz (declarations and
//                implementations); authzsession.ts bridges synchronous evaluation
//                and src/authz's (possibly asynchronous) Authorizer

import type { Library } from '../decls.js';
import { listsLibrary } from './lib/lists.js';
import { regexLibrary } from './lib/regex.js';
import { urlsLibrary } from './lib/urls.js';
import { authzLibrary } from './lib/authz.js';

export { schemaType, schemaTypeAndConverter, withTypeAndObjectMeta, MAX_REQUEST_SIZE_BYTES, type Schema, type SchemaTypeOptions } from './schema.js';
export { converterOf, valueOf, type Converter } from './convert.js';
export { escape, unescape } from './escaping.js';
export { k8sListConcat, k8sListEquals, listKindOf, needsTypedEquality, typedEquals, type K8sList } from './lists.js';
export { listsLibrary, regexLibrary, urlsLibrary, authzLibrary };
export { URLValue, URL_TYPE } from './lib/urls.js';
export {
  AuthzSession, AuthzPending, evaluateWithAuthorizer, authorizerFor, requestResourceCheck,
  AUTHORIZER_TYPE, PATH_CHECK_TYPE, GROUP_CHECK_TYPE, RESOURCE_CHECK_TYPE, DECISION_TYPE,
} from './lib/authz.js';

/** The libraries every Kubernetes CEL environment of v1.27 has (CRD rules and
 * admission policies); the authorizer library is added for admission policies. */
export const k8sLibraries: readonly Library[] = [listsLibrary, regexLibrary, urlsLibrary];
