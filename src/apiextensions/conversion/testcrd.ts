// The CRD the conversion tests share: crontabs.stable.example.com, versions v1 (storage) and v2.
import type { CustomResourceDefinition } from '../types.js';

export function crontabs(conversion?: CustomResourceDefinition['spec']['conversion'], versions = ['v1', 'v2']): CustomResourceDefinition {
  return {
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      versions: versions.map((name, i) => ({ name, served: true, storage: i === 0 })),
      ...(conversion ? { conversion } : {}),
    },
  };
}
