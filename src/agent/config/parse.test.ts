// parseAgentArgs: defaults, flags over the --config file, both apiVersions,
// feature gates, warnings, typed views and every error path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatQuantity } from '../../api/meta/quantity.js';
import { AgentConfigError } from './errors.js';
import { parseAgentArgs, getPath } from './parse.js';

const CWD = '/work/here';
const files = (contents: Record<string, string>) => (path: string) => {
  const text = contents[path];
  if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
  return text;
};
const parse = (argv: string[], contents: Record<string, string> = {}) => parseAgentArgs(argv, { cwd: CWD, readFile: files(contents) });
const withFile = (body: string, argv: string[] = [], apiVersion = 'kubelet.config.svc.io/v1beta1') =>
  parse(['--config', 'agent.yaml', ...argv], { [`${CWD}/agent.yaml`]: `apiVersion: ${apiVersion}\nkind: KubeletConfiguration\n${body}` });

describe('agent config: defaults without --config', () => {
  const { config } = parse([]);
  const rows: [string, unknown][] = [
    ['configFile', ''], ['svcconfig', ''], ['bootstrapSvcconfig', ''], ['certDir', '/var/lib/kubelet/pki'], ['rootDir', '/var/lib/kubelet'],
    ['enableServer', true], ['address', '0.0.0.0'], ['port', 10250], ['readOnlyPort', 0], ['healthzBindAddress', '127.0.0.1'], ['healthzPort', 10248],
    ['enableDebuggingHandlers', true], ['authentication.anonymous.enabled', true], ['authentication.webhook.enabled', false],
    ['authentication.webhook.cacheTTL', 120_000], ['authorization.mode', 'AlwaysAllow'], ['authorization.webhook.cacheAuthorizedTTL', 300_000],
    ['authorization.webhook.cacheUnauthorizedTTL', 30_000], ['cgroupDriver', 'cgroupfs'], ['cgroupRoot', ''], ['cgroupsPerQOS', true],
    ['clusterDNS', []], ['clusterDomain', ''], ['containerLogMaxFiles', 5], ['containerLogMaxSize', '10Mi'], ['containerLogMaxSizeBytes', 10 * 1024 * 1024],
    ['containerRuntime', 'remote'], ['containerRuntimeEndpoint', 'unix:///run/containerd/containerd.sock'],
    ['imageServiceEndpoint', 'unix:///run/containerd/containerd.sock'], ['cpuCFSQuota', true], ['cpuCFSQuotaPeriod', 100],
    ['cpuManagerPolicy', 'none'], ['cpuManagerReconcilePeriod', 10_000], ['enableControllerAttachDetach', true], ['enforceNodeAllocatable', ['pods']],
    ['eventBurst', 10], ['eventRecordQPS', 5],
    ['evictionHard', { 'imagefs.available': '15%', 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' }],
    ['evictionPressureTransitionPeriod', 300_000], ['evictionMaxPodGracePeriod', 0], ['failSwapOn', true], ['fileCheckFrequency', 20_000],
    ['httpCheckFrequency', 20_000], ['syncFrequency', 60_000], ['hairpinMode', 'promiscuous-bridge'], ['imageGCHighThresholdPercent', 85],
    ['imageGCLowThresholdPercent', 80], ['imageMinimumGCAge', 120_000], ['iptablesDropBit', 15], ['iptablesMasqueradeBit', 14],
    ['keepTerminatedPodVolumes', false], ['kernelMemcgNotification', false], ['kubeAPIBurst', 10], ['kubeAPIQPS', 5],
    ['contentType', 'application/vnd.svc.protobuf'], ['kubeReserved', {}], ['kubeReservedCgroup', ''], ['kubeletCgroups', ''],
    ['localStorageCapacityIsolation', true], ['lockFile', ''], ['logging.flushFrequency', 5000], ['logging.format', 'text'],
    ['logging.options.json.infoBufferSize', '0'], ['logging.options.json.splitStream', false], ['makeIPTablesUtilChains', true],
    ['masterServiceNamespace', 'default'], ['maxOpenFiles', 1_000_000], ['maxPods', 110], ['maximumDeadContainers', -1],
    ['maximumDeadContainersPerContainer', 1], ['memoryManagerPolicy', 'None'], ['minimumContainerTtlDuration', 0], ['nodeIp', ''], ['nodeIps', []],
    ['nodeStatusUpdateFrequency', 10_000], ['nodeStatusReportFrequency', 300_000], ['nodeLeaseDurationSeconds', 40], ['oomScoreAdj', -999],
    ['podPidsLimit', -1], ['podsPerCore', 0], ['podInfraContainerImage', 'registry.k8s.io/pause:3.9'], ['registerNode', true],
    ['registerWithTaints', []], ['resolvConf', '/etc/resolv.conf'], ['rotateCertificates', false], ['runtimeRequestTimeout', 120_000],
    ['seccompDefault', false], ['serializeImagePulls', true], ['staticPodPath', ''], ['staticPodURL', ''], ['staticPodURLHeader', {}],
    ['streamingConnectionIdleTimeout', 14_400_000], ['systemReserved', {}], ['tlsCertFile', ''], ['tlsPrivateKeyFile', ''],
    ['topologyManagerPolicy', 'none'], ['topologyManagerScope', 'container'], ['volumePluginDir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/'],
    ['volumeStatsAggPeriod', 60_000], ['providerID', ''], ['hostnameOverride', ''], ['nodeLabels', {}], ['version', false], ['help', false],
  ];
  for (const [path, want] of rows) it(`${path} = ${JSON.stringify(want)}`, () => assert.deepEqual(getPath(config, path), want));

  it('default eviction thresholds are typed', () => {
    const hard = config.evictionThresholds.map((t) => [t.signal, 'quantity' in t.value ? formatQuantity(t.value.quantity) : t.value.percentage, t.hard]);
    assert.deepEqual(hard, [['memory.available', '100Mi', true], ['nodefs.available', 0.1, true], ['nodefs.inodesFree', 0.05, true], ['imagefs.available', 0.15, true]]);
  });
  it('gates at their defaults', () => {
    assert.equal(config.gates.enabled('GracefulNodeShutdown'), true);
    assert.equal(config.gates.enabled('NodeSwap'), false);
  });
  it('no warnings', () => assert.deepEqual(parse([]).warnings, []));
});

describe('agent config: flags', () => {
  const rows: [string, string[], string, unknown][] = [
    ['--svcconfig relative to the working directory', ['--svcconfig', 'node.svcconfig'], 'svcconfig', '/work/here/node.svcconfig'],
    ['--kubeconfig is --svcconfig', ['--kubeconfig=/etc/k.conf'], 'svcconfig', '/etc/k.conf'],
    ['--bootstrap-kubeconfig', ['--bootstrap-kubeconfig=/b'], 'bootstrapSvcconfig', '/b'],
    ['--cert-dir', ['--cert-dir', 'pki'], 'certDir', '/work/here/pki'],
    ['--root-dir', ['--root-dir=/var/lib/svc/agent'], 'rootDir', '/var/lib/svc/agent'],
    ['--port', ['--port', '10350'], 'port', 10350],
    ['--read-only-port', ['--read-only-port=10255'], 'readOnlyPort', 10255],
    ['--address', ['--address=::'], 'address', '::'],
    ['--enable-server=false', ['--enable-server=false'], 'enableServer', false],
    ['--healthz-port 0 disables', ['--healthz-port=0'], 'healthzPort', 0],
    ['--anonymous-auth=false', ['--anonymous-auth=false'], 'authentication.anonymous.enabled', false],
    ['--authorization-mode', ['--authorization-mode=Webhook'], 'authorization.mode', 'Webhook'],
    ['--client-ca-file', ['--client-ca-file=ca.crt'], 'authentication.x509.clientCAFile', '/work/here/ca.crt'],
    ['--tls-cert-file', ['--tls-cert-file=/pki/a.crt'], 'tlsCertFile', '/pki/a.crt'],
    ['--rotate-certificates', ['--rotate-certificates'], 'rotateCertificates', true],
    ['--pod-manifest-path', ['--pod-manifest-path=manifests'], 'staticPodPath', '/work/here/manifests'],
    ['--manifest-url-header repeats', ['--manifest-url-header', 'a:1,b:2', '--manifest-url-header=b:3'], 'staticPodURLHeader', { a: ['1'], b: ['2', '3'] }],
    ['--node-labels', ['--node-labels=role=edge,zone=a'], 'nodeLabels', { role: 'edge', zone: 'a' }],
    ['--register-node=false', ['--register-node=false'], 'registerNode', false],
    ['--register-with-taints', ['--register-with-taints=dedicated=agent:NoSchedule'], 'registerWithTaints', [{ key: 'dedicated', value: 'agent', effect: 'NoSchedule' }]],
    ['--node-status-update-frequency', ['--node-status-update-frequency=4s'], 'nodeStatusUpdateFrequency', 4000],
    ['--runtime-request-timeout', ['--runtime-request-timeout=30s'], 'runtimeRequestTimeout', 30_000],
    ['--serialize-image-pulls=false', ['--serialize-image-pulls=false'], 'serializeImagePulls', false],
    ['--sync-frequency', ['--sync-frequency=1m30s'], 'syncFrequency', 90_000],
    ['--volume-plugin-dir', ['--volume-plugin-dir=/opt/plugins'], 'volumePluginDir', '/opt/plugins'],
    ['--pod-infra-container-image', ['--pod-infra-container-image=pause:local'], 'podInfraContainerImage', 'pause:local'],
    ['--seccomp-default', ['--seccomp-default'], 'seccompDefault', true],
    ['--provider-id', ['--provider-id=svc://node-1'], 'providerID', 'svc://node-1'],
    ['--system-reserved', ['--system-reserved=cpu=100m,memory=100Mi'], 'systemReserved', { cpu: '100m', memory: '100Mi' }],
    ['--svc-reserved', ['--svc-reserved=memory=1Gi'], 'kubeReserved', { memory: '1Gi' }],
    ['--kube-reserved', ['--kube-reserved=pid=100'], 'kubeReserved', { pid: '100' }],
    ['--system-reserved-cgroup', ['--system-reserved-cgroup=/system'], 'systemReservedCgroup', '/system'],
    ['--image-pull-progress-deadline', ['--image-pull-progress-deadline=2m'], 'imagePullProgressDeadline', 120_000],
    ['--resolv-conf empty: no resolver file', ['--resolv-conf='], 'resolvConf', ''],
    ['--pods-per-core', ['--pods-per-core=10'], 'podsPerCore', 10],
    ['--max-open-files', ['--max-open-files=4096'], 'maxOpenFiles', 4096],
    ['--v', ['--v=4'], 'logging.verbosity', 4],
    ['-v', ['-v', '2'], 'logging.verbosity', 2],
    ['--vmodule', ['--vmodule=agent*=4,cri=2'], 'logging.vmodule', [{ filePattern: 'agent*', verbosity: 4 }, { filePattern: 'cri', verbosity: 2 }]],
    ['--svc-api-qps', ['--svc-api-qps=20'], 'kubeAPIQPS', 20],
    ['--kube-api-burst', ['--kube-api-burst=40'], 'kubeAPIBurst', 40],
    ['--kube-api-content-type', ['--kube-api-content-type=application/json'], 'contentType', 'application/json'],
    ['--node-agent-cgroups', ['--node-agent-cgroups=/agent'], 'kubeletCgroups', '/agent'],
    ['--kubelet-cgroups', ['--kubelet-cgroups=/kubelet'], 'kubeletCgroups', '/kubelet'],
    ['--cluster-dns repeats', ['--cluster-dns=10.0.0.10', '--cluster-dns=10.0.0.11'], 'clusterDNS', ['10.0.0.10', '10.0.0.11']],
    ['--cluster_domain (underscore)', ['--cluster_domain=cluster.local'], 'clusterDomain', 'cluster.local'],
    ['--image-service-endpoint', ['--image-service-endpoint=unix:///img.sock'], 'imageServiceEndpoint', 'unix:///img.sock'],
    ['--container-runtime-endpoint sets the image endpoint too', ['--container-runtime-endpoint=unix:///c.sock'], 'imageServiceEndpoint', 'unix:///c.sock'],
    ['--node-ip dual-stack', ['--node-ip=10.0.0.5,fd00::5'], 'nodeIps', ['10.0.0.5', 'fd00::5']],
    ['--hostname-override', ['--hostname-override=node-a'], 'hostnameOverride', 'node-a'],
    ['--eviction-hard replaces the defaults', ['--eviction-hard=memory.available<1Gi'], 'evictionHard', { 'memory.available': '1Gi' }],
    ['--node-status-update-frequency leaves the report frequency (flags apply after defaults)', ['--node-status-update-frequency=4s'], 'nodeStatusReportFrequency', 300_000],
    ['--version=raw', ['--version=raw'], 'version', 'raw'],
    ['--help', ['--help'], 'help', true],
  ];
  for (const [title, argv, path, want] of rows) it(title, () => assert.deepEqual(getPath(parse(argv).config, path), want));

  it('typed reserved resources', () => {
    const { config } = parse(['--svc-reserved=cpu=200m,memory=500Mi', '--system-reserved=ephemeral-storage=1Gi,pid=1000']);
    assert.deepEqual(Object.fromEntries(Object.entries(config.kubeReservedResources).map(([k, v]) => [k, formatQuantity(v)])), { cpu: '200m', memory: '500Mi' });
    assert.deepEqual(Object.fromEntries(Object.entries(config.systemReservedResources).map(([k, v]) => [k, formatQuantity(v)])), { 'ephemeral-storage': '1Gi', pid: '1k' });
  });

  it('soft thresholds carry their grace period and minimum reclaim', () => {
    const { config } = parse(['--eviction-hard=memory.available<5%', '--eviction-soft=nodefs.available<20%', '--eviction-soft-grace-period=nodefs.available=1m30s', '--eviction-minimum-reclaim=nodefs.available=500Mi']);
    assert.deepEqual(config.evictionThresholds.map((t) => [t.signal, t.operator, t.hard, t.gracePeriod, t.minReclaim && 'quantity' in t.minReclaim ? formatQuantity(t.minReclaim.quantity) : undefined]), [
      ['memory.available', 'LessThan', true, 0, undefined],
      ['nodefs.available', 'LessThan', false, 90_000, '500Mi'],
    ]);
  });

  it('0% and 100% thresholds are no threshold', () => {
    assert.deepEqual(parse(['--eviction-hard=memory.available<0%,nodefs.available<100%']).config.evictionThresholds, []);
  });

  it('warns once per deprecated flag, in kube\'s words', () => {
    const { warnings } = parse(['--max-pods=10', '--max-pods=20', '--kube-reserved=cpu=1']);
    assert.deepEqual(warnings, [
      "Flag --max-pods has been deprecated, This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.",
      "Flag --kube-reserved has been deprecated, This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.",
    ]);
  });

  const own: [string, string][] = [
    ['--container-runtime=remote', "Flag --container-runtime has been deprecated, will be removed in 1.27 as the only valid value is 'remote'"],
    ['--pod-infra-container-image=p', 'Flag --pod-infra-container-image has been deprecated, will be removed in a future release. Image garbage collector will get sandbox image information from CRI.'],
    ['--maximum-dead-containers=5', 'Flag --maximum-dead-containers has been deprecated, Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.'],
    ['--keep-terminated-pod-volumes', 'Flag --keep-terminated-pod-volumes has been deprecated, will be removed in a future version'],
    ['--master-service-namespace=x', 'Flag --master-service-namespace has been deprecated, This flag will be removed in a future version.'],
  ];
  for (const [arg, warning] of own) it(`${arg} warns: ${warning.slice(0, 40)}…`, () => assert.deepEqual(parse([arg]).warnings, [warning]));

  it('flags that are not deprecated do not warn', () => {
    assert.deepEqual(parse(['--svcconfig=/a', '--node-ip=10.0.0.1', '--hostname-override=n', '--node-labels=a=b', '--provider-id=p', '-v=2', '--vmodule=x=1', '--log-flush-frequency=1s', '--cert-dir=/c']).warnings, []);
  });

  it('a GA gate set warns', () => {
    assert.ok(parse(['--feature-gates=ServerSideApply=true']).warnings.includes('Setting GA feature gate ServerSideApply=true. It will be removed in a future release.'));
  });

  it('--help and --version read no file and validate nothing', () => {
    assert.equal(parse(['--config=/missing', '--max-pods=-1', '--help']).config.help, true);
    assert.equal(parse(['--config=/missing', '--version']).config.version, true);
  });
});

describe('agent config: --config file', () => {
  for (const apiVersion of ['kubelet.config.svc.io/v1beta1', 'kubelet.config.k8s.io/v1beta1']) {
    it(`${apiVersion}: fields and the file's defaults`, () => {
      const { config } = withFile('maxPods: 30\nsyncFrequency: 30s\nevictionHard:\n  memory.available: 200Mi\n', [], apiVersion);
      assert.equal(config.configFile, '/work/here/agent.yaml');
      assert.equal(config.maxPods, 30);
      assert.equal(config.syncFrequency, 30_000);
      assert.deepEqual(config.evictionHard, { 'memory.available': '200Mi' });
      // v1beta1's defaults, not the command line's legacy ones
      assert.equal(config.authentication.anonymous.enabled, false);
      assert.equal(config.authentication.webhook.enabled, true);
      assert.equal(config.authorization.mode, 'Webhook');
    });
  }

  it('reads JSON', () => {
    const { config } = parse(['--config=/etc/agent.json'], { '/etc/agent.json': '{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","port":10260,"authentication":{"anonymous":{"enabled":true}}}' });
    assert.equal(config.port, 10260);
    assert.equal(config.authentication.anonymous.enabled, true);
  });

  it('flags on the command line override the file', () => {
    const { config } = withFile('maxPods: 30\nport: 10260\nsystemReserved:\n  cpu: "1"\n  memory: 1Gi\nclusterDNS: [10.0.0.10]\n', ['--max-pods=50', '--system-reserved=cpu=500m', '--cluster-dns=10.0.0.20']);
    assert.equal(config.maxPods, 50);
    assert.equal(config.port, 10260);
    assert.deepEqual(config.systemReserved, { cpu: '500m' }); // a map flag replaces the file's map, as kube's does
    assert.deepEqual(config.clusterDNS, ['10.0.0.20']);
  });

  it('feature gates merge per gate: the flag wins, the file\'s others stay', () => {
    const { config } = withFile('featureGates:\n  NodeSwap: true\n  SeccompDefault: false\n', ['--feature-gates=SeccompDefault=true']);
    assert.deepEqual(config.featureGates, { NodeSwap: true, SeccompDefault: true });
    assert.equal(config.gates.enabled('NodeSwap'), true);
    assert.equal(config.gates.enabled('SeccompDefault'), true);
  });

  it('pointer fields keep an explicit zero; plain fields take the default', () => {
    const { config } = withFile('eventRecordQPS: 0\nhealthzPort: 0\nimageGCLowThresholdPercent: 0\nport: 0\nmaxPods: 0\nenforceNodeAllocatable: []\nevictionHard: {}\n');
    assert.equal(config.eventRecordQPS, 0);
    assert.equal(config.healthzPort, 0);
    assert.equal(config.imageGCLowThresholdPercent, 0);
    assert.equal(config.port, 10250);
    assert.equal(config.maxPods, 110);
    assert.deepEqual(config.enforceNodeAllocatable, []);
    assert.deepEqual(config.evictionHard, {});
  });

  it('an explicit nodeStatusUpdateFrequency is also the report frequency', () => {
    assert.equal(withFile('nodeStatusUpdateFrequency: 20s\n').config.nodeStatusReportFrequency, 20_000);
  });

  it('maxParallelImagePulls > 1 turns serializeImagePulls off by default', () => {
    const { config } = withFile('maxParallelImagePulls: 3\n');
    assert.equal(config.serializeImagePulls, false);
    assert.equal(config.maxParallelImagePulls, 3);
  });

  it('relative paths in the file are relative to its folder', () => {
    const { config } = parse(['--config=conf/agent.yaml'], {
      '/work/here/conf/agent.yaml': 'apiVersion: kubelet.config.svc.io/v1beta1\nkind: KubeletConfiguration\nstaticPodPath: manifests\ntlsCertFile: pki/a.crt\nauthentication:\n  x509:\n    clientCAFile: /abs/ca.crt\n',
    });
    assert.equal(config.staticPodPath, '/work/here/conf/manifests');
    assert.equal(config.tlsCertFile, '/work/here/conf/pki/a.crt');
    assert.equal(config.authentication.x509.clientCAFile, '/abs/ca.crt');
  });

  it('YAML 1.1 booleans, as kube reads its YAML', () => {
    const { config } = withFile('failSwapOn: no\nserializeImagePulls: off\nrotateCertificates: yes\n');
    assert.deepEqual([config.failSwapOn, config.serializeImagePulls, config.rotateCertificates], [false, false, true]);
  });

  it('logging.flushFrequency as nanoseconds or a duration', () => {
    assert.equal(withFile('logging:\n  flushFrequency: 2000000000\n').config.logging.flushFrequency, 2000);
    assert.equal(withFile('logging:\n  flushFrequency: 3s\n').config.logging.flushFrequency, 3000);
  });

  it('our field spellings are accepted', () => {
    const { config } = withFile('svcReserved:\n  cpu: 100m\nsvcAPIQPS: 7\nnodeAgentCgroups: /agent\n');
    assert.deepEqual(config.kubeReserved, { cpu: '100m' });
    assert.equal(config.kubeAPIQPS, 7);
    assert.equal(config.kubeletCgroups, '/agent');
  });

  it('taints, headers and typed lists from the file', () => {
    const { config } = withFile('registerWithTaints:\n- key: a\n  value: b\n  effect: NoExecute\nstaticPodURLHeader:\n  X-A: [one, two]\n');
    assert.deepEqual(config.registerWithTaints, [{ key: 'a', value: 'b', effect: 'NoExecute' }]);
    assert.deepEqual(config.staticPodURLHeader, { 'X-A': ['one', 'two'] });
  });

  const F = 'failed to load Kubelet config file /work/here/agent.yaml, error ';
  const bad: [string, string, string][] = [
    ['unknown field', 'maxPodz: 3\n', `${F}failed to decode: strict decoding error: unknown field "maxPodz"`],
    ['unknown nested field', 'authentication:\n  x509:\n    caFile: a\n', `${F}failed to decode: strict decoding error: unknown field "authentication.x509.caFile"`],
    ['wrong type: string for int', 'maxPods: "10"\n', `${F}failed to decode: json: cannot unmarshal string into Go struct field KubeletConfiguration.maxPods of type int32`],
    ['wrong type: fraction for int', 'maxPods: 1.5\n', `${F}failed to decode: json: cannot unmarshal number 1.5 into Go struct field KubeletConfiguration.maxPods of type int32`],
    ['wrong type: number for bool', 'failSwapOn: 1\n', `${F}failed to decode: json: cannot unmarshal number into Go struct field KubeletConfiguration.failSwapOn of type bool`],
    ['wrong type: list for map', 'kubeReserved: [a]\n', `${F}failed to decode: json: cannot unmarshal array into Go struct field KubeletConfiguration.kubeReserved of type map[string]string`],
    ['wrong type in a map', 'featureGates:\n  NodeSwap: "yes"\n', `${F}failed to decode: json: cannot unmarshal string into Go struct field KubeletConfiguration.featureGates.NodeSwap of type bool`],
    ['bad duration', 'syncFrequency: 1 minute\n', `${F}failed to decode: KubeletConfiguration.syncFrequency: time: unknown unit " minute" in duration "1 minute"`],
    ['duration as a number', 'syncFrequency: 60\n', `${F}failed to decode: json: cannot unmarshal number into Go struct field KubeletConfiguration.syncFrequency of type v1.Duration`],
    ['duplicate key', 'maxPods: 1\nmaxPods: 2\n', `${F}failed to decode: yaml: Map keys must be unique`],
    ['both spellings', 'svcReserved: {}\nkubeReserved: {}\n', `${F}failed to decode: strict decoding error: duplicate field "kubeReserved" (also given as "svcReserved")`],
  ];
  for (const [title, body, message] of bad) {
    it(`rejects: ${title}`, () => assert.throws(() => withFile(body), (err: unknown) => err instanceof AgentConfigError && err.kind === 'file' && err.message === message));
  }

  const header: [string, string, string][] = [
    ['missing kind', 'apiVersion: kubelet.config.svc.io/v1beta1\nmaxPods: 1\n', `${F}failed to decode: Object 'Kind' is missing in '{"apiVersion":"kubelet.config.svc.io/v1beta1","maxPods":1}'`],
    ['missing apiVersion', 'kind: KubeletConfiguration\n', `${F}failed to decode: Object 'apiVersion' is missing in '{"kind":"KubeletConfiguration"}'`],
    ['wrong version', 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n', `${F}failed to decode: no kind "KubeletConfiguration" is registered for version "kubelet.config.k8s.io/v1"`],
    ['wrong kind', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: Pod\n', `${F}failed to decode: no kind "Pod" is registered for version "kubelet.config.k8s.io/v1beta1"`],
    ['empty file', '\n', `${F}kubelet config file "/work/here/agent.yaml" was empty`],
    ['not an object', '- a\n', `${F}failed to decode: couldn't get version/kind; json parse error: expected an object`],
  ];
  for (const [title, text, message] of header) {
    it(`rejects: ${title}`, () => assert.throws(() => parse(['--config=agent.yaml'], { '/work/here/agent.yaml': text }), (err: unknown) => err instanceof AgentConfigError && err.message === message));
  }

  it('rejects a missing file', () => {
    assert.throws(() => parse(['--config=/nope.yaml']), {
      message: `failed to load Kubelet config file /nope.yaml, error failed to read kubelet config file "/nope.yaml", error: ENOENT: no such file or directory, open '/nope.yaml'`,
    });
  });
});

describe('agent config: validation', () => {
  const V = 'failed to validate kubelet configuration, error: ';
  const rows: [string, string[], string][] = [
    ['container-log-max-files < 2', ['--container-log-max-files=1'], `${V}invalid configuration: containerLogMaxFiles must be greater than 1`],
    ['container-log-max-size', ['--container-log-max-size=ten'], `${V}failed to parse container log max size "ten": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`],
    ['image gc low above high', ['--image-gc-low-threshold=90'], `${V}invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 90 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 85`],
    ['image gc high over 100', ['--image-gc-high-threshold=101'], `${V}invalid configuration: imageGCHighThresholdPercent (--image-gc-high-threshold) 101 must be between 0 and 100, inclusive`],
    ['image gc low negative', ['--image-gc-low-threshold=-1'], `${V}invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) -1 must be between 0 and 100, inclusive`],
    ['iptables drop bit', ['--iptables-drop-bit=32'], `${V}invalid configuration: iptablesDropBit (--iptables-drop-bit) 32 must be between 0 and 31, inclusive`],
    ['iptables masquerade bit', ['--iptables-masquerade-bit=-1'], `${V}invalid configuration: iptablesMasqueradeBit (--iptables-masquerade-bit) -1 must be between 0 and 31, inclusive`],
    ['cgroup driver', ['--cgroup-driver=cgroupv3'], `${V}invalid configuration: cgroupDriver (--cgroup-driver) "cgroupv3" must be one of: "cgroupfs", "systemd"`],
    ['authorization mode', ['--authorization-mode=RBAC'], `${V}unknown authorization mode RBAC`],
    ['event burst', ['--event-burst=-1'], `${V}invalid configuration: eventBurst (--event-burst) -1 must not be a negative number`],
    ['event qps', ['--event-qps=-1'], `${V}invalid configuration: eventRecordQPS (--event-qps) -1 must not be a negative number`],
    ['api burst', ['--svc-api-burst=-1'], `${V}invalid configuration: kubeAPIBurst (--svc-api-burst) -1 must not be a negative number`],
    ['api qps', ['--svc-api-qps=-1'], `${V}invalid configuration: kubeAPIQPS (--svc-api-qps) -1 must not be a negative number`],
    ['registry burst', ['--registry-burst=-1'], `${V}invalid configuration: registryBurst (--registry-burst) -1 must not be a negative number`],
    ['registry qps', ['--registry-qps=-1'], `${V}invalid configuration: registryPullQPS (--registry-qps) -1 must not be a negative number`],
    ['healthz port', ['--healthz-port=70000'], `${V}invalid configuration: healthzPort (--healthz-port) 70000 must be between 1 and 65535, inclusive`],
    ['port', ['--port=0'], `${V}invalid configuration: port (--port) 0 must be between 1 and 65535, inclusive`],
    ['read-only port', ['--read-only-port=-5'], `${V}invalid configuration: readOnlyPort (--read-only-port) -5 must be between 0 and 65535, inclusive`],
    ['max pods', ['--max-pods=-1'], `${V}invalid configuration: maxPods (--max-pods) -1 must not be a negative number`],
    ['pods per core', ['--pods-per-core=-1'], `${V}invalid configuration: podsPerCore (--pods-per-core) -1 must not be a negative number`],
    ['max open files', ['--max-open-files=-1'], `${V}invalid configuration: maxOpenFiles (--max-open-files) -1 must not be a negative number`],
    ['oom score adj', ['--oom-score-adj=-1001'], `${V}invalid configuration: oomScoreAdj (--oom-score-adj) -1001 must be between -1000 and 1000, inclusive`],
    ['node status max images', ['--node-status-max-images=-2'], `${V}invalid configuration: nodeStatusMaxImages (--node-status-max-images) -2 must be -1 or greater`],
    ['cfs quota period without its gate', ['--cpu-cfs-quota-period=50ms'], `${V}invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) 50ms requires feature gate CustomCPUCFSQuotaPeriod`],
    ['cfs quota period out of range', ['--feature-gates=CustomCPUCFSQuotaPeriod=true', '--cpu-cfs-quota-period=2s'], `${V}invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) 2s must be between 1ms and 1sec, inclusive`],
    ['system cgroups without cgroup root', ['--system-cgroups=/system'], `${V}invalid configuration: systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified`],
    ['server certificate rotation without its gate', ['--feature-gates=RotateKubeletServerCertificate=false', '--rotate-server-certificates'], `${V}invalid configuration: serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate`],
    ['seccomp default without its gate', ['--feature-gates=SeccompDefault=false', '--seccomp-default'], `${V}invalid configuration: seccompDefault true requires feature gate SeccompDefault`],
    ['hairpin mode', ['--hairpin-mode=loop'], `${V}invalid configuration: option "loop" specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"`],
    ['topology manager policy', ['--topology-manager-policy=best'], `${V}invalid configuration: topologyManagerPolicy (--topology-manager-policy) "best" must be one of: ["none" "best-effort" "restricted" "single-numa-node"]`],
    ['topology manager scope', ['--topology-manager-scope=node'], `${V}invalid configuration: topologyManagerScope (--topology-manager-scope) "node" must be one of: "container", or "pod"`],
    ['enforce node allocatable value', ['--enforce-node-allocatable=everything'], `${V}invalid configuration: option "everything" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "kube-reserved", or "none"`],
    ['enforce system-reserved without its cgroup', ['--enforce-node-allocatable=pods,system-reserved'], `${V}invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)`],
    ['enforce kube-reserved without its cgroup', ['--enforce-node-allocatable=kube-reserved'], `${V}invalid configuration: kubeReservedCgroup (--svc-reserved-cgroup) must be specified when "kube-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)`],
    ['enforce none with others', ['--enforce-node-allocatable=none,pods'], `${V}invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified`],
    ['reserved cpus with a reserved cgroup', ['--reserved-cpus=0-1', '--system-reserved-cgroup=/sys'], `${V}invalid configuration: can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--svc-reserved-cgroup)`],
    ['reserved cpus syntax', ['--reserved-cpus=a'], `${V}invalid configuration: unable to parse reservedSystemCPUs (--reserved-cpus) a, error: strconv.Atoi: parsing "a": invalid syntax`],
    ['cpu manager policy', ['--cpu-manager-policy=dynamic'], `${V}unknown policy: "dynamic"`],
    ['memory manager policy', ['--memory-manager-policy=static'], `${V}unknown policy: "static"`],
    ['logging format', ['--logging-format=xml'], `${V}logging.format: Invalid value: "xml": Unsupported log format`],
    ['json logging without LoggingBetaOptions', ['--logging-format=json', '--feature-gates=LoggingBetaOptions=false'], `${V}logging.format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature`],
    ['split stream without LoggingAlphaOptions', ['--logging-format=json', '--log-json-split-stream'], `${V}logging.options.json.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled`],
    ['vmodule with json', ['--logging-format=json', '--vmodule=a=1'], `${V}logging.vmodule: Forbidden: Only supported for text log format`],
    ['negative verbosity', ['-v=-1'], `${V}logging.verbosity: Invalid value: -1: Must be >= 0`],
    ['tls min version', ['--tls-min-version=TLS1.2'], `${V}unknown tls version "TLS1.2"`],
    ['empty runtime endpoint', ['--container-runtime-endpoint='], `${V}invalid configuration: the containerRuntimeEndpoint was not specified or empty`],
    ['register-with-taints without effect', ['--register-with-taints=lonely'], `${V}invalid taint: lonely:`],
    ['several problems at once', ['--max-pods=-1', '--iptables-drop-bit=40'], `${V}[invalid configuration: iptablesDropBit (--iptables-drop-bit) 40 must be between 0 and 31, inclusive, invalid configuration: maxPods (--max-pods) -1 must not be a negative number]`],
    ['unknown feature gate', ['--feature-gates=NoSuchGate=true'], 'unrecognized feature gate: NoSuchGate'],
    ['locked GA gate', ['--feature-gates=ServerSideApply=false'], 'cannot set feature gate ServerSideApply to false, feature is locked to true'],
    ['--container-runtime docker', ['--container-runtime=docker'], `failed to validate kubelet flags: unsupported CRI runtime: "docker", only 'remote' is currently supported`],
    ['node labels in a reserved namespace', ['--node-labels=kubernetes.io/role=master,node-role.kubernetes.io/x=y'], "failed to validate kubelet flags: unknown 'kubernetes.io', 'k8s.io' or 'svc.io' labels specified with --node-labels: [kubernetes.io/role node-role.kubernetes.io/x]\n--node-labels in the 'kubernetes.io' (or 'svc.io') namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io, kubelet.svc.io, node.svc.io) or be in the specifically allowed set (the node labels NodeRestriction allows)"],
    ['invalid node label value', ['--node-labels=role=a b'], "failed to validate kubelet flags: invalid node labels: 'a b' - a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"],
    ['node ip not an IP', ['--node-ip=10.0.0'], 'bad --node-ip "10.0.0": "10.0.0" is not a valid IP address'],
    ['node ip two of a family', ['--node-ip=10.0.0.1,10.0.0.2'], 'bad --node-ip "10.0.0.1,10.0.0.2"; must contain either a single IP or a dual-stack pair of IPs'],
    ['node ip unspecified in a pair', ['--node-ip=0.0.0.0,fd00::1'], `dual-stack --node-ip "0.0.0.0,fd00::1" cannot include '0.0.0.0' or '::'`],
    ['eviction signal', ['--eviction-hard=memory.free<1Gi'], 'unsupported eviction signal memory.free'],
    ['eviction percentage', ['--eviction-hard=memory.available<120%'], 'eviction percentage threshold memory.available must be <= 100%: 120%'],
    ['eviction negative', ['--eviction-hard=memory.available<-1Gi'], 'eviction threshold memory.available must be positive: -1Gi'],
    ['eviction zero quantity', ['--eviction-hard=memory.available<0'], 'eviction threshold memory.available must be positive: 0'],
    ['eviction quantity syntax', ['--eviction-hard=memory.available<lots'], "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['soft threshold without grace period', ['--eviction-soft=memory.available<1Gi'], 'grace period must be specified for the soft eviction threshold memory.available'],
    ['negative grace period', ['--eviction-soft=memory.available<1Gi', '--eviction-soft-grace-period=memory.available=-1s'], 'invalid eviction grace period specified: -1s, must be a positive value'],
    ['grace period syntax', ['--eviction-soft-grace-period=memory.available=soon'], 'time: invalid duration "soon"'],
    ['minimum reclaim signal', ['--eviction-minimum-reclaim=disk=1Gi'], 'unsupported eviction signal disk'],
    ['minimum reclaim negative', ['--eviction-minimum-reclaim=memory.available=-1Gi'], 'negative reclaim defined for signal memory.available'],
    ['minimum reclaim percentage', ['--eviction-minimum-reclaim=memory.available=101%'], 'minimum reclaim percentage threshold memory.available must be <= 100%: 101%'],
    ['reserved resource name', ['--svc-reserved=gpu=1'], '--svc-reserved value failed to parse: cannot reserve "gpu" resource'],
    ['reserved quantity', ['--system-reserved=memory=lots'], `--system-reserved value failed to parse: failed to parse quantity "lots" for "memory" resource: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`],
    ['reserved negative', ['--system-reserved=cpu=-1'], '--system-reserved value failed to parse: resource quantity for "cpu" cannot be negative: -1'],
    ['positional argument', ['run'], 'unknown command run'],
    ['vmodule syntax', ['--vmodule=agent'], 'invalid argument "agent" for "--vmodule" flag: "agent" does not have the pattern=N format'],
  ];
  for (const [title, argv, message] of rows) {
    it(`rejects: ${title}`, () => assert.throws(() => parse(argv), (err: unknown) => err instanceof AgentConfigError && err.message === message));
  }

  const file: [string, string, string][] = [
    ['node lease duration', 'nodeLeaseDurationSeconds: -1\n', `${V}invalid configuration: nodeLeaseDurationSeconds must be greater than 0`],
    ['maxParallelImagePulls', 'maxParallelImagePulls: 0\n', `${V}invalid configuration: maxParallelImagePulls 0 must be a positive number`],
    ['parallel pulls while serialized', 'maxParallelImagePulls: 3\nserializeImagePulls: true\n', `${V}invalid configuration: maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false`],
    ['runOnce', 'runOnce: true\n', `${V}invalid configuration: runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set`],
    ['taint with timeAdded', 'registerWithTaints:\n- key: a\n  effect: NoSchedule\n  timeAdded: "2024-01-01T00:00:00Z"\n', `${V}invalid configuration: taint.TimeAdded is not nil`],
    ['taint with a bad effect', 'registerWithTaints:\n- key: a\n  effect: Never\n', `${V}invalid taint: a:Never`],
    ['shutdown critical above total', 'shutdownGracePeriod: 10s\nshutdownGracePeriodCriticalPods: 20s\n', `${V}invalid configuration: shutdownGracePeriodCriticalPods 20s must be <= shutdownGracePeriod 10s`],
    ['shutdown under a second', 'shutdownGracePeriod: 500ms\n', `${V}invalid configuration: shutdownGracePeriod 500ms must be either zero or otherwise >= 1 sec`],
    ['shutdown without its gate', 'featureGates:\n  GracefulNodeShutdown: false\nshutdownGracePeriod: 10s\n', `${V}invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown`],
    ['shutdown by priority and by period', 'shutdownGracePeriod: 10s\nshutdownGracePeriodByPodPriority:\n- priority: 1\n  shutdownGracePeriodSeconds: 5\n', `${V}invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time`],
    ['swap without NodeSwap', 'memorySwap:\n  swapBehavior: LimitedSwap\n', `${V}invalid configuration: memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled`],
    ['swap behaviour', 'featureGates:\n  NodeSwap: true\nmemorySwap:\n  swapBehavior: Some\n', `${V}invalid configuration: memorySwap.swapBehavior "Some" must be one of: "", "LimitedSwap", or "UnlimitedSwap"`],
    ['memory throttling factor', 'memoryThrottlingFactor: 1.5\n', `${V}invalid configuration: memoryThrottlingFactor 1.5 must be greater than 0 and less than or equal to 1.0`],
    ['system log query', 'enableSystemLogQuery: true\n', `${V}invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery`],
    ['change detection strategy', 'configMapAndSecretChangeDetectionStrategy: Poll\n', `${V}unknown configmap and secret manager mode: Poll`],
    ['address', 'address: localhost\n', `${V}invalid configuration: address (--address) "localhost" is not a valid IP address`],
    ['vmodule item', 'logging:\n  vmodule:\n  - filePattern: ""\n    verbosity: 1\n', `${V}logging.vmodule[0]: Required value: File pattern must not be empty`],
    ['unknown gate in the file', 'featureGates:\n  Imaginary: true\n', 'unrecognized feature gate: Imaginary'],
  ];
  for (const [title, body, message] of file) {
    it(`rejects from the file: ${title}`, () => assert.throws(() => withFile(body), (err: unknown) => err instanceof AgentConfigError && err.kind === 'validation' && err.message === message));
  }

  it('warns about cluster DNS entries that are not IPs', () => {
    assert.ok(parse(['--cluster-dns=10.0.0.10,dns.local']).warnings.includes('Invalid clusterDNS IP, ignoring: dns.local'));
  });
});
