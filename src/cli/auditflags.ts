// kube-apiserver v1.27's audit flags (--audit-policy-file, --audit-log-*,
// --audit-webhook-*), their defaults and kube's validation texts; the policy
// file is read and checked here, so a bad one stops the start (exit 1) with
// kube's "loading audit policy file: …" message.
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import { AuditConfigError, defaultAuditOptions, loadAuditPolicy, validateAuditOptions, type AuditOptions, type BatchOptions, type TruncateOptions } from '../audit/options.js';

const D = defaultAuditOptions();

function batchFlags(plugin: 'log' | 'webhook', b: BatchOptions): FlagSpec[] {
  const p = `audit-${plugin}`;
  return [
    { name: `${p}-mode`, type: 'string', default: b.mode, help: `Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.` },
    { name: `${p}-batch-buffer-size`, type: 'int', default: b.bufferSize, help: 'The size of the buffer to store events before batching and writing. Only used in batch mode.' },
    { name: `${p}-batch-max-size`, type: 'int', default: b.maxBatchSize, help: 'The maximum size of a batch. Only used in batch mode.' },
    { name: `${p}-batch-max-wait`, type: 'duration', default: b.maxBatchWaitMs, help: 'The amount of time to wait before force writing the batch that hadn\'t reached the max size. Only used in batch mode.' },
    { name: `${p}-batch-throttle-enable`, type: 'bool', default: b.throttleEnable, help: 'Whether batching throttling is enabled. Only used in batch mode.' },
    { name: `${p}-batch-throttle-qps`, type: 'string', default: String(b.throttleQPS), help: 'Maximum average number of batches per second. Only used in batch mode.' },
    { name: `${p}-batch-throttle-burst`, type: 'int', default: b.throttleBurst, help: 'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.' },
  ];
}

function truncateFlags(plugin: 'log' | 'webhook', t: TruncateOptions): FlagSpec[] {
  const p = `audit-${plugin}-truncate`;
  return [
    { name: `${p}-enabled`, type: 'bool', default: t.enabled, help: 'Whether event and batch truncating is enabled.' },
    { name: `${p}-max-batch-size`, type: 'int', default: t.maxBatchSize, help: 'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.' },
    { name: `${p}-max-event-size`, type: 'int', default: t.maxEventSize, help: 'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn\'t reduce the size enough, event is discarded.' },
  ];
}

export const AUDIT_FLAGS: FlagSpec[] = [
  { name: 'audit-policy-file', type: 'string', help: 'Path to the file that defines the audit policy configuration (an audit.svc.io/v1 or audit.k8s.io/v1 Policy, YAML or JSON).' },
  { name: 'audit-log-path', type: 'string', help: 'If set, all requests coming to the apiserver will be logged to this file. \'-\' means standard out.' },
  { name: 'audit-log-maxage', type: 'int', default: 0, help: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.' },
  { name: 'audit-log-maxbackup', type: 'int', default: 0, help: 'The maximum number of old audit log files to retain. Setting a value of 0 will mean there\'s no restriction on the number of files.' },
  { name: 'audit-log-maxsize', type: 'int', default: 0, help: 'The maximum size in megabytes of the audit log file before it gets rotated.' },
  { name: 'audit-log-format', type: 'string', default: 'json', help: 'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are legacy,json.' },
  { name: 'audit-log-compress', type: 'bool', default: false, help: 'If set, the rotated log files will be compressed using gzip.' },
  { name: 'audit-log-version', type: 'string', default: D.log.version, help: 'API group and version used for serializing audit events written to log (audit.k8s.io/v1, or audit.svc.io/v1).' },
  ...batchFlags('log', D.log.batch),
  ...truncateFlags('log', D.log.truncate),
  { name: 'audit-webhook-config-file', type: 'string', help: 'Path to a kubeconfig formatted file that defines the audit webhook configuration.' },
  { name: 'audit-webhook-initial-backoff', type: 'duration', default: D.webhook.initialBackoffMs, help: 'The amount of time to wait before retrying the first failed request.' },
  { name: 'audit-webhook-version', type: 'string', default: D.webhook.version, help: 'API group and version used for serializing audit events written to webhook (audit.k8s.io/v1, or audit.svc.io/v1).' },
  ...batchFlags('webhook', D.webhook.batch),
  ...truncateFlags('webhook', D.webhook.truncate),
];

function float(v: Map<string, FlagValue>, name: string): number {
  const raw = String(v.get(name) ?? '0');
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) throw new FlagError(`invalid argument ${JSON.stringify(raw)} for "--${name}" flag: strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
  return n;
}

function batchOptions(v: Map<string, FlagValue>, plugin: 'log' | 'webhook', d: BatchOptions): BatchOptions {
  const p = `audit-${plugin}`;
  return {
    mode: String(v.get(`${p}-mode`) ?? d.mode) as BatchOptions['mode'],
    bufferSize: Number(v.get(`${p}-batch-buffer-size`) ?? d.bufferSize),
    maxBatchSize: Number(v.get(`${p}-batch-max-size`) ?? d.maxBatchSize),
    maxBatchWaitMs: Number(v.get(`${p}-batch-max-wait`) ?? d.maxBatchWaitMs),
    throttleEnable: Boolean(v.get(`${p}-batch-throttle-enable`) ?? d.throttleEnable),
    throttleQPS: float(v, `${p}-batch-throttle-qps`),
    throttleBurst: Number(v.get(`${p}-batch-throttle-burst`) ?? d.throttleBurst),
    asyncDelegate: d.asyncDelegate,
  };
}

function truncateOptions(v: Map<string, FlagValue>, plugin: 'log' | 'webhook', d: TruncateOptions): TruncateOptions {
  const p = `audit-${plugin}-truncate`;
  return {
    enabled: Boolean(v.get(`${p}-enabled`) ?? d.enabled),
    maxBatchSize: Number(v.get(`${p}-max-batch-size`) ?? d.maxBatchSize),
    maxEventSize: Number(v.get(`${p}-max-event-size`) ?? d.maxEventSize),
  };
}

export function auditOptions(v: Map<string, FlagValue>): { audit: AuditOptions } {
  const str = (k: string) => (v.get(k) as string | undefined) ?? '';
  const num = (k: string) => Number(v.get(k) ?? 0);
  const audit: AuditOptions = {
    policyFile: str('audit-policy-file'),
    log: {
      path: str('audit-log-path'), maxAge: num('audit-log-maxage'), maxBackups: num('audit-log-maxbackup'), maxSize: num('audit-log-maxsize'),
      format: str('audit-log-format') || 'json', compress: Boolean(v.get('audit-log-compress')), version: str('audit-log-version') || D.log.version,
      batch: batchOptions(v, 'log', D.log.batch), truncate: truncateOptions(v, 'log', D.log.truncate),
    },
    webhook: {
      configFile: str('audit-webhook-config-file'), initialBackoffMs: Number(v.get('audit-webhook-initial-backoff') ?? D.webhook.initialBackoffMs), version: str('audit-webhook-version') || D.webhook.version,
      batch: batchOptions(v, 'webhook', D.webhook.batch), truncate: truncateOptions(v, 'webhook', D.webhook.truncate),
    },
  };
  const errs = validateAuditOptions(audit);
  if (errs.length > 0) throw new FlagError(errs.join('; '));
  try {
    loadAuditPolicy(audit);
  } catch (err) {
    if (err instanceof AuditConfigError) throw new FlagError(err.message);
    throw err;
  }
  return { audit };
}
