// networking/v1: Ingress, IngressClass, NetworkPolicy.
import type { S } from '../../../schema/index.js';
import { Ingress } from './ingress.js';
import { IngressClass } from './ingressclass.js';
import { NetworkPolicy } from './networkpolicy.js';

export const kinds: Readonly<Record<string, S>> = { Ingress, IngressClass, NetworkPolicy };
