// cel-go's encoders extension (ext/encoders.go).

import type { FunctionDecl } from '../decls.js';
import { T } from '../types.js';
import { fn, global } from '../checker/declare.js';

export const encodersFunctions: FunctionDecl[] = [
  fn('base64.decode', global('base64_decode_string', [T.string], T.bytes)),
  fn('base64.encode', global('base64_encode_bytes', [T.bytes], T.string)),
];
