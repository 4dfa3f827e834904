// kube-apiserver's audit options (staging/src/k8s.io/apiserver/pkg/server/options/audit.go):
// their defaults, their validation (kube's texts), and the backend they make:
//
//   log:     LogBackend(file | stdout, json | legacy) → mode → truncate (when enabled)
//   webhook: WebhookBackend(kubeconfig)                → mode → truncate (when enabled)
//   mode:    batch → BufferedBackend; blocking → errors ignored; blocking-strict → as is
//
// Auditing is on only with a policy file and at least one backend.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Connection } from '../webhook/index.js';
import { loadConnectionFile } from '../webhook/index.js';
import { ignoreErrors, union, type Backend } from './backend.js';
import { BufferedBackend, type BatchConfig } from './buffered.js';
import { PolicyEvaluator } from './checker.js';
import { DEFAULT_EVENT_VERSION, EVENT_VERSIONS } from './encode.js';
import { LogBackend, LOG_FORMATS, stdoutWriter, type LogFormat } from './logbackend.js';
import { RotatingFile } from './logfile.js';
import { loadPolicyFile } from './policy.js';
import { TruncatingBackend, type TruncateConfig } from './truncate.js';
import type { Policy } from './types.js';
import { WebhookBackend, DEFAULT_INITIAL_BACKOFF_MS } from './webhook.js';

export const MODES = ['batch', 'blocking', 'blocking-strict'] as const;
export type Mode = (typeof MODES)[number];

export interface BatchOptions extends BatchConfig {
  readonly mode: Mode;
}

export interface TruncateOptions extends TruncateConfig {
  readonly enabled: boolean;
}

export interface AuditLogOptions {
  /** '-' = stdout; empty = no log backend. */
  readonly path: string;
  readonly maxAge: number;
  readonly maxBackups: number;
  readonly maxSize: number;
  readonly format: string;
  readonly compress: boolean;
  readonly version: string;
  readonly batch: BatchOptions;
  readonly truncate: TruncateOptions;
}

export interface AuditWebhookOptions {
  /** Empty = no webhook backend. */
  readonly configFile: string;
  readonly initialBackoffMs: number;
  readonly version: string;
  readonly batch: BatchOptions;
  readonly truncate: TruncateOptions;
}

export interface AuditOptions {
  readonly policyFile: string;
  /** A policy given directly (tests); wins over policyFile. */
  readonly policy?: Policy;
  readonly log: AuditLogOptions;
  readonly webhook: AuditWebhookOptions;
}

const DEFAULT_TRUNCATE: TruncateOptions = { enabled: false, maxBatchSize: 10 * 1024 * 1024, maxEventSize: 100 * 1024 };

/** kube's defaults: the log backend blocks (batches of one, no throttle); the webhook batches. */
export function defaultAuditOptions(): AuditOptions {
  return {
    policyFile: '',
    log: {
      path: '', maxAge: 0, maxBackups: 0, maxSize: 0, format: 'json', compress: false, version: DEFAULT_EVENT_VERSION,
      batch: { mode: 'blocking', bufferSize: 10_000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: false },
      truncate: DEFAULT_TRUNCATE,
    },
    webhook: {
      configFile: '', initialBackoffMs: DEFAULT_INITIAL_BACKOFF_MS, version: DEFAULT_EVENT_VERSION,
      batch: { mode: 'batch', bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15, asyncDelegate: true },
      truncate: DEFAULT_TRUNCATE,
    },
  };
}

function validateBatch(plugin: string, b: BatchOptions): string[] {
  if (!(MODES as readonly string[]).includes(b.mode)) return [`invalid audit ${plugin} mode ${b.mode}, allowed modes are ${JSON.stringify(MODES.join(','))}`];
  if (b.mode !== 'batch') return [];
  if (b.bufferSize <= 0) return [`invalid audit batch ${plugin} buffer size ${b.bufferSize}, must be a positive number`];
  if (b.maxBatchSize <= 0) return [`invalid audit batch ${plugin} max batch size ${b.maxBatchSize}, must be a positive number`];
  if (b.throttleEnable) {
    if (b.throttleQPS <= 0) return [`invalid audit batch ${plugin} throttle QPS ${b.throttleQPS}, must be a positive number`];
    if (b.throttleBurst <= 0) return [`invalid audit batch ${plugin} throttle burst ${b.throttleBurst}, must be a positive number`];
  }
  return [];
}

