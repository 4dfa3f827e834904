// Runtime implementations of cel-go's encoders extension (ext/encoders.go).

import type { OverloadImpl } from '../decls.js';
import { base64Decode, base64Encode } from '../runtime/base64.js';
import { unary } from '../runtime/impl.js';

export const encodersImpls: OverloadImpl[] = [
  unary('base64_decode_string', base64Decode),
  unary('base64_encode_bytes', base64Encode),
];
