// admissionregistration/v1alpha1: ValidatingAdmissionPolicy and its bindings (alpha, off by default).
import type { S } from '../../../schema/index.js';
import { ValidatingAdmissionPolicyBinding } from './binding.js';
import { ValidatingAdmissionPolicy } from './policy.js';

export const kinds: Readonly<Record<string, S>> = { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding };
