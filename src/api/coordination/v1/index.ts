// coordination/v1: Lease.
import type { S } from '../../../schema/index.js';
import { Lease } from './lease.js';

export const kinds: Readonly<Record<string, S>> = { Lease };
