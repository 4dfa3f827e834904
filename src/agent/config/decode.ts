// The --config file: a KubeletConfiguration in YAML or JSON, apiVersion
// kubelet.config.svc.io/v1beta1 or kubelet.config.k8s.io/v1beta1. Decoded
// strictly against the v1.27 fields: an unknown field, a duplicate key or a
// value of the wrong type is an error naming the field. Durations become ms.
// Paths in the file are relative to the file's folder, as kube resolves them.
import { dirname, isAbsolute, join } from 'node:path';
import { parseDocument } from 'yaml';
import { DurationError, parseGoDuration } from '../../api/meta/goduration.js';
import { AgentConfigError } from './errors.js';

export const CONFIG_KIND = 'KubeletConfiguration';
export const CONFIG_API_VERSIONS = ['kubelet.config.svc.io/v1beta1', 'kubelet.config.k8s.io/v1beta1'] as const;

type Scalar = 'string' | 'bool' | 'int32' | 'int64' | 'float' | 'duration' | 'nanosOrDuration' | 'intOrString';
type FieldType = Scalar | 'strings' | 'stringMap' | 'boolMap' | 'stringsMap' | { readonly fields: Schema } | { readonly items: Schema };
type Schema = { readonly [field: string]: FieldType };

const taint: Schema = { key: 'string', value: 'string', effect: 'string', timeAdded: 'string' };

/** The fields of KubeletConfiguration v1beta1 in v1.27. */
const SCHEMA: Schema = {
  apiVersion: 'string', kind: 'string',
  enableServer: 'bool', staticPodPath: 'string', syncFrequency: 'duration', fileCheckFrequency: 'duration',
  httpCheckFrequency: 'duration', staticPodURL: 'string', staticPodURLHeader: 'stringsMap', address: 'string',
  port: 'int32', readOnlyPort: 'int32', tlsCertFile: 'string', tlsPrivateKeyFile: 'string', tlsCipherSuites: 'strings',
  tlsMinVersion: 'string', rotateCertificates: 'bool', serverTLSBootstrap: 'bool',
  authentication: {
    fields: {
      x509: { fields: { clientCAFile: 'string' } },
      webhook: { fields: { enabled: 'bool', cacheTTL: 'duration' } },
      anonymous: { fields: { enabled: 'bool' } },
    },
  },
  authorization: { fields: { mode: 'string', webhook: { fields: { cacheAuthorizedTTL: 'duration', cacheUnauthorizedTTL: 'duration' } } } },
  registryPullQPS: 'int32', registryBurst: 'int32', eventRecordQPS: 'int32', eventBurst: 'int32',
  enableDebuggingHandlers: 'bool', enableContentionProfiling: 'bool', healthzPort: 'int32', healthzBindAddress: 'string',
  oomScoreAdj: 'int32', clusterDomain: 'string', clusterDNS: 'strings', streamingConnectionIdleTimeout: 'duration',
  nodeStatusUpdateFrequency: 'duration', nodeStatusReportFrequency: 'duration', nodeLeaseDurationSeconds: 'int32',
  imageMinimumGCAge: 'duration', imageGCHighThresholdPercent: 'int32', imageGCLowThresholdPercent: 'int32',
  volumeStatsAggPeriod: 'duration', kubeletCgroups: 'string', systemCgroups: 'string', cgroupRoot: 'string',
  cgroupsPerQOS: 'bool', cgroupDriver: 'string', cpuManagerPolicy: 'string', cpuManagerPolicyOptions: 'stringMap',
  cpuManagerReconcilePeriod: 'duration', memoryManagerPolicy: 'string', topologyManagerPolicy: 'string',
  topologyManagerScope: 'string', topologyManagerPolicyOptions: 'stringMap', qosReserved: 'stringMap',
  runtimeRequestTimeout: 'duration', hairpinMode: 'string', maxPods: 'int32', podCIDR: 'string', podPidsLimit: 'int64',
  resolvConf: 'string', runOnce: 'bool', cpuCFSQuota: 'bool', cpuCFSQuotaPeriod: 'duration', nodeStatusMaxImages: 'int32',
  maxOpenFiles: 'int64', contentType: 'string', kubeAPIQPS: 'int32', kubeAPIBurst: 'int32', serializeImagePulls: 'bool',
  maxParallelImagePulls: 'int32', evictionHard: 'stringMap', evictionSoft: 'stringMap', evictionSoftGracePeriod: 'stringMap',
  evictionPressureTransitionPeriod: 'duration', evictionMaxPodGracePeriod: 'int32', evictionMinimumReclaim: 'stringMap',
  podsPerCore: 'int32', enableControllerAttachDetach: 'bool', protectKernelDefaults: 'bool', makeIPTablesUtilChains: 'bool',
  iptablesMasqueradeBit: 'int32', iptablesDropBit: 'int32', featureGates: 'boolMap', failSwapOn: 'bool',
  memorySwap: { fields: { swapBehavior: 'string' } }, containerLogMaxSize: 'string', containerLogMaxFiles: 'int32',
  configMapAndSecretChangeDetectionStrategy: 'string', systemReserved: 'stringMap', kubeReserved: 'stringMap',
  reservedSystemCPUs: 'string', showHiddenMetricsForVersion: 'string', systemReservedCgroup: 'string',
  kubeReservedCgroup: 'string', enforceNodeAllocatable: 'strings', allowedUnsafeSysctls: 'strings', volumePluginDir: 'string',
  providerID: 'string', kernelMemcgNotification: 'bool',
  logging: {
    fields: {
      format: 'string', flushFrequency: 'nanosOrDuration', verbosity: 'int32',
      vmodule: { items: { filePattern: 'string', verbosity: 'int32' } },
      options: { fields: { json: { fields: { splitStream: 'bool', infoBufferSize: 'intOrString' } } } },
    },
  },
  enableSystemLogHandler: 'bool', enableSystemLogQuery: 'bool', shutdownGracePeriod: 'duration',
  shutdownGracePeriodCriticalPods: 'duration',
  shutdownGracePeriodByPodPriority: { items: { priority: 'int32', shutdownGracePeriodSeconds: 'int64' } },
  reservedMemory: { items: { numaNode: 'int32', limits: 'stringMap' } },
  enableProfilingHandler: 'bool', enableDebugFlagsHandler: 'bool', seccompDefault: 'bool', memoryThrottlingFactor: 'float',
  registerWithTaints: { items: taint }, registerNode: 'bool',
  tracing: { fields: { endpoint: 'string', samplingRatePerMillion: 'int32' } },
  localStorageCapacityIsolation: 'bool', containerRuntimeEndpoint: 'string', imageServiceEndpoint: 'string',
};

