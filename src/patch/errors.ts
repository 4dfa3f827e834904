// PatchError: every failure of the patch library, typed by `kind`, and the one
// mapping of a kind to the Status Kubernetes v1.27 answers with.
//
// Source: k8s.io/apiserver pkg/endpoints/handlers/patch.go (applyJSPatch,
// strategicPatchObject, interpretStrategicMergePatchError) and apimachinery
// pkg/api/errors NewGenericServerResponse; checked against the golden transcripts
// (patch-01-merge, patch-03-json):
//
//   kind               code  reason                 message
//   malformed          400   BadRequest             the decoder's text, e.g. "error decoding patch: unexpected end of JSON input"
//   tooManyOperations  413   RequestEntityTooLarge  "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got N"
//   notApplicable      422   Invalid                "the server rejected our request due to an error in our request", details {}
//                                                   (JSON patch apply failures: failed test, missing path, bad index, unknown op;
//                                                    the evanphx text is dropped from the body; kept here in .message for logs)
//   badDirective       400   BadRequest             the mergepatch sentinel text, e.g. "invalid patch format of retainKeys"
//   unprocessable      422   Invalid                the generic 422 message above ("lists of lists are not supported" is dropped)
//   internal           500   (none)                 the error text itself, no details (apiserver's ErrorToAPIStatus for a
//                                                   non-Status error: missing merge key, unknown $patch, type mismatches)
//   panic              422   Invalid                evanphx/json-patch v4 dereferences a nil pointer (see jsonpatch.ts); the
//                                                   API server panics (a plain-text 500); a client mistake, so answered
//                                                   like notApplicable here (deliberate difference, README)
//
// Not covered here: an unknown patch Content-Type (415) and strategic merge patch on
// kinds without a Go-typed schema (custom resources, 415 "the body of the request was
// in an unknown format - accepted media types include: application/json-patch+json,
// application/merge-patch+json, application/apply-patch+yaml") are the caller's.
import { StatusError, newBadRequest, newRequestEntityTooLarge } from '../api/meta/index.js';

export type PatchErrorKind = 'malformed' | 'tooManyOperations' | 'notApplicable' | 'badDirective' | 'unprocessable' | 'internal' | 'panic';

export class PatchError extends Error {
  override readonly name = 'PatchError';
  constructor(readonly kind: PatchErrorKind, message: string) {
    super(message);
  }
}

export function isPatchError(err: unknown): err is PatchError {
  return err instanceof PatchError;
}

/** NewGenericServerResponse(422, …, isUnexpectedResponse=false): the server text is not kept. */
export const UNPROCESSABLE_MESSAGE = 'the server rejected our request due to an error in our request';

/** The Status the API server answers for a PatchError. */
export function patchErrorToStatus(err: PatchError): StatusError {
  switch (err.kind) {
    case 'malformed':
    case 'badDirective':
      return newBadRequest(err.message);
    case 'tooManyOperations':
      return newRequestEntityTooLarge(err.message);
    case 'notApplicable':
    case 'unprocessable':
    // Where evanphx v4 dereferences a nil pointer, kube-apiserver panics and answers a plain-text 500.
    // These are client mistakes (e.g. a "test" without a value): answered like any patch that does
    // not apply (a deliberate difference, README).
    case 'panic':
      return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: UNPROCESSABLE_MESSAGE, reason: 'Invalid', details: {}, code: 422 });
    case 'internal':
      return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, code: 500 });
  }
}
