// A realistic pod body (labels, annotations, containers with env, ports,
// probes, resources, volume mounts, volumes, a toleration).
//
// - full (default): 10 labels, 6 annotations, an app container with 16 env
//   vars and a log-shipper sidecar with 6: the request body is about 3.5 KiB
//   of JSON (the validation, apply and smd benchmarks); as stored and listed —
//   defaulted, with status and metadata.managedFields — about 8.5 KiB.
// - compact: 5 labels, 3 annotations, the app container alone (2 env vars
//   from fields, no args, a readiness probe only): listed, about 4 KiB (the
//   list and watch benchmarks, whose issue sizes its pods at about 4 KiB of
//   JSON each).

export function podBody(name: string, i: number, shape: 'full' | 'compact' = 'full'): string {
  const compact = shape === 'compact';
  const first = <T>(entries: [string, T][], n: number) => Object.fromEntries(compact ? entries.slice(0, n) : entries);
  const app = `app-${i % 50}`;
  const hash = (i * 2654435761 >>> 0).toString(16).padStart(8, '0');
  const env = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, k) => ({ name: `${prefix}_SETTING_${k}`, value: `value-${k}-${hash}-${'x'.repeat(16)}` }));
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: first<string>(Object.entries({
        app,
        'app.kubernetes.io/name': app,
        'app.kubernetes.io/instance': `${app}-prod`,
        'app.kubernetes.io/version': '1.24.3',
        'app.kubernetes.io/component': 'backend',
        'app.kubernetes.io/part-of': 'bench-platform',
        'app.kubernetes.io/managed-by': 'bench',
        'pod-template-hash': hash,
        tier: 'backend',
        environment: 'production',
      }), 5),
      annotations: first<string>(Object.entries({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9090',
        'prometheus.io/path': '/metrics',
        'kubectl.kubernetes.io/restartedAt': '2026-11-22T10:00:00Z',
        'bench.svc.io/owner': 'team-platform@example.com',
        'bench.svc.io/description': `Backend worker ${i} of the benchmark platform; serves internal RPCs and exports metrics on 9090.`,
      }), 3),
    },
    spec: {
      containers: [
        {
          name: 'app',
          image: `registry.example.com/platform/${app}:1.24.3`,
          ...(compact ? {} : { args: ['--config=/etc/app/config.yaml', '--log-level=info', `--instance=${hash}`] }),
          ports: [
            { name: 'http', containerPort: 8080, protocol: 'TCP' },
            { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
          ],
          env: [
            ...env('APP', compact ? 0 : 14),
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
          ],
          resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
          volumeMounts: [
            { name: 'config', mountPath: '/etc/app', readOnly: true },
            { name: 'data', mountPath: '/var/lib/app' },
          ],
          ...(compact ? {} : { livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 10 } }),
          readinessProbe: { httpGet: { path: '/readyz', port: 8080 }, periodSeconds: 5 },
        },
        ...(compact
          ? []
          : [
              {
                name: 'sidecar',
                image: 'registry.example.com/platform/log-shipper:2.3.1',
                env: env('SHIPPER', 6),
                resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
                volumeMounts: [{ name: 'data', mountPath: '/var/lib/app', readOnly: true }],
              },
            ]),
      ],
      volumes: [
        { name: 'config', configMap: { name: `${app}-config` } },
        { name: 'data', emptyDir: {} },
      ],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'backend', effect: 'NoSchedule' }],
      serviceAccountName: 'default',
    },
  });
}
