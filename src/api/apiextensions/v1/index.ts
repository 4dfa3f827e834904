// apiextensions/v1: CustomResourceDefinition.
import type { S } from '../../../schema/index.js';
import { CustomResourceDefinition } from './crd.js';

export const kinds: Readonly<Record<string, S>> = { CustomResourceDefinition };
