// discovery/v1: EndpointSlice.
import type { S } from '../../../schema/index.js';
import { EndpointSlice } from './endpointslice.js';

export const kinds: Readonly<Record<string, S>> = { EndpointSlice };