function validateTruncate(plugin: string, t: TruncateOptions): string[] {
  if (t.maxEventSize <= 0) return [`invalid audit truncate ${plugin} max event size ${t.maxEventSize}, must be a positive number`];
  if (t.maxBatchSize < t.maxEventSize) return [`invalid audit truncate ${plugin} max batch size ${t.maxBatchSize}, must be greater than max event size (${t.maxEventSize})`];
  return [];
}

function validateVersion(v: string): string[] {
  return (EVENT_VERSIONS as readonly string[]).includes(v) ? [] : [`invalid group version, allowed versions are [${EVENT_VERSIONS.map((x) => JSON.stringify(x)).join(' ')}]`];
}

/** kube's AuditOptions.Validate: only enabled backends are checked. */
export function validateAuditOptions(o: AuditOptions): string[] {
  const errs: string[] = [];
  if (o.log.path !== '') {
    errs.push(...validateBatch('log', o.log.batch), ...validateTruncate('log', o.log.truncate), ...validateVersion(o.log.version));
    if (!(LOG_FORMATS as readonly string[]).includes(o.log.format)) errs.push(`invalid audit log format ${o.log.format}, allowed formats are ${JSON.stringify(LOG_FORMATS.join(','))}`);
    if (o.log.maxAge < 0) errs.push(`--audit-log-maxage ${o.log.maxAge} can't be a negative number`);
    if (o.log.maxBackups < 0) errs.push(`--audit-log-maxbackup ${o.log.maxBackups} can't be a negative number`);
    if (o.log.maxSize < 0) errs.push(`--audit-log-maxsize ${o.log.maxSize} can't be a negative number`);
  }
  if (o.webhook.configFile !== '') {
    errs.push(...validateBatch('webhook', o.webhook.batch), ...validateTruncate('webhook', o.webhook.truncate), ...validateVersion(o.webhook.version));
  }
  return errs;
}

export class AuditConfigError extends Error {
  override readonly name = 'AuditConfigError';
}

/** The policy, or undefined when no file is given; throws AuditConfigError in kube's words. */
export function loadAuditPolicy(o: AuditOptions): Policy | undefined {
  if (o.policy) return o.policy;
  if (o.policyFile === '') return undefined;
  try {
    return loadPolicyFile(o.policyFile);
  } catch (err) {
    throw new AuditConfigError(`loading audit policy file: ${(err as Error).message}`);
  }
}

/** kube's ensureLogFile: the directory and the file exist (0600) before the server starts. */
function ensureLogFile(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  } catch (err) {
    throw new AuditConfigError(`ensureLogFile: ${(err as Error).message}`);
  }
}

function withMode(b: Backend, batch: BatchOptions): Backend {
  if (batch.mode === 'blocking-strict') return b;
  if (batch.mode === 'blocking') return ignoreErrors(b);
  return new BufferedBackend(b, batch);
}

function withTruncate(b: Backend, t: TruncateOptions, version: string): Backend {
  return t.enabled ? new TruncatingBackend(b, t, version) : b;
}

export interface AuditSetup {
  readonly policy: PolicyEvaluator;
  readonly backend: Backend;
}

/** Builds the policy and backends; undefined when auditing is off. Throws AuditConfigError. */
export function buildAudit(o: AuditOptions, deps: { webhookConnection?: Connection } = {}): AuditSetup | undefined {
  const errs = validateAuditOptions(o);
  if (errs.length > 0) throw new AuditConfigError(errs.join('; '));
  const policy = loadAuditPolicy(o);
  if (!policy) return undefined;
  const backends: Backend[] = [];
  if (o.log.path !== '') {
    if (o.log.path !== '-') ensureLogFile(o.log.path);
    const out = o.log.path === '-' ? stdoutWriter : new RotatingFile(o.log.path, { maxSize: o.log.maxSize, maxBackups: o.log.maxBackups, maxAge: o.log.maxAge, compress: o.log.compress });
    backends.push(withTruncate(withMode(new LogBackend(out, o.log.format as LogFormat, o.log.version), o.log.batch), o.log.truncate, o.log.version));
  }
  if (o.webhook.configFile !== '') {
    let conn: Connection;
    try {
      conn = deps.webhookConnection ?? loadConnectionFile(o.webhook.configFile);
    } catch (err) {
      throw new AuditConfigError(`initializing audit webhook: ${(err as Error).message}`);
    }
    backends.push(withTruncate(withMode(new WebhookBackend(conn, o.webhook.initialBackoffMs, o.webhook.version), o.webhook.batch), o.webhook.truncate, o.webhook.version));
  }
  if (backends.length === 0) return undefined;
  const backend = union(backends);
  backend.run?.();
  return { policy: new PolicyEvaluator(policy), backend };
}
