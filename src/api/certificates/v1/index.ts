// certificates/v1: CertificateSigningRequest.
import type { S } from '../../../schema/index.js';
import { CertificateSigningRequest } from './csr.js';

export const kinds: Readonly<Record<string, S>> = { CertificateSigningRequest };