/** Our spellings of kube's field names, accepted in either apiVersion. */
const SVC_FIELDS: Readonly<Record<string, string>> = {
  svcReserved: 'kubeReserved',
  svcReservedCgroup: 'kubeReservedCgroup',
  svcAPIQPS: 'kubeAPIQPS',
  svcAPIBurst: 'kubeAPIBurst',
  nodeAgentCgroups: 'kubeletCgroups',
};

/** KubeletConfigurationPathRefs: the fields holding file paths. */
const PATH_FIELDS: readonly (readonly string[])[] = [
  ['staticPodPath'], ['authentication', 'x509', 'clientCAFile'], ['tlsCertFile'], ['tlsPrivateKeyFile'], ['resolvConf'], ['volumePluginDir'],
];

const GO_TYPE: Record<Scalar, string> = { string: 'string', bool: 'bool', int32: 'int32', int64: 'int64', float: 'float64', duration: 'v1.Duration', nanosOrDuration: 'v1.TimeOrMetaDuration', intOrString: 'resource.QuantityValue' };

class DecodeError extends Error {}

const jsonKind = (v: unknown): string =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;

const typeError = (v: unknown, path: string, goType: string) =>
  new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${CONFIG_KIND}.${path} of type ${goType}`);

function scalar(t: Scalar, v: unknown, path: string): unknown {
  switch (t) {
    case 'string':
      if (typeof v !== 'string') throw typeError(v, path, 'string');
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw typeError(v, path, 'bool');
      return v;
    case 'int32':
    case 'int64': {
      const max = t === 'int32' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
      if (typeof v !== 'number' || !Number.isInteger(v) || v > max || v < -max - 1) {
        if (typeof v === 'number') throw new DecodeError(`json: cannot unmarshal number ${v} into Go struct field ${CONFIG_KIND}.${path} of type ${t}`);
        throw typeError(v, path, t);
      }
      return v;
    }
    case 'float':
      if (typeof v !== 'number') throw typeError(v, path, 'float64');
      return v;
    case 'duration':
      if (typeof v !== 'string') throw typeError(v, path, GO_TYPE.duration);
      try {
        return parseGoDuration(v);
      } catch (err) {
        if (err instanceof DurationError) throw new DecodeError(`${CONFIG_KIND}.${path}: ${err.message}`);
        throw err;
      }
    case 'nanosOrDuration':
      // logging.flushFrequency: a number of nanoseconds or a duration string
      if (typeof v === 'number' && Number.isInteger(v)) return v / 1e6;
      return scalar('duration', v, path);
    case 'intOrString':
      if (typeof v === 'number' && Number.isInteger(v)) return String(v);
      if (typeof v !== 'string') throw typeError(v, path, GO_TYPE.intOrString);
      return v;
  }
}

function decodeValue(t: FieldType, v: unknown, path: string): unknown {
  if (v === null) return undefined; // JSON null leaves a Go field unset
  if (typeof t === 'string') {
    switch (t) {
      case 'strings':
        if (!Array.isArray(v)) throw typeError(v, path, '[]string');
        return v.map((x, i) => scalar('string', x, `${path}[${i}]`));
      case 'stringMap':
      case 'boolMap':
      case 'stringsMap': {
        const goType = t === 'stringMap' ? 'map[string]string' : t === 'boolMap' ? 'map[string]bool' : 'map[string][]string';
        if (typeof v !== 'object' || Array.isArray(v)) throw typeError(v, path, goType);
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
          out[k] = t === 'stringMap' ? scalar('string', x, `${path}.${k}`) : t === 'boolMap' ? scalar('bool', x, `${path}.${k}`) : decodeValue('strings', x, `${path}.${k}`);
        }
        return out;
      }
      default:
        return scalar(t, v, path);
    }
  }
  if ('items' in t) {
    if (!Array.isArray(v)) throw typeError(v, path, '[]object');
    return v.map((x, i) => decodeObject(t.items, x, `${path}[${i}]`));
  }
  return decodeObject(t.fields, v, path);
}

function decodeObject(schema: Schema, v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(v, path || CONFIG_KIND, 'object');
  const out: Record<string, unknown> = {};
  for (const [rawKey, x] of Object.entries(v as Record<string, unknown>)) {
    const key = path === '' ? (SVC_FIELDS[rawKey] ?? rawKey) : rawKey;
    const at = path === '' ? rawKey : `${path}.${rawKey}`;
    const t = schema[key];
    if (t === undefined) throw new DecodeError(`strict decoding error: unknown field ${JSON.stringify(at)}`);
    if (key !== rawKey && Object.hasOwn(v as object, key)) throw new DecodeError(`strict decoding error: duplicate field ${JSON.stringify(key)} (also given as ${JSON.stringify(rawKey)})`);
    const value = decodeValue(t, x, at);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Decodes the file's text; `file` is its absolute path (for messages and relative paths). */
export function decodeKubeletConfigFile(text: string, file: string): Record<string, unknown> {
  const fail = (msg: string) => new AgentConfigError('file', `failed to load Kubelet config file ${file}, error ${msg}`);
  if (text.trim() === '') throw fail(`kubelet config file ${JSON.stringify(file)} was empty`);
  // YAML 1.1, as kube's YAML-to-JSON step reads it (yes/no/on/off are booleans)
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: true, prettyErrors: false });
  const problem = doc.errors[0];
  if (problem) throw fail(`failed to decode: yaml: ${problem.message}`);
  const data: unknown = doc.toJS();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw fail(`failed to decode: couldn't get version/kind; json parse error: expected an object`);
  const { apiVersion, kind } = data as Record<string, unknown>;
  if (kind === undefined || kind === '') throw fail(`failed to decode: Object 'Kind' is missing in '${JSON.stringify(data)}'`);
  if (apiVersion === undefined || apiVersion === '') throw fail(`failed to decode: Object 'apiVersion' is missing in '${JSON.stringify(data)}'`);
  if (kind !== CONFIG_KIND || !(CONFIG_API_VERSIONS as readonly unknown[]).includes(apiVersion)) {
    throw fail(`failed to decode: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  let out: Record<string, unknown>;
  try {
    out = decodeObject(SCHEMA, data, '');
  } catch (err) {
    if (err instanceof DecodeError) throw fail(`failed to decode: ${err.message}`);
    throw err;
  }
  delete out.apiVersion;
  delete out.kind;
  resolveRelativePaths(out, dirname(file));
  return out;
}

function resolveRelativePaths(c: Record<string, unknown>, root: string): void {
  for (const path of PATH_FIELDS) {
    let holder: Record<string, unknown> | undefined = c;
    for (const k of path.slice(0, -1)) holder = holder?.[k] as Record<string, unknown> | undefined;
    const last = path[path.length - 1]!;
    const v = holder?.[last];
    if (holder && typeof v === 'string' && v !== '' && !isAbsolute(v)) holder[last] = join(root, v);
  }
}
