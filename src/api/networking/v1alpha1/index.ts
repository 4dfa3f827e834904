// networking/v1alpha1: ClusterCIDR and IPAddress (alpha, off by default).
import type { S } from '../../../schema/index.js';
import { ClusterCIDR } from './clustercidr.js';
import { IPAddress } from './ipaddress.js';

export const kinds: Readonly<Record<string, S>> = { ClusterCIDR, IPAddress };
