// Structural schemas of CustomResourceDefinitions (kube's
// pkg/apiserver/schema): whether a CRD schema converts (convert.ts,
// NewStructural's errors), the runtime Schema the request path prunes,
// defaults and validates with (runtime.ts, `toStructural`), and the value
// validations src/schema/validate.ts does not check — junctors and
// multipleOf — at request time (junctors.ts). The CRD-write checks of a
// schema live in ../validation/schema*.ts.
export { structuralError } from './convert.js';
export { toStructural, toStructuralNode, type MetaMode } from './runtime.js';
export { junctorValidator, validateJunctors, validateRe2, type JunctorValidator } from './junctors.js';
